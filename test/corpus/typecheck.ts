/**
 * Generated projects of real specs type-check: `generate` for every spec of the CI sample (or
 * `--only TEXT[,TEXT...]`), then one `tsc --noEmit` over all the projects with the generated
 * projects' own compiler options (strict, noUncheckedIndexedAccess), packages from this
 * repository's node_modules. A spec the bridge refuses to load (its diagnostics explain why; the
 * corpus run counts those) is listed apart; a spec that loads but whose project does not
 * generate or does not compile is a failure. Writes test/corpus/results/typecheck.md.
 *
 *   npm run corpus:typecheck                  the CI sample (some 3-4 minutes on 2 cores)
 *   npm run corpus:typecheck -- --only github
 *   options: --keep (leave the projects in the scratch folder, printed at the end)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { findRoot, listSampleSpecs, type SpecEntry } from "./sources.js";

interface Library {
  generateProject(
    source: string,
    options: { outDir: string; cache: boolean; projectPath: string },
  ): Promise<{ model: { tools: unknown[] }; files: unknown[] }>;
  BridgeError: new (...args: never[]) => Error & { diagnostics: { code: string; message: string }[] };
}

interface Outcome {
  id: string;
  /** Project folder name, when one was generated. */
  project?: string;
  tools?: number;
  /** The bridge refused the spec (a BridgeError): its first diagnostic. */
  refused?: string;
  /** Generation failed otherwise, or the project did not compile: what went wrong. */
  errors: string[];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

function parseArgs(argv: string[]): { only?: string[]; keep: boolean } {
  const options: { only?: string[]; keep: boolean } = { keep: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--keep") options.keep = true;
    else if (arg === "--only" && argv[i + 1] !== undefined) options.only = argv[++i]!.split(",");
    else throw new Error(`unknown option ${arg} (expected --only TEXT[,TEXT...] or --keep)`);
  }
  return options;
}

/** The spec as a file the loader can read (the sample stores large ones gzipped). */
function readableSpec(spec: SpecEntry, scratch: string): string {
  if (!spec.file.endsWith(".gz")) return spec.file;
  const target = join(scratch, "specs", basename(spec.file, ".gz"));
  mkdirSync(join(scratch, "specs"), { recursive: true });
  writeFileSync(target, gunzipSync(readFileSync(spec.file)));
  return target;
}

async function generateAll(specs: SpecEntry[], scratch: string, library: Library): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const [index, spec] of specs.entries()) {
    const project = `p${String(index).padStart(3, "0")}`;
    const outcome: Outcome = { id: spec.id, errors: [] };
    try {
      const result = await library.generateProject(readableSpec(spec, scratch), {
        outDir: join(scratch, project),
        cache: false,
        projectPath: `/projects/${project}`,
      });
      outcome.project = project;
      outcome.tools = result.model.tools.length;
    } catch (error) {
      if (error instanceof library.BridgeError) {
        const first = error.diagnostics[0];
        outcome.refused = first ? `${first.code}: ${first.message}` : error.message;
      } else outcome.errors.push(`generation failed: ${(error as Error)?.stack ?? String(error)}`);
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** One tsc run over every generated project; its errors are given to the projects they are in. */
function typecheckAll(root: string, scratch: string, outcomes: Outcome[]): { ms: number; output: string } {
  const projects = outcomes.filter((o) => o.project !== undefined);
  const first = projects[0];
  if (first === undefined) return { ms: 0, output: "" };
  const own = JSON.parse(readFileSync(join(scratch, first.project!, "tsconfig.json"), "utf8")) as {
    compilerOptions: Record<string, unknown>;
  };
  const { rootDir: _root, outDir: _out, sourceMap: _map, ...compilerOptions } = own.compilerOptions;
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, noEmit: true },
      include: projects.map((o) => `${o.project}/src`),
    }),
  );
  symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      "--max-old-space-size=8192",
      join(root, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      scratch,
      "--pretty",
      "false",
    ],
    // From the scratch folder: tsc names files relative to where it runs (p000/src/...).
    { cwd: scratch, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  const ms = performance.now() - started;
  const output = `${run.stdout}${run.stderr}`;
  const byProject = new Map(projects.map((o) => [o.project!, o]));
  for (const line of output.split("\n")) {
    const owner = /^(p\d{3})[\\/]/.exec(line)?.[1];
    const outcome = owner === undefined ? undefined : byProject.get(owner);
    if (outcome !== undefined) outcome.errors.push(line);
  }
  if (run.status !== 0 && !projects.some((o) => o.errors.length > 0)) {
    // tsc failed without naming a project (a crash, out of memory): every project is unproven.
    for (const outcome of projects) outcome.errors.push(`tsc exited ${run.status}: ${output.slice(0, 500)}`);
  }
  return { ms, output };
}

function renderReport(outcomes: Outcome[], seconds: { generate: number; tsc: number }): string {
  const generated = outcomes.filter((o) => o.project !== undefined);
  const refused = outcomes.filter((o) => o.refused !== undefined);
  const failed = outcomes.filter((o) => o.errors.length > 0);
  const tools = generated.reduce((sum, o) => sum + (o.tools ?? 0), 0);
  const lines = [
    "# Generated projects of the corpus sample, type-checked",
    "",
    `- Date: ${new Date().toISOString()}; Node ${process.version}`,
    `- Specs: ${outcomes.length}; projects generated: ${generated.length} (${tools} tool modules); refused by the bridge (diagnostics, not generated): ${refused.length}`,
    `- Projects that did not generate or did not compile: **${failed.length}**`,
    `- Time: generating ${seconds.generate.toFixed(0)} s, one \`tsc --noEmit\` over all projects ${seconds.tsc.toFixed(0)} s`,
    "",
    "`npm run corpus:typecheck` (test/corpus/typecheck.ts): `generateProject` for each spec, then `tsc` with",
    "the generated projects' own compiler options (strict, noUncheckedIndexedAccess).",
    "",
  ];
  if (failed.length > 0) {
    lines.push("## Failures", "");
    for (const o of failed) {
      lines.push(`### ${o.id}`, "", "```", ...o.errors.slice(0, 10), "```", "");
    }
  }
  if (refused.length > 0) {
    lines.push("## Refused by the bridge", "");
    for (const o of refused) lines.push(`- ${o.id}: ${o.refused!.split("\n")[0]!.slice(0, 200)}`);
    lines.push("");
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const root = findRoot();
  const library = (await import(pathToFileURL(join(root, "dist", "index.js")).href)) as Library;
  let specs = listSampleSpecs(root);
  if (options.only) specs = specs.filter((s) => options.only!.some((text) => s.id.includes(text)));
  if (specs.length === 0) throw new Error(`--only ${options.only?.join(",")} matches no spec of the sample`);
  const scratch = mkdtempSync(join(tmpdir(), "omb-corpus-typecheck-"));
  try {
    log(`generating ${specs.length} projects in ${scratch}`);
    const startedAt = performance.now();
    const outcomes = await generateAll(specs, scratch, library);
    const generateSeconds = (performance.now() - startedAt) / 1000;
    log(`type-checking ${outcomes.filter((o) => o.project).length} projects`);
    const tsc = typecheckAll(root, scratch, outcomes);
    const report = renderReport(outcomes, { generate: generateSeconds, tsc: tsc.ms / 1000 });
    const file = join(root, "test", "corpus", "results", options.only ? "typecheck-only.md" : "typecheck.md");
    writeFileSync(file, report);
    process.stdout.write(report);
    if (outcomes.some((o) => o.errors.length > 0)) process.exitCode = 1;
  } finally {
    if (options.keep) log(`projects kept in ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(2);
});
