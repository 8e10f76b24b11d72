/**
 * HTTP calls/s at saturation, and the bridge's memory across rounds of load. Loopback only.
 *
 * Throughput: three servers in front of one loopback upstream (its own process, `GET /items/{id}`
 * answering a fixed 60-byte JSON, `fixtures/latency.openapi.yaml`, as load.mjs and latency.mjs):
 * - ours: `serve --transport http` (sessionful Streamable HTTP, the default);
 * - @ivotoby/openapi-mcp-server over its `--transport http`;
 * - the floor: bench/forwarder.mjs, a bare undici forwarder with no MCP (reads the same JSON-RPC
 *   body, makes the same upstream call, returns the upstream's body).
 * Clients are raw JSON-RPC over undici, the same way for both MCP servers: each client opens its
 * own session (initialize, notifications/initialized), then POSTs `tools/call` of the one tool in
 * a loop; request ids are unique across all clients. Each server answers where its transport
 * puts answers: ours in the POST's own answer (an SSE event), @ivotoby on the session's GET
 * stream (its POST answers 202). OMB_HTTP_CLIENTS concurrent clients (default 64: enough to keep
 * two cores busy, see the CPU column) make OMB_HTTP_CALLS calls (default 2,000) per round; rounds
 * are interleaved (ours, @ivotoby, forwarder; OMB_HTTP_ROUNDS, default 5) after a warm-up each.
 * The ratios are taken round by round.
 *
 * Memory: a fresh bridge started with `--inspect=127.0.0.1:0` (a node flag: the product is
 * unchanged) serves OMB_MEMORY_CLIENTS (200) clients in three rounds of OMB_MEMORY_CALLS (5,000)
 * calls; after each, over the DevTools protocol, `HeapProfiler.collectGarbage` (twice) and
 * `Runtime.getHeapUsage`, and VmRSS from /proc. Target: round 3 within 5% of round 2 for both.
 * Then a CPU profile (`Profiler.start`/`stop`, the same protocol) of one more saturated round,
 * with the functions of most self time. Writes bench/results/http-throughput.md and .json.
 *
 *   npm run build && node bench/http-throughput.mjs
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Agent, request, WebSocket } from "undici";
import {
  BENCH_DIR,
  COMPETITOR_BIN,
  describeEnvironment,
  environmentMarkdown,
  findFreePort,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  REPO_DIR,
  summarize,
  writeResults,
} from "./lib.mjs";
import { setup } from "./setup.mjs";

const CLIENTS = Number(process.env.OMB_HTTP_CLIENTS ?? 64);
const CALLS = Number(process.env.OMB_HTTP_CALLS ?? 2_000);
const ROUNDS = Number(process.env.OMB_HTTP_ROUNDS ?? 5);
const WARMUP = Number(process.env.OMB_HTTP_WARMUP ?? 1_000);
const MEMORY_CLIENTS = Number(process.env.OMB_MEMORY_CLIENTS ?? 200);
const MEMORY_CALLS = Number(process.env.OMB_MEMORY_CALLS ?? 5_000);
const PROFILE_CALLS = Math.min(MEMORY_CALLS, 3_000);
const PROFILE_TOP = 20;
/** Another build's CLI (e.g. before a change), served as one more interleaved case. */
const BASELINE_CLI = process.env.OMB_HTTP_BASELINE_CLI;
/**
 * Only these servers (comma-separated: ours, competitor, floor, baseline), for quick before/after
 * runs while working; the written results need all of them.
 */
const ONLY = process.env.OMB_HTTP_ONLY?.split(",");
/**
 * The servers of a round loaded at the same time, not one after the other: on a machine other
 * work shares, both sides of a before/after comparison then see the same load (their CPU per call
 * compares; their calls/s are each a share of what the clients manage together).
 */
const PAIRED = process.env.OMB_HTTP_PAIRED === "1";
/** The CLI the memory rounds and the profile serve (another build's, to profile it alike). */
const MEMORY_CLI = process.env.OMB_HTTP_MEMORY_CLI ?? OUR_CLI;
const SPEC = join(BENCH_DIR, "fixtures", "latency.openapi.yaml");
const PROTOCOL_VERSION = "2025-06-18";
const TOTAL_TIMEOUT_MS = 10 * 60_000;

const children = new Set();

function spawnNode(args) {
  const child = spawn(process.execPath, args, {
    cwd: REPO_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  child.stderrText = () => stderr;
  return child;
}

/** A child that prints its port on its first stdout line. */
async function spawnPrintingPort(args) {
  const child = spawnNode(args);
  const [chunk] = await once(child.stdout, "data");
  return { child, port: Number(String(chunk).trim()) };
}

async function waitForHttp(url, child) {
  const deadline = now() + 30_000;
  for (;;) {
    try {
      const answer = await request(url);
      await answer.body.dump();
      if (answer.statusCode < 500) return;
    } catch {
      // not listening yet
    }
    if (now() > deadline || child.exitCode !== null) throw new Error(`did not start:\n${child.stderrText()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startOurs(upstreamUrl, nodeFlags = [], cli = OUR_CLI) {
  const port = await findFreePort();
  const child = spawnNode([
    ...nodeFlags,
    cli,
    "serve",
    SPEC,
    "--transport",
    "http",
    "--port",
    String(port),
    "--base-url",
    upstreamUrl,
    "--max-concurrency",
    String(Math.max(CLIENTS, MEMORY_CLIENTS)),
  ]);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, child);
  return { child, url: `http://127.0.0.1:${port}/mcp`, tool: "getItem", answersOn: "post" };
}

async function startCompetitor(upstreamUrl) {
  const port = await findFreePort();
  const child = spawnNode([
    COMPETITOR_BIN,
    "--transport",
    "http",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--openapi-spec",
    SPEC,
    "--api-base-url",
    upstreamUrl,
    "--verbose",
    "false",
  ]);
  await waitForHttp(`http://127.0.0.1:${port}/health`, child);
  return { child, url: `http://127.0.0.1:${port}/mcp`, tool: "get-item", answersOn: "stream" };
}

async function startFloor(upstreamUrl) {
  const { child, port } = await spawnPrintingPort([
    join(BENCH_DIR, "forwarder.mjs"),
    "--upstream",
    upstreamUrl,
  ]);
  return { child, url: `http://127.0.0.1:${port}/`, answersOn: "plain" };
}

let lastId = 0;
/** Unique across every client: @ivotoby routes answers to sessions by request id alone. */
const nextId = () => ++lastId;

/** The JSON-RPC messages in an SSE text (`data:` lines of each event). */
function sseMessages(text) {
  const messages = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (data !== "") messages.push(JSON.parse(data));
  }
  return messages;
}

/** One raw JSON-RPC client session on a server (for the forwarder: no session, plain POSTs). */
async function openSession(server, agent, streamAgent) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = async (message) => {
    const answer = await request(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
      dispatcher: agent,
    });
    const text = await answer.body.text();
    return { answer, text };
  };
  if (server.answersOn === "plain") {
    return {
      call: async (id) => {
        const { answer, text } = await post({
          jsonrpc: "2.0",
          id: nextId(),
          method: "tools/call",
          params: { name: "getItem", arguments: { id } },
        });
        return answer.statusCode === 200 && text.includes('"widget"');
      },
      close: async () => {},
    };
  }
  const init = await post({
    jsonrpc: "2.0",
    id: nextId(),
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "omb-http-bench", version: "0.0.0" },
    },
  });
  const sessionId = init.answer.headers["mcp-session-id"];
  if (init.answer.statusCode !== 200 || typeof sessionId !== "string")
    throw new Error(`initialize: ${init.answer.statusCode} ${init.text.slice(0, 300)}`);
  const initResult = init.answer.headers["content-type"]?.includes("text/event-stream")
    ? sseMessages(init.text)[0]
    : JSON.parse(init.text);
  headers["mcp-session-id"] = sessionId;
  headers["mcp-protocol-version"] = initResult.result.protocolVersion;
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  if (initialized.answer.statusCode !== 202) throw new Error(`initialized: ${initialized.answer.statusCode}`);

  const pending = new Map();
  let stream;
  if (server.answersOn === "stream") {
    // @ivotoby writes the stream's headers with its first event only: not awaited here.
    const opened = request(server.url, {
      method: "GET",
      headers: { accept: "text/event-stream", "mcp-session-id": sessionId },
      dispatcher: streamAgent,
    }).then((answer) => {
      stream = answer;
      answer.body.setEncoding("utf8");
      let buffered = "";
      answer.body.on("data", (chunk) => {
        buffered += chunk;
        const end = buffered.lastIndexOf("\n\n");
        if (end === -1) return;
        const complete = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        for (const message of sseMessages(complete)) {
          pending.get(message.id)?.(message);
          pending.delete(message.id);
        }
      });
      answer.body.on("error", () => {});
    });
    opened.catch(() => {});
    // An answer sent before the server holds the stream is lost: ping until one comes back on it.
    for (let attempt = 0; ; attempt++) {
      if (attempt === 20) throw new Error("no answer on the GET stream");
      const id = nextId();
      const answered = new Promise((resolve) => {
        pending.set(id, resolve);
        setTimeout(resolve, 500, undefined).unref();
      });
      await post({ jsonrpc: "2.0", id, method: "ping" });
      if ((await answered) !== undefined) break;
      pending.delete(id);
    }
  }
  const isGood = (message) =>
    message?.result !== undefined &&
    message.result.isError !== true &&
    JSON.stringify(message.result.content ?? []).includes("widget");
  return {
    call: async (itemId) => {
      const id = nextId();
      const message = {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: server.tool, arguments: { id: itemId } },
      };
      if (server.answersOn === "stream") {
        const answered = new Promise((resolve) => pending.set(id, resolve));
        const { answer } = await post(message);
        if (answer.statusCode !== 202) {
          pending.delete(id);
          return false;
        }
        return isGood(await answered);
      }
      const { answer, text } = await post(message);
      if (answer.statusCode !== 200) return false;
      const reply = answer.headers["content-type"]?.includes("text/event-stream")
        ? sseMessages(text).find((m) => m.id === id)
        : JSON.parse(text);
      return isGood(reply);
    },
    close: async () => {
      stream?.body.destroy();
      await request(server.url, {
        method: "DELETE",
        headers: { "mcp-session-id": sessionId, "mcp-protocol-version": headers["mcp-protocol-version"] },
        dispatcher: agent,
      })
        .then((answer) => answer.body.dump())
        .catch(() => {});
    },
  };
}

async function openSessions(server, count) {
  const agent = new Agent({ connections: count, keepAliveTimeout: 60_000 });
  const streamAgent = new Agent({ connections: count + 1, keepAliveTimeout: 60_000, bodyTimeout: 0 });
  const sessions = [];
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, () =>
      openSession(server, agent, streamAgent),
    );
    sessions.push(...(await Promise.all(batch)));
  }
  return {
    sessions,
    close: async () => {
      await Promise.all(sessions.map((s) => s.close()));
      await agent.close();
      await streamAgent.destroy();
    },
  };
}

/** CPU seconds (user + system) a live process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of stat; here, after "pid (comm) ", at 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rss(pid) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** `total` calls spread over the sessions, each a loop; calls/s and the server's CPU. */
async function runRound(group, total, pid) {
  let next = 0;
  let errors = 0;
  const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid);
  const started = now();
  await Promise.all(
    group.sessions.map(async (session) => {
      while (next < total) {
        const index = next++;
        try {
          if (!(await session.call((index % 1000) + 1))) errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  const cpu = pid === undefined ? Number.NaN : cpuSeconds(pid) - cpuBefore;
  return {
    callsPerSecond: total / seconds,
    errors,
    seconds,
    cpuShare: cpu / seconds,
    cpuMsPerCall: (cpu * 1000) / total,
  };
}

/** A DevTools protocol session on a child started with --inspect=127.0.0.1:0. */
async function connectInspector(child) {
  const deadline = now() + 10_000;
  const findUrl = () => /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(child.stderrText());
  let match = findUrl();
  while (match === null) {
    if (now() > deadline) throw new Error(`no inspector URL:\n${child.stderrText()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    match = findUrl();
  }
  const socket = new WebSocket(match[0]);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let id = 0;
  const waiting = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id !== undefined) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const at = ++id;
      waiting.set(at, (message) =>
        message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result),
      );
      socket.send(JSON.stringify({ id: at, method, params }));
    });
  return { send, close: () => socket.close() };
}

async function heapAfterGc(inspector) {
  await inspector.send("HeapProfiler.collectGarbage");
  await inspector.send("HeapProfiler.collectGarbage");
  return (await inspector.send("Runtime.getHeapUsage")).usedSize;
}

/** The functions of most self time in a CPU profile, as shares of all samples. */
function topSelfTime(profile, top) {
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const hits = counts.get(node.id) ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url === "" ? "" : `${shortUrl(url)}:${lineNumber + 1}`;
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const total = profile.samples.length;
  return [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, hits]) => ({ name, share: hits / total }));
}

function shortUrl(url) {
  const path = url.replace(/^file:\/\//, "");
  const inModules = path.lastIndexOf("node_modules/");
  if (inModules !== -1) return path.slice(inModules + "node_modules/".length);
  return path.startsWith(REPO_DIR) ? relative(REPO_DIR, path) : path;
}

async function throughputRuns(upstreamUrl, log) {
  log("http-throughput: starting the servers");
  const starters = {
    ours: () => startOurs(upstreamUrl),
    competitor: () => startCompetitor(upstreamUrl),
    floor: () => startFloor(upstreamUrl),
    ...(BASELINE_CLI ? { baseline: () => startOurs(upstreamUrl, [], BASELINE_CLI) } : {}),
  };
  const servers = {};
  for (const [name, start] of Object.entries(starters)) {
    if (ONLY === undefined || ONLY.includes(name)) servers[name] = await start();
  }
  log("http-throughput: servers started");
  const groups = {};
  for (const [name, server] of Object.entries(servers)) {
    groups[name] = await openSessions(server, CLIENTS);
    log(`http-throughput: ${name}: ${CLIENTS} sessions open`);
  }
  for (const [name, group] of Object.entries(groups)) {
    const warm = await runRound(group, WARMUP, servers[name].child.pid);
    if (warm.errors > 0) throw new Error(`${name}: ${warm.errors} errors in the warm-up`);
  }
  const rounds = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    if (PAIRED) {
      const runs = await Promise.all(
        Object.keys(rounds).map((name) => runRound(groups[name], CALLS, servers[name].child.pid)),
      );
      for (const [i, name] of Object.keys(rounds).entries()) rounds[name].push(runs[i]);
    } else {
      for (const name of Object.keys(rounds)) {
        rounds[name].push(await runRound(groups[name], CALLS, servers[name].child.pid));
      }
    }
    log(
      `http-throughput: round ${round + 1}: ${Object.entries(rounds)
        .map(([name, runs]) => `${name} ${runs.at(-1).callsPerSecond.toFixed(0)}/s`)
        .join(", ")}`,
    );
  }
  for (const group of Object.values(groups)) await group.close();
  for (const server of Object.values(servers)) server.child.kill("SIGTERM");
  return rounds;
}

async function memoryRuns(upstreamUrl, log) {
  const server = await startOurs(upstreamUrl, ["--inspect=127.0.0.1:0"], MEMORY_CLI);
  const inspector = await connectInspector(server.child);
  const group = await openSessions(server, MEMORY_CLIENTS);
  const rounds = [];
  for (let round = 0; round < 3; round++) {
    const run = await runRound(group, MEMORY_CALLS, server.child.pid);
    rounds.push({ ...run, heap: await heapAfterGc(inspector), rss: rss(server.child.pid) });
    log(`http-throughput: memory round ${round + 1}: ${JSON.stringify(rounds.at(-1))}`);
  }
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 200 });
  await inspector.send("Profiler.start");
  const profiled = await runRound(group, PROFILE_CALLS, server.child.pid);
  const { profile } = await inspector.send("Profiler.stop");
  if (process.env.OMB_HTTP_PROFILE_OUT)
    writeFileSync(process.env.OMB_HTTP_PROFILE_OUT, JSON.stringify(profile));
  await group.close();
  inspector.close();
  server.child.kill("SIGTERM");
  return { rounds, profiled, top: topSelfTime(profile, PROFILE_TOP) };
}

export async function runHttpThroughput({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  setup({ log });
  const overall = setTimeout(() => {
    log("http-throughput: over the time limit, stopping");
    for (const child of children) child.kill("SIGKILL");
    process.exit(1);
  }, TOTAL_TIMEOUT_MS);
  try {
    const upstream = await spawnPrintingPort([join(BENCH_DIR, "item-upstream.mjs")]);
    const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
    const rounds = await throughputRuns(upstreamUrl, log);
    if (ONLY !== undefined) return { env: describeEnvironment(), rounds };
    const memory = await memoryRuns(upstreamUrl, log);
    return { env: describeEnvironment(), rounds, memory };
  } finally {
    clearTimeout(overall);
    for (const child of children) child.kill("SIGTERM");
  }
}

const ratiosOf = (a, b) => a.map((run, i) => run.callsPerSecond / b[i].callsPerSecond);
/** Calls per second of the server's own CPU, ours over the other's, round by round. */
const capacityRatiosOf = (a, b) => a.map((run, i) => b[i].cpuMsPerCall / run.cpuMsPerCall);
const rate = (value) => `${value.toFixed(0)}/s`;
const span = (s, format) => `${format(s.median)} (${format(s.min)} – ${format(s.max)})`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function httpThroughputFigures({ env, rounds, memory }) {
  const calls = (name) => summarize(rounds[name].map((r) => r.callsPerSecond));
  const [, second, third] = memory.rounds;
  return {
    date: env.date,
    commit: env.commit,
    loadAverage: env.loadAverage,
    clients: CLIENTS,
    callsPerRound: CALLS,
    rounds: ROUNDS,
    callsPerSecond: Object.fromEntries(Object.keys(rounds).map((name) => [name, calls(name)])),
    perRound: Object.fromEntries(
      Object.entries(rounds).map(([name, runs]) => [name, runs.map((r) => r.callsPerSecond)]),
    ),
    cpuMsPerCall: Object.fromEntries(
      Object.entries(rounds).map(([name, runs]) => [name, summarize(runs.map((r) => r.cpuMsPerCall))]),
    ),
    oursOverCompetitor: summarize(ratiosOf(rounds.ours, rounds.competitor)),
    oursOverFloor: summarize(ratiosOf(rounds.ours, rounds.floor)),
    ...(rounds.baseline ? { oursOverBaseline: summarize(ratiosOf(rounds.ours, rounds.baseline)) } : {}),
    capacity: Object.fromEntries(
      Object.keys(rounds)
        .filter((name) => name !== "ours")
        .map((name) => [name, summarize(capacityRatiosOf(rounds.ours, rounds[name]))]),
    ),
    errors: Object.fromEntries(
      Object.entries(rounds).map(([k, v]) => [k, v.reduce((n, r) => n + r.errors, 0)]),
    ),
    memory: {
      clients: MEMORY_CLIENTS,
      callsPerRound: MEMORY_CALLS,
      heap: memory.rounds.map((r) => r.heap),
      rss: memory.rounds.map((r) => r.rss),
      heapRound3OverRound2: third.heap / second.heap,
      rssRound3OverRound2: third.rss / second.rss,
      errors: memory.rounds.reduce((n, r) => n + r.errors, 0),
    },
    profile: memory.top,
  };
}

export function httpThroughputMarkdown(result) {
  const { env, rounds, memory } = result;
  const figures = httpThroughputFigures(result);
  const row = (label, name) => {
    const runs = rounds[name];
    return [
      label,
      span(figures.callsPerSecond[name], rate),
      span(summarize(runs.map((r) => r.cpuShare * 100)), (v) => `${v.toFixed(0)}%`),
      span(figures.cpuMsPerCall[name], (v) => `${v.toFixed(3)} ms`),
      String(figures.errors[name]),
    ];
  };
  const ratio = (s) => `${s.median.toFixed(2)} (${s.min.toFixed(2)} – ${s.max.toFixed(2)})`;
  return [
    "# HTTP throughput at saturation, and memory under load",
    "",
    "`node bench/http-throughput.mjs` (after `npm run build`; also part of `npm run bench`). One",
    "loopback upstream (`node:http`, its own process) answers `GET /items/{id}` with a fixed 60-byte",
    "JSON (`bench/fixtures/latency.openapi.yaml`, as the latency and load benches). In front of it:",
    "",
    "- ours: `serve bench/fixtures/latency.openapi.yaml --transport http --max-concurrency 200` (sessionful);",
    "- @ivotoby/openapi-mcp-server: `--transport http --openapi-spec ... --api-base-url ... --verbose false`;",
    "- the floor: `bench/forwarder.mjs`, a bare `node:http` server that reads the same JSON-RPC body,",
    "  makes the same upstream call with undici and returns the upstream's body (no MCP).",
    "",
    `Clients: raw JSON-RPC over undici, the same for both MCP servers: ${CLIENTS} clients, each its own`,
    "session (`initialize`, `notifications/initialized`), POST `tools/call` in a loop, request ids",
    "unique across clients (@ivotoby routes an answer to a session by its id alone, so the SDK",
    "client's per-session ids, all starting at 0, would cross sessions there). Ours answers in the",
    "POST's own SSE answer; @ivotoby answers 202 and sends the result on the session's GET stream,",
    "which each of its clients holds open. The forwarder gets the same POST body.",
    `${ROUNDS} rounds of ${CALLS.toLocaleString("en")} calls, interleaved (ours, @ivotoby, forwarder),`,
    `after ${WARMUP.toLocaleString("en")} warm-up calls each; the ratios are taken round by round.`,
    'Clients, servers and upstream share the machine\'s cores; "server CPU" is the server',
    "process's own CPU time over the round's wall time (100% = one core), and that time per call",
    "(which moves less than calls/s when other work shares the machine).",
    "",
    environmentMarkdown(env),
    "",
    markdownTable(
      ["server", "calls/s, median (min – max)", "server CPU", "server CPU per call", "errors"],
      [
        row("ours (`serve --transport http`)", "ours"),
        row("@ivotoby/openapi-mcp-server `--transport http`", "competitor"),
        row("floor: bare undici forwarder", "floor"),
        ...(rounds.baseline ? [row(`baseline build (\`${BASELINE_CLI}\`)`, "baseline")] : []),
      ],
    ),
    "",
    markdownTable(
      ["ratio (per round)", "median (min – max)", "target", "met"],
      [
        [
          "ours / @ivotoby",
          ratio(figures.oursOverCompetitor),
          ">= 3.00",
          figures.oursOverCompetitor.median >= 3 ? "yes" : "no",
        ],
        [
          "ours / floor",
          ratio(figures.oursOverFloor),
          ">= 0.50",
          figures.oursOverFloor.median >= 0.5 ? "yes" : "no",
        ],
        ...(figures.oursOverBaseline
          ? [["ours / baseline build", ratio(figures.oursOverBaseline), "(after / before)", "–"]]
          : []),
      ],
    ),
    "",
    "The same rounds counted in calls per second of the server process's own CPU (1 / its CPU per",
    "call): what each would serve with a core to itself. It moves less than calls/s when other",
    "work shares the machine, since a server that is not scheduled uses no CPU either.",
    "",
    markdownTable(
      ["calls per server CPU-second, ours over", "median (min – max)"],
      Object.entries(figures.capacity).map(([name, s]) => [
        { competitor: "@ivotoby", floor: "the floor (forwarder)", baseline: "the baseline build" }[name] ??
          name,
        ratio(s),
      ]),
    ),
    "",
    "## Memory under load",
    "",
    `A fresh bridge (the same command, node started with \`--inspect=127.0.0.1:0\`), ${MEMORY_CLIENTS} clients`,
    `as above, three rounds of ${MEMORY_CALLS.toLocaleString("en")} calls. After each round: two full`,
    "collections (`HeapProfiler.collectGarbage` over the DevTools protocol), the heap in use",
    "(`Runtime.getHeapUsage`), and the process's VmRSS. Target: round 3 within 5% of round 2.",
    "",
    markdownTable(
      ["", "round 1", "round 2", "round 3", "round 3 / round 2"],
      [
        [
          "heap after full GC",
          ...memory.rounds.map((r) => mb(r.heap)),
          figures.memory.heapRound3OverRound2.toFixed(3),
        ],
        ["RSS", ...memory.rounds.map((r) => mb(r.rss)), figures.memory.rssRound3OverRound2.toFixed(3)],
        ["calls/s", ...memory.rounds.map((r) => rate(r.callsPerSecond)), ""],
      ],
    ),
    "",
    `Errors in those rounds: ${figures.memory.errors}.`,
    "",
    "## Where the bridge's time goes at saturation",
    "",
    `A CPU profile (DevTools \`Profiler\`, 200 µs sampling) of the same bridge during a fourth round`,
    `(${PROFILE_CALLS.toLocaleString("en")} calls, ${rate(memory.profiled.callsPerSecond)} while profiled): the functions of most self time, as shares of all samples.`,
    "",
    markdownTable(
      ["function (file:line)", "self time"],
      memory.top.map((t) => [`\`${t.name}\``, `${(t.share * 100).toFixed(1)}%`]),
    ),
    "",
    "What such a profile showed, what was changed for it and the figures before and after:",
    "`http-throughput-profile.md` (written by hand).",
    "",
  ].join("\n");
}

if (isMain(import.meta.url)) {
  const result = await runHttpThroughput();
  if (ONLY !== undefined) {
    for (const [name, runs] of Object.entries(result.rounds)) {
      const calls = summarize(runs.map((r) => r.callsPerSecond));
      const cpu = summarize(runs.map((r) => r.cpuMsPerCall));
      process.stderr.write(
        `${name}: ${span(calls, rate)}, CPU per call ${span(cpu, (v) => `${v.toFixed(3)} ms`)}\n`,
      );
    }
    if (result.rounds.baseline !== undefined) {
      const calls = summarize(ratiosOf(result.rounds.ours, result.rounds.baseline));
      const cpu = summarize(capacityRatiosOf(result.rounds.ours, result.rounds.baseline));
      const ratio = (s) => `${s.median.toFixed(3)} (${s.min.toFixed(2)} – ${s.max.toFixed(2)})`;
      process.stderr.write(
        `ours / baseline, per round: calls/s ${ratio(calls)}, calls per CPU-second ${ratio(cpu)}\n`,
      );
    }
    process.exit(0);
  }
  writeResults("http-throughput", httpThroughputMarkdown(result), httpThroughputFigures(result));
  process.stderr.write("wrote bench/results/http-throughput.md\n");
}
