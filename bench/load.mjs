/**
 * Load test, loopback only and bounded: 200 concurrent MCP clients over Streamable HTTP make
 * two rounds of 10,000 `callTool` calls through one bridge (the built CLI) to a local upstream,
 * with the bridge's RSS after each round (the second within 10% of the first: memory does not
 * grow with calls), next to 10,000 direct undici requests to that upstream at the same
 * concurrency. Then 2 `--stateless` replicas behind a round-robin proxy serve one client.
 * Writes bench/results/load.md and load.json.
 *
 *   npm run build && node bench/load.mjs
 *
 * OMB_LOAD_CLIENTS, OMB_LOAD_CALLS (per round) and OMB_LOAD_REPLICA_CALLS change the sizes.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Agent, request } from "undici";
import { ITEM_BODY } from "./item-upstream.mjs";
import {
  BENCH_DIR,
  describeEnvironment,
  findFreePort,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  quantile,
  REPO_DIR,
  RESULTS_DIR,
} from "./lib.mjs";

const CLIENTS = Number(process.env.OMB_LOAD_CLIENTS ?? 200);
/** Calls per round; two rounds through the bridge. */
const CALLS = Number(process.env.OMB_LOAD_CALLS ?? 10_000);
const REPLICA_CALLS = Number(process.env.OMB_LOAD_REPLICA_CALLS ?? 1_000);
const WARMUP = 1_000;
const TOTAL_TIMEOUT_MS = 20 * 60_000;
const SPEC = join(BENCH_DIR, "fixtures", "latency.openapi.yaml");

const children = new Set();
const HEAP_ROUNDS = 5;
const HEAP_ROUND_CALLS = 1_000;

/**
 * In its own process with --expose-gc: the bridge (library) and 20 clients in one heap; the heap
 * in use after a full GC, after each round of calls. Flat numbers mean no per-call leak (RSS
 * alone cannot say: V8 keeps memory it has grown into).
 */
async function heapMain() {
  const { buildModel, createBridgeRuntime, startHttpServer } = await import("../dist/index.js");
  const up = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(ITEM_BODY);
  });
  up.listen(0, "127.0.0.1");
  await once(up, "listening");
  const model = await buildModel(SPEC);
  const runtime = createBridgeRuntime(model, { baseUrl: `http://127.0.0.1:${up.address().port}` });
  const running = await startHttpServer(runtime, { port: 0 });
  const clients = await Promise.all(Array.from({ length: 20 }, () => connectClient(running.url)));
  const heap = () => {
    globalThis.gc();
    globalThis.gc();
    return process.memoryUsage().heapUsed;
  };
  const rounds = [];
  for (let round = 0; round < HEAP_ROUNDS; round++) {
    const run = await runCalls(HEAP_ROUND_CALLS, clients.length, async (worker, index) =>
      callOk(await clients[worker].callTool({ name: "getItem", arguments: { id: (index % 1000) + 1 } })),
    );
    rounds.push({ heap: heap(), errors: run.errors });
  }
  await Promise.all(clients.map((c) => c.close()));
  await running.close();
  await runtime.close();
  up.close();
  process.stdout.write(`${JSON.stringify(rounds)}\n`);
}

async function heapRun() {
  const child = spawnNode(["--expose-gc", join(BENCH_DIR, "load.mjs"), "--heap"]);
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  await once(child, "exit");
  return JSON.parse(out.trim());
}

function spawnNode(args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: REPO_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4096);
  });
  child.stderrText = () => stderr;
  return child;
}

async function startUpstreamProcess() {
  const child = spawnNode([join(BENCH_DIR, "item-upstream.mjs")]);
  const [chunk] = await once(child.stdout, "data");
  return { child, url: `http://127.0.0.1:${Number(String(chunk).trim())}` };
}

async function startBridge(upstreamUrl, extra = []) {
  const port = await findFreePort();
  const child = spawnNode([
    OUR_CLI,
    "serve",
    SPEC,
    "--transport",
    "http",
    "--port",
    String(port),
    "--base-url",
    upstreamUrl,
    ...extra,
  ]);
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  const deadline = now() + 30_000;
  for (;;) {
    try {
      const answer = await fetch(endpoint.replace(/\/mcp$/, "/healthz"));
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (now() > deadline || child.exitCode !== null)
      throw new Error(`bridge did not start:\n${child.stderrText()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, endpoint, port };
}

/** Resident set size of a live process in bytes (VmRSS). */
function rss(pid) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

async function connectClient(endpoint) {
  const client = new Client({ name: "omb-load", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
}

/** `total` calls spread over `workers` concurrent loops; latency of each call in ms. */
async function runCalls(total, workers, call) {
  const latencies = [];
  let errors = 0;
  let next = 0;
  const firstErrors = [];
  const started = now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (next < total) {
        const index = next++;
        const t = now();
        try {
          const ok = await call(worker, index);
          if (!ok) errors++;
        } catch (error) {
          errors++;
          const cause = error?.cause?.code ?? error?.cause?.message;
          if (firstErrors.length < 3)
            firstErrors.push(`${error?.message ?? error}${cause ? ` (${cause})` : ""}`);
        }
        latencies.push(now() - t);
      }
    }),
  );
  return { latencies, errors, firstErrors, seconds: (now() - started) / 1000 };
}

const callOk = (result) => result.isError !== true && result.structuredContent?.id === 1;

async function loadRun(upstreamUrl) {
  const agent = new Agent({ connections: CLIENTS, keepAliveTimeout: 60_000 });
  const direct = async (_worker, index) => {
    const response = await request(`${upstreamUrl}/items/${(index % 1000) + 1}`, { dispatcher: agent });
    const body = await response.body.json();
    return response.statusCode === 200 && body.id === 1;
  };
  await runCalls(WARMUP, CLIENTS, direct);
  const baseline = await runCalls(CALLS, CLIENTS, direct);
  await agent.close();

  const bridge = await startBridge(upstreamUrl, ["--max-concurrency", String(CLIENTS)]);
  const clients = [];
  for (let i = 0; i < CLIENTS; i += 20) {
    clients.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, CLIENTS - i) }, () => connectClient(bridge.endpoint)),
      )),
    );
  }
  const viaBridge = async (worker, index) =>
    callOk(await clients[worker].callTool({ name: "getItem", arguments: { id: (index % 1000) + 1 } }));
  await runCalls(WARMUP, CLIENTS, viaBridge);
  const rssBefore = rss(bridge.child.pid);
  const measured = await runCalls(CALLS, CLIENTS, viaBridge);
  const rssAfter = rss(bridge.child.pid);
  const second = await runCalls(CALLS, CLIENTS, viaBridge);
  const rssAfterSecond = rss(bridge.child.pid);
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const rssIdle = rss(bridge.child.pid);
  bridge.child.kill("SIGTERM");
  return { baseline, measured, second, rssBefore, rssAfter, rssAfterSecond, rssIdle };
}

/** 2 stateless replicas behind a round-robin proxy (node:http), one client. */
async function replicaRun(upstreamUrl) {
  const replicas = [
    await startBridge(upstreamUrl, ["--stateless"]),
    await startBridge(upstreamUrl, ["--stateless"]),
  ];
  const served = [0, 0];
  let turn = 0;
  const proxyAgent = new http.Agent({ keepAlive: true });
  const proxy = http.createServer((req, res) => {
    const index = turn++ % replicas.length;
    served[index]++;
    const forward = http.request(
      {
        host: "127.0.0.1",
        port: replicas[index].port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: `127.0.0.1:${replicas[index].port}` },
        agent: proxyAgent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const client = await connectClient(`http://127.0.0.1:${proxy.address().port}/mcp`);
  const result = await runCalls(REPLICA_CALLS, 1, async (_w, index) =>
    callOk(await client.callTool({ name: "getItem", arguments: { id: (index % 1000) + 1 } })),
  );
  await client.close();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  proxyAgent.destroy();
  for (const replica of replicas) replica.child.kill("SIGTERM");
  return { ...result, served };
}

const ms = (value) => `${value.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const overall = setTimeout(() => {
    process.stderr.write("load test: over the time limit, stopping\n");
    for (const child of children) child.kill("SIGKILL");
    process.exit(1);
  }, TOTAL_TIMEOUT_MS);
  const upstream = await startUpstreamProcess();
  try {
    const load = await loadRun(upstream.url);
    const replicas = await replicaRun(upstream.url);
    const heapRounds = await heapRun();
    const env = describeEnvironment();
    const q = (run, p) => quantile(run.latencies, p);
    const rows = [
      ["direct undici (baseline)", load.baseline],
      ["through the bridge, round 1", load.measured],
      ["through the bridge, round 2", load.second],
    ].map(([label, run]) => [
      label,
      String(run.latencies.length),
      String(run.errors),
      (run.latencies.length / run.seconds).toFixed(0),
      ms(q(run, 0.5)),
      ms(q(run, 0.99)),
    ]);
    const added50 = q(load.measured, 0.5) - q(load.baseline, 0.5);
    const added99 = q(load.measured, 0.99) - q(load.baseline, 0.99);
    const text = [
      "# Load test",
      "",
      `\`node bench/load.mjs\` (after \`npm run build\`): ${CLIENTS} concurrent MCP clients (SDK \`Client\` over`,
      "`StreamableHTTPClientTransport`, one session each) share two rounds of " +
        `${CALLS.toLocaleString("en")} \`callTool\` calls of \`getItem\` each through one bridge`,
      `(\`serve bench/fixtures/latency.openapi.yaml --transport http --max-concurrency ${CLIENTS}\`) to a`,
      "loopback upstream (`node:http`, its own process, a fixed 60-byte JSON answer). The baseline is",
      `the same number of direct undici requests to the same upstream at the same concurrency, after ${WARMUP.toLocaleString("en")}`,
      "warm-up calls each. Clients, bridge and upstream share the machine below.",
      "",
      `- Date: ${env.date}`,
      `- Node: ${env.node} on ${env.platform}`,
      `- Machine: ${env.cpu}, nproc ${env.nproc}, ${env.memory}; load average (1/5/15 min) at the end: ${env.loadAverage}`,
      `- openapi-mcp-bridge commit: ${env.commit}`,
      "",
      markdownTable(["", "calls", "errors", "calls/s", "p50", "p99"], rows),
      "",
      `Latency added by the bridge: **p50 ${ms(added50)}, p99 ${ms(added99)}** (client-side, so it includes`,
      "the MCP client's own JSON-RPC and schema work).",
      ...(load.measured.firstErrors.length > 0
        ? ["", `First errors: ${load.measured.firstErrors.join("; ")}`]
        : []),
      "",
      "Bridge memory (RSS of the bridge process):",
      "",
      markdownTable(
        [
          "after warm-up",
          "after round 1",
          "after round 2",
          "round 2 / round 1",
          "3 s after the clients left",
        ],
        [
          [
            mb(load.rssBefore),
            mb(load.rssAfter),
            mb(load.rssAfterSecond),
            (load.rssAfterSecond / load.rssAfter).toFixed(3),
            mb(load.rssIdle),
          ],
        ],
      ),
      "",
      `Target: RSS after round 2 within 10% of round 1 (memory does not grow with the number of calls).`,
      "",
      "Heap in use after a full GC (`--expose-gc`), bridge and 20 clients in one process (library",
      `\`startHttpServer\`), after each round of ${HEAP_ROUND_CALLS.toLocaleString("en")} calls:`,
      "",
      markdownTable(
        heapRounds.map((_, i) => `round ${i + 1}`),
        [heapRounds.map((r) => mb(r.heap))],
      ),
      "",
      `Errors in those rounds: ${heapRounds.reduce((n, r) => n + r.errors, 0)}.`,
      "",
      "## Stateless replicas",
      "",
      `Two \`serve ... --stateless\` bridges behind a round-robin proxy (\`node:http\`, alternating per`,
      `request); one client makes ${REPLICA_CALLS.toLocaleString("en")} sequential calls (after its initialize, which also`,
      "lands on either replica).",
      "",
      markdownTable(
        ["calls", "errors", "requests to replica 1", "requests to replica 2", "p50", "p99"],
        [
          [
            String(replicas.latencies.length),
            String(replicas.errors),
            String(replicas.served[0]),
            String(replicas.served[1]),
            ms(quantile(replicas.latencies, 0.5)),
            ms(quantile(replicas.latencies, 0.99)),
          ],
        ],
      ),
      "",
    ].join("\n");
    writeFileSync(join(RESULTS_DIR, "load.md"), text);
    writeFileSync(
      join(RESULTS_DIR, "load.json"),
      `${JSON.stringify(
        {
          date: env.date,
          commit: env.commit,
          clients: CLIENTS,
          callsPerRound: CALLS,
          errors: load.measured.errors + load.second.errors,
          rss: {
            warm: load.rssBefore,
            round1: load.rssAfter,
            round2: load.rssAfterSecond,
            idle: load.rssIdle,
          },
          p50: { direct: q(load.baseline, 0.5), round1: q(load.measured, 0.5), round2: q(load.second, 0.5) },
        },
        null,
        2,
      )}\n`,
    );
    process.stdout.write(text);
  } finally {
    clearTimeout(overall);
    for (const child of children) child.kill("SIGTERM");
  }
}

if (process.argv.includes("--heap")) await heapMain();
else if (isMain(import.meta.url)) await main();
