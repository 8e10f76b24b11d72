/**
 * How fast a cancel stops the work it cancels, through the built CLI over stdio with the MCP
 * SDK's client (which sends notifications/cancelled when its AbortSignal aborts):
 * - a tool call whose upstream holds the request (a 4 s answer): from the cancel to the API
 *   seeing its connection close;
 * - a code-mode program stuck in `while (true)` (with a 10-minute limit): from the cancel to its
 *   audit line, written when its worker has been ended.
 * Medians and the slowest of ROUNDS rounds; writes bench/results/cancellation.md. Run after
 * `npm run build`: `node bench/cancellation.mjs`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
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

async function connect(args) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OUR_CLI, "serve", spec, ...args],
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  return client;
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

// 1. A held upstream call.
const calls = [];
{
  const client = await connect(["--mode", "tools"]);
  for (let round = 0; round < ROUNDS; round++) {
    const before = closed.length;
    const cancel = new AbortController();
    const call = client
      .callTool({ name: "slow", arguments: {} }, undefined, { signal: cancel.signal })
      .catch(() => {});
    await heldCount(before + 1);
    const start = performance.now();
    cancel.abort();
    await closed[before].done;
    calls.push(closed[before].closedAt - start);
    await call;
  }
  await client.close();
}

// 2. A program in a loop.
const programs = [];
{
  const log = join(dir, "audit.jsonl");
  const client = await connect(["--mode", "code", "--code-timeout", "600000", "--audit-log", log]);
  const linesOf = () =>
    readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  for (let round = 0; round < ROUNDS; round++) {
    const before = closed.length;
    const cancel = new AbortController();
    const call = client
      .callTool(
        { name: "execute", arguments: { program: "api.slow({}).catch(() => {}); while (true) {}" } },
        undefined,
        {
          signal: cancel.signal,
          timeout: 600_000,
        },
      )
      .catch(() => {});
    await heldCount(before + 1);
    const executes = () => {
      try {
        return linesOf().filter((line) => line.tool === "execute").length;
      } catch {
        return 0;
      }
    };
    const seen = executes();
    const start = performance.now();
    cancel.abort();
    while (executes() === seen) await new Promise((resolve) => setTimeout(resolve, 2));
    programs.push(performance.now() - start);
    await call;
  }
  await client.close();
}
upstream.close();

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const text = `# Cancellation

How fast a client's cancel stops the work it cancels: \`node bench/cancellation.mjs\` after
\`npm run build\` (the built CLI over stdio, the MCP SDK client's AbortSignal, which sends
notifications/cancelled). ${ROUNDS} rounds each, measured ${new Date().toISOString().slice(0, 10)} on
${os.cpus().length} cores (Node ${process.version}).

| what is cancelled | until | median | slowest |
| --- | --- | --- | --- |
| a tool call whose upstream holds the answer (4 s) | the API sees its connection close | ${fmt(median(calls))} | ${fmt(max(calls))} |
| a code-mode program in \`while (true)\` (10-minute limit) | its audit line (its worker ended) | ${fmt(median(programs))} | ${fmt(max(programs))} |

Target (issue 23): the upstream request aborted within 100 ms of the cancel; a looping program
stops using CPU within one second.
`;
writeFileSync(join(RESULTS_DIR, "cancellation.md"), text);
process.stdout.write(text);
process.exit(0);
