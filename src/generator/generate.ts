/**
 * `generate`: a BridgeModel (or a spec) → a standalone TypeScript MCP server project. The
 * files are computed in memory (`emitProject`, deterministic: same model and options, same
 * bytes), then written (`writeProject`), which refuses a non-empty directory unless forced and
 * never deletes a file it did not write.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { failWith } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import type { BuildOptions } from "./build.js";
import { emitApiModule, emitToolsIndex, type ToolModuleRef } from "./emit/api-modules.js";
import { chooseModuleNames, toPackageName } from "./emit/names.js";
import { emitClientConfigs, emitPackageJson, emitTsconfig, readOwnPackage, toJson } from "./emit/project.js";
import { emitEnvExample, emitReadme } from "./emit/readme.js";
import { emitRuntimeVersion, PACKAGE_ROOT, RUNTIME_VERSION_FILE, readRuntimeSource } from "./emit/runtime.js";
import { emitToolModule } from "./emit/tool-module.js";

export interface EmitOptions {
  /** npm package name and MCP client key (default: from the spec's title). */
  name?: string;
  /**
   * The project's path as written into the client configurations and README (default: the
   * output directory, absolute). Tests pass a fixed one so the output is the same everywhere.
   */
  projectPath?: string;
}

export interface GenerateOptions extends EmitOptions, BuildOptions {
  /** Where to write the project. */
  outDir: string;
  /** Write into a non-empty directory (files of the same name are overwritten). */
  force?: boolean;
}

export interface GeneratedFile {
  /** Relative, with `/` separators. */
  path: string;
  contents: string;
}

export interface GenerateResult {
  outDir: string;
  model: BridgeModel;
  files: GeneratedFile[];
  /** Files of an earlier generation that this one no longer has and that were unchanged: deleted. */
  removed: string[];
}

/** Records what a generation wrote, so the next one can tell its own files from the user's. */
export const MANIFEST = ".openapi-mcp-bridge.json";
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
 * Every file of the project, in memory, sorted by path. The printer (ts-morph) is loaded here,
 * on first use, so importing the library does not load the TypeScript compiler.
 */
export async function emitProject(
  model: BridgeModel,
  options: EmitOptions & { outDir?: string } = {},
): Promise<GeneratedFile[]> {
  const { createPrinter } = await import("./print.js");
  const packageName = toPackageName(options.name ?? model.info.title);
  const projectPath = (options.projectPath ?? resolve(options.outDir ?? ".")).split(sep).join("/");
  const runtime = readRuntimeSource();
  const printer = createPrinter();
  const files: GeneratedFile[] = [];

  const moduleNames = chooseModuleNames(model.tools.map((tool) => tool.name));
  const modules: ToolModuleRef[] = model.tools.map((tool, i) => ({
    toolName: tool.name,
    module: moduleNames[i]!,
  }));
  model.tools.forEach((tool, i) => {
    const path = `src/tools/${moduleNames[i]}.ts`;
    files.push({ path, contents: printer.printModule(path, emitToolModule(tool)) });
  });
  files.push({
    path: "src/tools/index.ts",
    contents: printer.printModule("src/tools/index.ts", emitToolsIndex(model, modules)),
  });
  files.push({ path: "src/api.ts", contents: printer.printModule("src/api.ts", emitApiModule(model)) });
  const packageJson = emitPackageJson(model, packageName, runtime.packages);
  const own = JSON.parse(packageJson) as { name: string; version: string };
  for (const file of runtime.files) {
    const path = `src/${file.path}`;
    files.push({
      path,
      contents:
        file.path === RUNTIME_VERSION_FILE
          ? printer.printModule(path, emitRuntimeVersion(own.name, own.version))
          : file.text,
    });
  }
  files.push(...readTemplates());

  files.push({ path: "package.json", contents: packageJson });
  files.push({ path: "tsconfig.json", contents: emitTsconfig() });
  for (const [name, contents] of Object.entries(emitClientConfigs(model, packageName, projectPath))) {
    files.push({ path: `mcp-clients/${name}`, contents });
  }
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
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const paths = new Set<string>();
  for (const file of files) {
    const key = file.path.toLowerCase();
    if (paths.has(key)) throw new Error(`two generated files would share the path ${file.path}`);
    paths.add(key);
  }
  return files;
}

function hashOf(contents: string | Buffer): string {
  return createHash("sha256").update(contents).digest("hex");
}

function readManifest(outDir: string): Record<string, string> {
  try {
    const value = JSON.parse(readFileSync(join(outDir, MANIFEST), "utf8")) as { files?: unknown };
    if (typeof value.files === "object" && value.files !== null) return value.files as Record<string, string>;
  } catch {
    // no manifest: nothing here was written by a generation
  }
  return {};
}

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/**
 * Writes the files into `outDir`. A non-empty directory needs `force`. Files a previous
 * generation wrote (listed in its manifest) that this one does not write are deleted only when
 * still unchanged; nothing else is ever deleted.
 */
export function writeProject(outDir: string, files: GeneratedFile[], force = false): string[] {
  const root = resolve(outDir);
  checkOutDir(outDir, force);
  const previous = readManifest(root);
  const current: Record<string, string> = {};
  const made = new Set<string>();
  for (const file of files) {
    const target = join(root, ...file.path.split("/"));
    const folder = dirname(target);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    writeFileSync(target, file.contents);
    current[file.path] = hashOf(file.contents);
  }
  const removed: string[] = [];
  for (const [path, hash] of Object.entries(previous).sort()) {
    if (path in current || path.split("/").includes("..")) continue;
    const target = join(root, ...path.split("/"));
    try {
      if (hashOf(readFileSync(target)) === hash) {
        rmSync(target);
        removed.push(path);
      }
    } catch {
      // already gone
    }
  }
  writeFileSync(
    join(root, MANIFEST),
    toJson({ generator: `openapi-mcp-bridge ${readOwnPackage().version}`, files: current }),
  );
  return removed;
}

/** Throws the diagnostic `writeProject` would give for this directory, before any work. */
export function checkOutDir(outDir: string, force: boolean): void {
  const root = resolve(outDir);
  if (existsAsFile(root))
    failWith("OMB_OUTPUT_NOT_DIR", `${outDir} is a file, not a directory`, { file: outDir });
  if (!force && !isEmptyDir(root)) {
    failWith("OMB_OUTPUT_NOT_EMPTY", `${outDir} is not empty`, {
      file: outDir,
      hint: "choose an empty or new directory, or pass --force to write over the generated files in it",
    });
  }
}

function existsAsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Generates the project for a model or a spec (file, URL or `-`) and writes it to `outDir`. */
export async function generateProject(
  source: BridgeModel | string,
  options: GenerateOptions,
): Promise<GenerateResult> {
  checkOutDir(options.outDir, options.force === true); // refuse before any work
  let model: BridgeModel;
  if (typeof source === "string") {
    const { buildModel } = await import("./build.js");
    model = await buildModel(source, options);
  } else model = source;
  const files = await emitProject(model, options);
  const removed = writeProject(options.outDir, files, options.force === true);
  return { outDir: resolve(options.outDir), model, files, removed };
}
