/**
 * This build against a baseline build of the bridge (another checkout with its dist/ built, e.g.
 * the state before the v2 SDK port): `node bench/port-compare.mjs --baseline DIR`.
 *
 * - Start-up: from spawning `serve examples/petstore/openapi.yaml` to the answer of
 *   `initialize` over stdio (a 2025-11-25 client: what both builds speak), wall time and the
 *   child's CPU time (user + system from /proc/<pid>/stat, 10 ms ticks) at that moment.
 * - Per call: sequential `tools/call` round trips over stdio to a loopback upstream that answers
 *   GET /items/{id} with a fixed small JSON body (bench/fixtures/latency.openapi.yaml), after a
 *   warm-up; the client is a bare JSON-RPC line writer, the same for both, so only the bridges
 *   differ. This build is also measured on the 2026-07-28 wire (each call carries the `_meta`
 *   envelope; no initialize).
 *
 * The builds run interleaved (run i of each side by side) so that the load of a shared machine
 * falls on both; medians. Writes bench/results/port-compare.md and .json.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  BENCH_DIR,
  describeEnvironment,
  formatMs,
  isMain,
  markdownTable,
  median,
  now,
  quantile,
  REPO_DIR,
  writeResults,
} from "./lib.mjs";

const STARTS = Number(process.env.OMB_BENCH_STARTUP_RUNS ?? 21);
const WARMUP = Number(process.env.OMB_BENCH_WARMUP ?? 50);
const CALLS = Number(process.env.OMB_BENCH_CALLS ?? 500);
const REPEATS = Number(process.env.OMB_BENCH_REPEATS ?? 3);
const PETSTORE = join(REPO_DIR, "examples", "petstore", "openapi.yaml");
const LATENCY_SPEC = join(BENCH_DIR, "fixtures", "latency.openapi.yaml");
const BODY = JSON.stringify({ id: 1, name: "widget", price: 9.5, tags: ["small", "blue"] });
const CLK_TCK_MS = 10;
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
};
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A bridge child over stdio with a line reader: `request` sends one message and awaits its answer. */
function spawnBridge(cli, args) {
  const child = spawn(process.execPath, [cli, "serve", ...args], { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map();
  let buffered = "";
  child.stdout.on("data", (chunk) => {
    buffered += chunk.toString("utf8");
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  return {
    child,
    request(message) {
      const answered = new Promise((resolveAnswer) => waiting.set(message.id, resolveAnswer));
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return answered;
    },
    notify(message) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      child.stdin.end();
      child.kill();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/** CPU time the process used so far (user + system), in ms. */
function readCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * CLK_TCK_MS;
}

async function measureStart(cli) {
  const started = now();
  const bridge = spawnBridge(cli, [PETSTORE, "--base-url", "http://127.0.0.1:9"]);
  try {
    const answer = await bridge.request(INITIALIZE);
    const ms = now() - started;
    const cpuMs = readCpuMs(bridge.child.pid);
    if (answer.result?.protocolVersion === undefined) throw new Error(`no initialize answer from ${cli}`);
    return { ms, cpuMs };
  } finally {
    await bridge.close();
  }
}

async function startUpstream() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
    res.end(BODY);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { baseUrl: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** Warm-up then timed sequential calls of one bridge; ms per call. `modern`: the 2026-07-28 wire. */
async function measureCalls(cli, baseUrl, modern) {
  const bridge = spawnBridge(cli, [LATENCY_SPEC, "--base-url", baseUrl]);
  let id = 1;
  const call = async () => {
    const params = {
      name: "getItem",
      arguments: { id: (id % 100) + 1 },
      ...(modern ? { _meta: ENVELOPE } : {}),
    };
    const answer = await bridge.request({ jsonrpc: "2.0", id: id++, method: "tools/call", params });
    if (answer.result === undefined || answer.result.isError)
      throw new Error(`call failed: ${JSON.stringify(answer)}`);
  };
  try {
    if (!modern) {
      await bridge.request(INITIALIZE);
      bridge.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    }
    for (let i = 0; i < WARMUP; i += 1) await call();
    const times = [];
    for (let i = 0; i < CALLS; i += 1) {
      const started = now();
      await call();
      times.push(now() - started);
    }
    return times;
  } finally {
    await bridge.close();
  }
}

function commitOf(dir) {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "?";
  }
}

export async function runPortCompare({ baselineDir, log = (line) => process.stderr.write(`${line}\n`) }) {
  const builds = [
    {
      id: "baseline",
      label: `baseline (${commitOf(baselineDir)})`,
      cli: join(baselineDir, "dist", "cli", "main.js"),
    },
    {
      id: "this",
      label: `this build (${commitOf(REPO_DIR)})`,
      cli: join(REPO_DIR, "dist", "cli", "main.js"),
    },
  ];
  for (const build of builds) {
    if (!existsSync(build.cli)) throw new Error(`${build.cli} does not exist: build that checkout first`);
    build.starts = [];
  }
  for (let run = 0; run < STARTS; run += 1) {
    for (const build of builds) build.starts.push(await measureStart(build.cli));
    log(`port-compare: start-up run ${run + 1}/${STARTS}`);
  }
  const upstream = await startUpstream();
  const callCases = [
    { ...builds[0], era: "2025-11-25", modern: false, repeats: [] },
    { ...builds[1], era: "2025-11-25", modern: false, repeats: [] },
    { ...builds[1], era: "2026-07-28", modern: true, repeats: [] },
  ];
  try {
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      for (const c of callCases) {
        const times = await measureCalls(c.cli, upstream.baseUrl, c.modern);
        c.repeats.push({ median: median(times), p90: quantile(times, 0.9) });
      }
      log(`port-compare: calls repeat ${repeat + 1}/${REPEATS}`);
    }
  } finally {
    upstream.close();
  }
  return { env: describeEnvironment(), baselineDir, builds, callCases };
}

export function portCompareMarkdown({ env, builds, callCases }) {
  const [base, ours] = builds;
  const wall = (b) => median(b.starts.map((s) => s.ms));
  const cpu = (b) => median(b.starts.map((s) => s.cpuMs));
  const startRows = builds.map((b) => [
    b.label,
    formatMs(wall(b)),
    `${formatMs(Math.min(...b.starts.map((s) => s.ms)))} – ${formatMs(Math.max(...b.starts.map((s) => s.ms)))}`,
    formatMs(cpu(b)),
  ]);
  const callMedian = (c) => median(c.repeats.map((r) => r.median));
  const callRows = callCases.map((c) => [
    c.label,
    c.era,
    formatMs(callMedian(c), 3),
    formatMs(median(c.repeats.map((r) => r.p90)), 3),
  ]);
  return [
    "# This build against a baseline: start-up and per-call latency",
    "",
    `- Date: ${env.date}`,
    `- Node: ${env.node} on ${env.platform}`,
    `- Machine: ${env.cpu}, nproc ${env.nproc}, ${env.memory} memory; load average (1/5/15 min) at the end: ${env.loadAverage}`,
    `- Builds: ${builds.map((b) => b.label).join(", ")}`,
    "",
    `## Start-up: spawn to the \`initialize\` answer over stdio (examples/petstore), ${base.starts.length} runs each, interleaved`,
    "",
    markdownTable(["Build", "Median", "Min – max", "CPU time (median)"], startRows),
    "",
    `This build / baseline, medians: wall ${(wall(ours) / wall(base)).toFixed(3)}, CPU ${(cpu(ours) / cpu(base)).toFixed(3)}.`,
    "",
    `## Per call: sequential tools/call over stdio to a loopback upstream, ${WARMUP} warm-up + ${CALLS} timed calls, ${callCases[0].repeats.length} repeats interleaved`,
    "",
    markdownTable(["Build", "Protocol era", "Median per call", "p90 per call"], callRows),
    "",
    "Medians of the repeats' medians (and of their p90s). The client writes JSON-RPC lines itself,",
    "the same for every build.",
    "",
    "## Command",
    "",
    "```sh",
    "npm run build && node bench/port-compare.mjs --baseline ../base-checkout   # its dist/ built",
    "```",
    "",
  ].join("\n");
}

export function portCompareFigures({ env, builds, callCases }) {
  return {
    date: env.date,
    commit: env.commit,
    starts: builds.map((b) => ({
      id: b.id,
      label: b.label,
      ms: b.starts.map((s) => s.ms),
      cpuMs: b.starts.map((s) => s.cpuMs),
    })),
    calls: callCases.map((c) => ({ id: c.id, label: c.label, era: c.era, repeats: c.repeats })),
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { baseline: { type: "string" } } });
  if (values.baseline === undefined) throw new Error("usage: node bench/port-compare.mjs --baseline DIR");
  const result = await runPortCompare({ baselineDir: resolve(values.baseline) });
  writeResults("port-compare", portCompareMarkdown(result), portCompareFigures(result));
  process.stdout.write(portCompareMarkdown(result));
}
