/**
 * `generate`: a BridgeModel (or a spec) → a standalone TypeScript MCP server project. The
 * files are computed in memory (`emitProject`, deterministic: same model and options, same
 * bytes), then written (`writeProject`), which refuses a non-empty directory unless forced,
 * never overwrites a file the user changed unless told to, and never deletes one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { BridgeModel } from "../../model/types.js";
import { type SelectionResult, selectToolsChecked, type ToolSelection } from "../../runtime/access/select.js";
import { readOrBuildSearchIndex } from "../../runtime/discovery/search.js";
import type { BuildOptions } from "../compile/build-model.js";
import type { ToolModuleRef } from "./emit/api-modules.js";
import { emitHooksSeed } from "./emit/hooks-module.js";
import { type ModuleJob, toModelHead } from "./emit/modules.js";
import { chooseModuleNames, toPackageName } from "./emit/names.js";
import {
  credentialVariables,
  emitClientConfigs,
  emitPackageJson,
  emitTsconfig,
  readOwnPackage,
} from "./emit/project.js";
import { emitEnvExample, emitReadme } from "./emit/readme.js";
import { PACKAGE_ROOT, RUNTIME_VERSION_FILE, readRuntimeSource } from "./emit/runtime.js";
import { emitServerJson, listCredentialInputs } from "./emit/server-json.js";
import { choosePrintWorkers, type ModulePrinter, startModulePrinter } from "./print/print-worker-pool.js";
import { checkOutDir, type GeneratedFile, writeProject } from "./write-project.js";

export { type ModulePrinter, startModulePrinter };

export interface EmitOptions {
  /** npm package name and MCP client key (default: from the spec's title). */
  name?: string;
  /**
   * The project's path as written into the client configurations and README (default: the
   * output directory, absolute). Tests pass a fixed one so the output is the same everywhere.
   */
  projectPath?: string;
  /**
   * Worker threads that print the TypeScript modules (0: this thread). `emitProject` prints in
   * this thread unless told otherwise; `generateProject` starts as many as the machine has
   * cores to spare for (choosePrintWorkers in print-worker-pool.ts). Same bytes either way.
   */
  printWorkers?: number;
}

export interface GenerateOptions extends EmitOptions, BuildOptions {
  /** Where to write the project. */
  outDir: string;
  /**
   * Write into a non-empty directory: files an earlier generation wrote are replaced while
   * unchanged; a changed one (or one no generation wrote) stops the write, listed.
   */
  force?: boolean;
  /** With force: replace changed files too, instead of refusing. */
  overwriteChanged?: boolean;
  /** Only these tools get a module (the selection `serve` takes; default: every tool). */
  selection?: ToolSelection;
  /**
   * How a string source becomes a model (default: `buildModel(source, options)`). The CLI
   * passes one that also reads a model file saved by `model`.
   */
  loadModel?: (source: string) => Promise<BridgeModel>;
}

export interface GenerateResult {
  outDir: string;
  model: BridgeModel;
  files: GeneratedFile[];
  /** Files of an earlier generation that this one no longer has and that were unchanged: deleted. */
  removed: string[];
  /** Files of an earlier generation that this one no longer has, changed by the user: kept. */
  kept: string[];
  /** Files that already had this generation's contents: not written again. */
  unchanged: string[];
  /**
   * An earlier generation into `outDir` had been interrupted (its marker was there, see
   * write-project.ts): this one, given `force`, completed it.
   */
  interrupted: boolean;
  /** Selection criteria (`tool x*`, `tag pets`, `method put`...) that matched no tool: likely typos. */
  unmatched: string[];
  /** The spec's closest tags or tool names for an unmatched one (see selectTools). */
  near: Record<string, string[]>;
}

const TEMPLATES = join(PACKAGE_ROOT, "templates", "project");
/** Template files stored without their leading dot (npm would drop or rename them). */
const TEMPLATE_NAMES: Record<string, string> = { gitignore: ".gitignore", dockerignore: ".dockerignore" };

function listFiles(dir: string, relative = ""): string[] {
  return readdirSync(join(dir, relative), { withFileTypes: true })
    .flatMap((entry) => {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      return entry.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

function readTemplates(): GeneratedFile[] {
  return listFiles(TEMPLATES).map((path) => ({
    path: TEMPLATE_NAMES[path] ?? path,
    contents: readFileSync(join(TEMPLATES, path), "utf8"),
  }));
}

/**
 * Every file of the project, in memory, sorted by path. The TypeScript modules are printed by
 * `printer` (worker threads started earlier, see print-worker-pool.ts); without one, by
 * `options.printWorkers` workers started now, by default none: in this thread, where the printer
 * is loaded on first use. Either way the same code prints the same bytes.
 */
export async function emitProject(
  model: BridgeModel,
  options: EmitOptions & { outDir?: string } = {},
  printer?: ModulePrinter,
): Promise<GeneratedFile[]> {
  const modulePrinter = printer ?? startModulePrinter({ workers: options.printWorkers ?? 0 });
  try {
    return await emitFiles(model, options, modulePrinter);
  } finally {
    if (printer === undefined) modulePrinter.close();
  }
}

async function emitFiles(
  model: BridgeModel,
  options: EmitOptions & { outDir?: string },
  printer: ModulePrinter,
): Promise<GeneratedFile[]> {
  const packageName = toPackageName(options.name ?? model.info.title);
  const projectPath = (options.projectPath ?? resolve(options.outDir ?? ".")).split(sep).join("/");
  const runtime = readRuntimeSource();
  const packageJson = emitPackageJson(model, packageName, runtime.packages);
  const own = JSON.parse(packageJson) as { name: string; version: string };

  const moduleNames = chooseModuleNames(model.tools.map((tool) => tool.name));
  const modules: ToolModuleRef[] = model.tools.map((tool, i) => ({
    toolName: tool.name,
    module: moduleNames[i]!,
  }));
  const jobs: ModuleJob[] = model.tools.map((tool, i) => ({
    kind: "tool",
    path: `src/tools/${moduleNames[i]}.ts`,
    tool,
  }));
  jobs.push({ kind: "tools-index", path: "src/tools/index.ts", modules });
  jobs.push({ kind: "api", path: "src/api.ts" });
  // The model's own index when it fits its tools (buildModel's, from its cache or built beside
  // it; a saved model's), else one built over the tools selected.
  jobs.push({ kind: "search-index", path: "src/search-index.ts", index: readOrBuildSearchIndex(model) });

  const files: GeneratedFile[] = [];
  for (const file of runtime.files) {
    const path = `src/${file.path}`;
    if (file.path === RUNTIME_VERSION_FILE) {
      jobs.push({ kind: "version", path, packageName: own.name, version: own.version });
    } else files.push({ path, contents: file.text });
  }
  files.push(...readTemplates());
  files.push({ path: "package.json", contents: packageJson });
  files.push({ path: "tsconfig.json", contents: emitTsconfig() });
  files.push({ path: "server.json", contents: emitProjectServerJson(model, own) });
  for (const [name, contents] of Object.entries(emitClientConfigs(model, packageName, projectPath))) {
    files.push({ path: `mcp-clients/${name}`, contents });
  }
  checkPaths([...jobs, ...files]);

  // The printing goes on in the workers while this thread writes the README.
  const printed = printer.print(toModelHead(model), jobs);
  printed.catch(() => undefined); // awaited below; should the README throw first, not unhandled
  files.push({
    path: "README.md",
    contents: emitReadme({
      model,
      packageName,
      projectPath,
      modules: new Map(modules.map((m) => [m.toolName, m.module])),
      generatorVersion: readOwnPackage().version,
    }),
  });
  files.push({ path: ".env.example", contents: emitEnvExample(model) });
  files.push(emitHooksSeed(model.tools.map((tool) => tool.name)));
  const texts = await printed;
  jobs.forEach((job, i) => {
    files.push({ path: job.path, contents: texts[i]! });
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The project's server.json for the MCP Registry. Its name needs the publisher's namespace,
 * which generation cannot know: `io.github.your-github-user/<package>` until they set it (the
 * project README says so).
 */
function emitProjectServerJson(model: BridgeModel, own: { name: string; version: string }): string {
  return emitServerJson({
    name: `io.github.your-github-user/${own.name}`,
    title: `${model.info.title} MCP server`,
    description: `MCP server for ${model.info.title} ${model.info.version}`,
    version: own.version,
    packageName: own.name,
    packageArguments: [],
    secrets: listCredentialInputs(model, credentialVariables(model)),
  });
}

/** No two files may share a path, even where file names ignore case. */
function checkPaths(files: { path: string }[]): void {
  const paths = new Set<string>(["readme.md", ".env.example"]);
  for (const file of files) {
    const key = file.path.toLowerCase();
    if (paths.has(key)) throw new Error(`two generated files would share the path ${file.path}`);
    paths.add(key);
  }
}

/**
 * Generates the project for a model or a spec (file, URL or `-`) and writes it to `outDir`:
 * refuses a non-empty directory first, loads and plans the spec, keeps the selected tools,
 * prints their modules and writes the files.
 */
export async function generateProject(
  source: BridgeModel | string,
  options: GenerateOptions,
): Promise<GenerateResult> {
  checkOutDir(options.outDir, options.force === true); // refuse before any work
  if (options.selection !== undefined) selectChecked([], options.selection); // a bad option, too
  // The workers load the printer while the spec is loaded and planned here.
  const printer = startModulePrinter({ workers: options.printWorkers ?? choosePrintWorkers() });
  try {
    const loaded = typeof source === "string" ? await loadModelFrom(source, options) : source;
    const selected =
      options.selection === undefined ? undefined : selectChecked(loaded.tools, options.selection);
    const model = selected === undefined ? loaded : { ...loaded, tools: selected.tools };
    options.onStep?.("print");
    const files = await emitProject(model, options, printer);
    options.onStep?.("write");
    const { removed, kept, unchanged, interrupted } = writeProject(options.outDir, files, {
      force: options.force === true,
      overwriteChanged: options.overwriteChanged === true,
    });
    return {
      outDir: resolve(options.outDir),
      model,
      files,
      removed,
      kept,
      unchanged,
      interrupted,
      unmatched: selected?.unmatched ?? [],
      near: selected?.near ?? {},
    };
  } finally {
    printer.close();
  }
}

async function loadModelFrom(source: string, options: GenerateOptions): Promise<BridgeModel> {
  if (options.loadModel !== undefined) return options.loadModel(source);
  const { buildModel } = await import("../compile/build-model.js");
  return buildModel(source, options);
}

/** The selected tools (serve's selection), or OMB_OPTION for an invalid selection. */
function selectChecked(tools: BridgeModel["tools"], selection: ToolSelection): SelectionResult {
  return selectToolsChecked(
    tools,
    selection,
    "see the selection options (includeTools, methods, destructive...)",
  );
}
