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
 *   npm run corpus:typecheck -- --all --step 10   every tenth spec of the three packages
 *   options: --keep (leave the projects in the scratch folder, printed at the end),
 *            --chunk N (projects per tsc run, default 200: bounds tsc's memory)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  corpusDir,
  ensureInstalled,
  findRoot,
  listAllSpecs,
  listSampleSpecs,
  type SpecEntry,
} from "./sources.js";

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

interface Options {
  only?: string[];
  keep: boolean;
  all: boolean;
  step: number;
  chunk: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { keep: false, all: false, step: 1, chunk: 200 };
  const count = (flag: string, value: string | undefined): number => {
    if (value === undefined || !/^[1-9]\d*$/.test(value))
      throw new Error(`${flag} needs a positive whole number`);
    return Number(value);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--keep") options.keep = true;
    else if (arg === "--all") options.all = true;
    else if (arg === "--only" && argv[i + 1] !== undefined) options.only = argv[++i]!.split(",");
    else if (arg === "--step") options.step = count(arg, argv[++i]);
    else if (arg === "--chunk") options.chunk = count(arg, argv[++i]);
    else throw new Error(`unknown option ${arg} (see the top of test/corpus/typecheck.ts)`);
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
    const project = `p${String(index).padStart(4, "0")}`;
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

/**
 * `tsc --noEmit` over the generated projects, `chunk` projects a run; each error goes to the
 * project it is in.
 */
function typecheckAll(root: string, scratch: string, outcomes: Outcome[], chunk: number): number {
  const projects = outcomes.filter((o) => o.project !== undefined);
  const first = projects[0];
  if (first === undefined) return 0;
  const own = JSON.parse(readFileSync(join(scratch, first.project!, "tsconfig.json"), "utf8")) as {
    compilerOptions: Record<string, unknown>;
  };
  const { rootDir: _root, outDir: _out, sourceMap: _map, ...compilerOptions } = own.compilerOptions;
  symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
  const started = performance.now();
  for (let at = 0; at < projects.length; at += chunk) {
    const group = projects.slice(at, at + chunk);
    log(`tsc: projects ${at + 1}-${at + group.length} of ${projects.length}`);
    typecheckGroup(root, scratch, group, compilerOptions);
  }
  return performance.now() - started;
}

function typecheckGroup(
  root: string,
  scratch: string,
  projects: Outcome[],
  compilerOptions: Record<string, unknown>,
): void {
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, noEmit: true },
      include: projects.map((o) => `${o.project}/src`),
    }),
  );
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
    // From the scratch folder: tsc names files relative to where it runs (p0000/src/...).
    { cwd: scratch, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  const output = `${run.stdout}${run.stderr}`;
  const byProject = new Map(projects.map((o) => [o.project!, o]));
  let named = false;
  for (const line of output.split("\n")) {
    const owner = /^(p\d+)[\\/]/.exec(line)?.[1];
    const outcome = owner === undefined ? undefined : byProject.get(owner);
    if (outcome !== undefined) {
      outcome.errors.push(line);
      named = true;
    }
  }
  if (run.status !== 0 && !named) {
    // tsc failed without naming a project (a crash, out of memory): none of them is proven.
    for (const outcome of projects) outcome.errors.push(`tsc exited ${run.status}: ${output.slice(0, 500)}`);
  }
}

function renderReport(
  outcomes: Outcome[],
  seconds: { generate: number; tsc: number },
  options: Options,
): string {
  const generated = outcomes.filter((o) => o.project !== undefined);
  const refused = outcomes.filter((o) => o.refused !== undefined);
  const failed = outcomes.filter((o) => o.errors.length > 0);
  const tools = generated.reduce((sum, o) => sum + (o.tools ?? 0), 0);
  const lines = [
    `# Generated projects of ${options.all ? `the corpus (every ${options.step === 1 ? "" : `${ordinal(options.step)} `}spec of the three packages)` : "the corpus sample"}, type-checked`,
    "",
    `- Date: ${new Date().toISOString()}; Node ${process.version}`,
    `- Specs: ${outcomes.length}; projects generated: ${generated.length} (${tools} tool modules); refused by the bridge (diagnostics, not generated): ${refused.length}`,
    `- Projects that did not generate or did not compile: **${failed.length}**`,
    `- Time: generating ${seconds.generate.toFixed(0)} s, \`tsc --noEmit\` over the projects (${options.chunk} a run) ${seconds.tsc.toFixed(0)} s`,
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

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const root = findRoot();
  const library = (await import(pathToFileURL(join(root, "dist", "index.js")).href)) as Library;
  let specs: SpecEntry[];
  if (options.all) {
    ensureInstalled(corpusDir(), log);
    specs = listAllSpecs(corpusDir()).filter((_, i) => i % options.step === 0);
  } else specs = listSampleSpecs(root);
  if (options.only) specs = specs.filter((s) => options.only!.some((text) => s.id.includes(text)));
  if (specs.length === 0) throw new Error(`--only ${options.only?.join(",")} matches no spec of the sample`);
  const scratch = mkdtempSync(join(tmpdir(), "omb-corpus-typecheck-"));
  try {
    log(`generating ${specs.length} projects in ${scratch}`);
    const startedAt = performance.now();
    const outcomes = await generateAll(specs, scratch, library);
    const generateSeconds = (performance.now() - startedAt) / 1000;
    log(`type-checking ${outcomes.filter((o) => o.project).length} projects`);
    const tscMs = typecheckAll(root, scratch, outcomes, options.chunk);
    const report = renderReport(outcomes, { generate: generateSeconds, tsc: tscMs / 1000 }, options);
    const name = options.only ? "typecheck-only" : options.all ? "typecheck-all" : "typecheck";
    const file = join(root, "test", "corpus", "results", `${name}.md`);
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
