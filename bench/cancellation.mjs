/**
 * How fast a cancel stops the work it cancels, through the built CLI, for each client, transport
 * and protocol era the bridge serves with a way to cancel (CLIENTS below):
 * - a tool call whose upstream holds the request (a 4 s answer): from the cancel to the API
 *   seeing its connection close;
 * - a code-mode program stuck in `while (true)` (with a 10-minute limit): from the cancel to its
 *   audit line, written when its worker has been ended.
 * Medians and the slowest of ROUNDS rounds; writes bench/results/cancellation.md. Run after
 * `npm run build`: `node bench/cancellation.mjs`.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { OUR_CLI, RESULTS_DIR } from "./lib.mjs";

const ROUNDS = Number(process.env.OMB_BENCH_ROUNDS ?? 15);

/** An upstream that holds /slow for 4 s and reports each held request's connection closing. */
let onHeld = () => {};
const closed = [];
const upstream = createServer((req, res) => {
  if (req.url.startsWith("/quick"))
    return res.writeHead(200, { "content-type": "application/json" }).end("{}");
  const entry = { closedAt: undefined };
  req.socket.once("close", () => {
    entry.closedAt = performance.now();
    entry.resolve?.();
  });
  entry.done = new Promise((resolve) => {
    entry.resolve = resolve;
  });
  closed.push(entry);
  const timer = setTimeout(() => res.writeHead(200).end("{}"), 4000);
  res.on("close", () => clearTimeout(timer));
  onHeld();
});
await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${upstream.address().port}`;

const dir = mkdtempSync(join(os.tmpdir(), "omb-bench-cancel-"));
const spec = join(dir, "api.json");
const ok = { 200: { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
writeFileSync(
  spec,
  JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Slow", version: "1" },
    servers: [{ url: base }],
    paths: { "/slow": { get: { operationId: "slow", responses: ok } } },
  }),
);

const MODERN = "2026-07-28";

/** `serve … --transport http` on a free port, once its endpoint answers. */
async function startHttp(args) {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(
    process.execPath,
    [OUR_CLI, "serve", spec, "--transport", "http", "--port", String(port), ...args],
    {
      stdio: "ignore",
    },
  );
  const endpoint = new URL(`http://127.0.0.1:${port}/mcp`);
  for (;;) {
    try {
      await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { endpoint, stop: () => child.kill() };
}

/** One client of one era on one transport: `call(name, args, signal)` and `close()`. */
const CLIENTS = [
  {
    name: "stdio, 2025-11-25 (1.x SDK client: notifications/cancelled)",
    async connect(args) {
      const client = new Client({ name: "bench", version: "1" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [OUR_CLI, "serve", spec, ...args],
          stderr: "ignore",
        }),
      );
      return legacySession(client, () => client.close());
    },
  },
  {
    name: "stdio, 2026-07-28 (v2 client: notifications/cancelled)",
    async connect(args) {
      const client = modernClient();
      await client.connect(
        new ModernStdioTransport({
          command: process.execPath,
          args: [OUR_CLI, "serve", spec, ...args],
          stderr: "ignore",
        }),
      );
      return modernSession(client, () => client.close());
    },
  },
  {
    name: "HTTP with a session, 2025-11-25 (1.x client: notifications/cancelled)",
    async connect(args) {
      const server = await startHttp(args);
      const client = new Client({ name: "bench", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(server.endpoint));
      return legacySession(client, async () => {
        await client.close();
        server.stop();
      });
    },
  },
  {
    name: "HTTP, 2026-07-28 (v2 client: closes the response stream)",
    async connect(args) {
      const server = await startHttp(args);
      const client = modernClient();
      await client.connect(new ModernHttpTransport(server.endpoint));
      return modernSession(client, async () => {
        await client.close();
        server.stop();
      });
    },
  },
];

function modernClient() {
  return new ModernClient({ name: "bench", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
}

function legacySession(client, close) {
  return {
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, undefined, { signal, timeout: 600_000 }),
    close,
  };
}

function modernSession(client, close) {
  return {
    call: (name, args, signal) => client.callTool({ name, arguments: args }, { signal, timeout: 600_000 }),
    close,
  };
}

const heldCount = (count) =>
  closed.length >= count
    ? Promise.resolve()
    : new Promise((resolve) => {
        onHeld = () => {
          if (closed.length >= count) resolve();
        };
      });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);

/** Rounds of cancelling a held upstream call: ms from the cancel to the API's connection closing. */
async function measureCalls(session) {
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = closed.length;
    const cancel = new AbortController();
    const call = session.call("slow", {}, cancel.signal).catch(() => {});
    await heldCount(before + 1);
    const start = performance.now();
    cancel.abort();
    await closed[before].done;
    times.push(closed[before].closedAt - start);
    await call;
  }
  return times;
}

/** Rounds of cancelling a looping program: ms from the cancel to its audit line (worker ended). */
async function measurePrograms(session, log) {
  const executes = () => {
    try {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((line) => line.tool === "execute").length;
    } catch {
      return 0;
    }
  };
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = closed.length;
    const cancel = new AbortController();
    const call = session
      .call("execute", { program: "api.slow({}).catch(() => {}); while (true) {}" }, cancel.signal)
      .catch(() => {});
    await heldCount(before + 1);
    const seen = executes();
    const start = performance.now();
    cancel.abort();
    while (executes() === seen) await new Promise((resolve) => setTimeout(resolve, 2));
    times.push(performance.now() - start);
    await call;
  }
  return times;
}

const rows = [];
for (const [index, client] of CLIENTS.entries()) {
  const tools = await client.connect(["--mode", "tools"]);
  const calls = await measureCalls(tools);
  await tools.close();
  const log = join(dir, `audit-${index}.jsonl`);
  const code = await client.connect(["--mode", "code", "--code-timeout", "600000", "--audit-log", log]);
  const programs = await measurePrograms(code, log);
  await code.close();
  rows.push({ name: client.name, calls, programs });
}
upstream.close();

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const text = `# Cancellation

How fast a client's cancel stops the work it cancels: \`node bench/cancellation.mjs\` after
\`npm run build\` (the built CLI, each client's AbortSignal: a 2025-era client and a 2026-07-28
one over stdio send notifications/cancelled; over HTTP the 2025 client posts it in its session,
the 2026 client closes the call's response stream). ${ROUNDS} rounds each, measured ${new Date().toISOString().slice(0, 10)} on
${os.cpus().length} cores (Node ${process.version}).

| client, transport and era | a held upstream call (4 s): until the API sees its connection close, median / slowest | a program in \`while (true)\` (10-minute limit): until its audit line, median / slowest |
| --- | --- | --- |
${rows.map((row) => `| ${row.name} | ${fmt(median(row.calls))} / ${fmt(max(row.calls))} | ${fmt(median(row.programs))} / ${fmt(max(row.programs))} |`).join("\n")}

Not measured: Streamable HTTP \`--stateless\` with a 2025-era client. There the client's
notifications/cancelled arrives as a request of its own, with no session to tie it to the call
it names, and the 1.x client keeps the call's response stream open, so the call runs on to its
own timeout (see the README's Cancellation bullet).

Target (issue 23): the upstream request aborted within 100 ms of the cancel; a looping program
stops using CPU within one second.
`;
writeFileSync(join(RESULTS_DIR, "cancellation.md"), text);
process.stdout.write(text);
process.exit(0);
