/**
 * tools/list size in tokens, on demand (not part of `npm test`): openapi-mcp-bridge next to
 * openapi-mcp-generator 4.0.1 and @ivotoby/openapi-mcp-server 1.16.1 on the GitHub REST spec
 * (@octokit/openapi, generated/api.github.com.json, 1,223 operations) and the petstore
 * (fixtures/petstore). Each server is started over stdio and asked for tools/list with raw
 * JSON-RPC (no client-side validation, every page followed); every tool is counted as its
 * compact JSON with the o200k_base tokenizer (js-tiktoken), the way a client passes it on.
 * Writes bench/results/tokens.md.
 *
 *   npm run build && node bench/tokens.mjs [--only ours]
 *
 * The other tools, the tokenizer and the GitHub spec are installed with npm into a scratch
 * folder outside the repo, `$TMPDIR/tok` (or $OMB_TOK_BENCH_DIR); later runs reuse it.
 * openapi-mcp-generator writes a project per spec, which is npm-installed and built with its
 * own `tsc` there (once; delete the folder to regenerate).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { markdownTable, OUR_CLI, REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const SCRATCH = process.env.OMB_TOK_BENCH_DIR ?? join(os.tmpdir(), "tok");
const PACKAGES = {
  "js-tiktoken": "1.0.21",
  "openapi-mcp-generator": "4.0.1",
  "@ivotoby/openapi-mcp-server": "1.16.1",
  "@octokit/openapi": "23.0.2",
};
const SPECS = [
  {
    name: "GitHub REST",
    key: "github",
    file: join(SCRATCH, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json"),
    origin: "@octokit/openapi 23.0.2, generated/api.github.com.json",
  },
  {
    name: "Petstore",
    key: "petstore",
    file: join(REPO_DIR, "fixtures", "petstore", "petstore.openapi30.yaml"),
    origin: "fixtures/petstore/petstore.openapi30.yaml",
  },
];
const BASE_URL = "http://127.0.0.1:9";

const { values } = parseArgs({ options: { only: { type: "string" } } });

function setup() {
  mkdirSync(SCRATCH, { recursive: true });
  if (!existsSync(join(SCRATCH, "package.json"))) {
    writeFileSync(
      join(SCRATCH, "package.json"),
      `${JSON.stringify({ name: "omb-tok-bench", private: true })}\n`,
    );
  }
  const missing = Object.entries(PACKAGES).filter(([name, version]) => versionOf(name) !== version);
  if (missing.length > 0) {
    const specs = missing.map(([name, version]) => `${name}@${version}`);
    process.stderr.write(`installing ${specs.join(", ")} into ${SCRATCH}\n`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", ...specs], { cwd: SCRATCH, stdio: "inherit" });
  }
  if (!existsSync(OUR_CLI)) throw new Error("run `npm run build` first");
}

function versionOf(pkg) {
  const file = join(SCRATCH, "node_modules", pkg, "package.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : undefined;
}

/** Starts `command args` over stdio, initializes, follows tools/list pages; the tools. */
function listTools(command, args, { cwd = SCRATCH, env = {}, timeoutMs = 300_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), ...env },
    });
    const tools = [];
    let buffer = "";
    let stderr = "";
    const timer = setTimeout(() => finish(new Error(`timed out; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    function finish(error) {
      clearTimeout(timer);
      child.kill();
      if (error) reject(error);
      else resolve(tools);
    }
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-8192);
    });
    child.on("exit", (code) => finish(new Error(`exited ${code} early; stderr: ${stderr.slice(-2000)}`)));
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        } else if (typeof message.id === "number" && message.id >= 2) {
          if (message.error) return finish(new Error(JSON.stringify(message.error)));
          tools.push(...message.result.tools);
          const cursor = message.result.nextCursor;
          if (cursor) send({ jsonrpc: "2.0", id: message.id + 1, method: "tools/list", params: { cursor } });
          else finish();
        }
      }
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "omb-tok", version: "0" },
      },
    });
  });
}

/** Ours with the defaults, then with settings a user can choose (the rows under it). */
function ourServer(key, flags) {
  return {
    name: ["openapi-mcp-bridge", ...flags].join(" "),
    flags: flags.join(" "),
    key,
    version: () => JSON.parse(readFileSync(join(REPO_DIR, "package.json"), "utf8")).version,
    list: (spec) =>
      listTools(
        process.execPath,
        [OUR_CLI, "serve", spec.file, "--base-url", BASE_URL, "--no-cache", "--mode", "tools", ...flags],
        {
          cwd: REPO_DIR,
        },
      ),
  };
}

const SERVERS = [
  ourServer("ours", []),
  ourServer("ours-output-schemas", ["--output-schemas"]),
  ourServer("ours-no-argument-descriptions", ["--argument-description-budget", "0"]),
  {
    name: "openapi-mcp-generator",
    key: "omg",
    version: () => versionOf("openapi-mcp-generator"),
    list: async (spec) => {
      const dir = join(SCRATCH, `omg-${spec.key}`);
      const entry = join(dir, "build", "index.js");
      if (!existsSync(entry)) {
        const bin = join(SCRATCH, "node_modules", "openapi-mcp-generator", "bin", "openapi-mcp-generator.js");
        process.stderr.write(`generating and building openapi-mcp-generator's project for ${spec.name}\n`);
        execFileSync(process.execPath, [bin, "--input", spec.file, "--output", dir, "--force"], {
          stdio: "inherit",
        });
        execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
        try {
          execFileSync("npx", ["tsc"], { cwd: dir, stdio: "inherit" });
        } catch (error) {
          // tsc reports TS2590 on GitHub's project ("union type that is too complex") but still
          // emits build/index.js, which runs; a missing file is a real failure.
          if (!existsSync(entry)) throw error;
        }
      }
      return listTools(process.execPath, [entry], { cwd: dir, env: { API_BASE_URL: BASE_URL } });
    },
  },
  {
    name: "@ivotoby/openapi-mcp-server",
    key: "ivo",
    version: () => versionOf("@ivotoby/openapi-mcp-server"),
    list: (spec) =>
      listTools(process.execPath, [
        join(SCRATCH, "node_modules", "@ivotoby", "openapi-mcp-server", "bin", "mcp-server.js"),
        "--openapi-spec",
        spec.file,
        "--api-base-url",
        BASE_URL,
        "--verbose",
        "false",
      ]),
  },
];

/** Tokens of a tool and of its parts (each part as the `"key":value` member it adds). */
function measure(encoder, tools) {
  const count = (value) => encoder.encode(JSON.stringify(value)).length;
  const part = (tool, key) => (tool[key] === undefined ? 0 : count({ [key]: tool[key] }) - 2);
  const perTool = [];
  const parts = { name: 0, description: 0, inputSchema: 0, outputSchema: 0, annotations: 0, other: 0 };
  for (const tool of tools) {
    const total = count(tool);
    perTool.push({ name: tool.name, total });
    let known = 0;
    for (const key of ["name", "description", "inputSchema", "outputSchema", "annotations"]) {
      const n = part(tool, key);
      parts[key] += n;
      known += n;
    }
    parts.other += total - known;
  }
  const sorted = perTool.map((t) => t.total).sort((a, b) => a - b);
  const total = sorted.reduce((a, b) => a + b, 0);
  const median =
    sorted.length === 0
      ? 0
      : sorted.length % 2 === 1
        ? sorted[(sorted.length - 1) / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  const largest = perTool.sort((a, b) => b.total - a.total).slice(0, 5);
  return { tools: tools.length, total, median, max: sorted.at(-1) ?? 0, parts, largest };
}

/** Facts a model needs from every tool: does each name its required arguments and its result? */
function coverage(tools) {
  let requiredNamed = 0;
  let withRequired = 0;
  let returns = 0;
  for (const tool of tools) {
    const required = tool.inputSchema?.required ?? [];
    if (required.length > 0) {
      withRequired++;
      const props = tool.inputSchema?.properties ?? {};
      if (required.every((name) => props[name] !== undefined)) requiredNamed++;
    }
    if (tool.outputSchema !== undefined || /\b(Returns?|Result)\b/i.test(tool.description ?? "")) returns++;
  }
  return { requiredNamed, withRequired, returns };
}

async function main() {
  setup();
  const require = createRequire(join(SCRATCH, "package.json"));
  const { getEncoding } = require("js-tiktoken");
  const encoder = getEncoding("o200k_base");
  const results = [];
  for (const spec of SPECS) {
    for (const server of SERVERS) {
      if (values.only && !server.key.startsWith(values.only)) continue;
      process.stderr.write(`${server.name} on ${spec.name}...\n`);
      const started = Date.now();
      const tools = await server.list(spec);
      const result = { spec, server, ...measure(encoder, tools), coverage: coverage(tools) };
      results.push(result);
      process.stderr.write(
        `  ${result.tools} tools, ${result.total} tokens, median ${result.median} (${Date.now() - started} ms)\n`,
      );
    }
  }
  writeFileSync(join(RESULTS_DIR, "tokens.md"), report(results));
  // The model-visible tokens (name + description + inputSchema) per spec and server, for
  // bench/summary.mjs.
  const figures = results.map((r) => ({
    spec: r.spec.key,
    server: r.server.key,
    tools: r.tools,
    total: r.total,
    modelVisible: r.parts.name + r.parts.description + r.parts.inputSchema,
  }));
  writeFileSync(
    join(RESULTS_DIR, "tokens.json"),
    `${JSON.stringify({ date: new Date().toISOString(), results: figures }, null, 2)}\n`,
  );
  process.stderr.write(`wrote ${join(RESULTS_DIR, "tokens.md")}\n`);
}

const k = (n) => n.toLocaleString("en-US");

function report(results) {
  const lines = [
    "# tools/list size in tokens",
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`node bench/tokens.mjs\`: each server started over stdio,`,
    "tools/list fetched with raw JSON-RPC (all pages), every tool counted as its compact JSON with",
    "the o200k_base tokenizer (js-tiktoken 1.0.21). Parts are the tokens of each member",
    '(`"description":"..."` and so on); `other` is the braces and commas between them.',
    "The last column is what most clients pass on to the model (Anthropic's and OpenAI's tool",
    "formats carry a name, a description and an input schema; annotations and output schemas",
    "serve the client).",
    "",
  ];
  for (const spec of SPECS) {
    const rows = results.filter((r) => r.spec === spec);
    if (rows.length === 0) continue;
    lines.push(`## ${spec.name}`, "", `Spec: ${spec.origin}.`, "");
    const others = rows.filter((r) => !r.server.key.startsWith("ours"));
    const ours = rows.filter((r) => r.server.key.startsWith("ours"));
    // What clients hand the model: name + description + inputSchema (annotations, titles,
    // output schemas and _meta stay with the client).
    const visible = (r) => r.parts.name + r.parts.description + r.parts.inputSchema;
    const smaller = others.length > 0 ? Math.min(...others.map(visible)) : undefined;
    lines.push(
      markdownTable(
        [
          "server",
          "tools",
          "total tokens",
          "median / tool",
          "largest tool",
          "name",
          "description",
          "inputSchema",
          "outputSchema",
          "annotations",
          "other",
          "name + description + inputSchema",
        ],
        rows.map((r) => [
          r.server.flags
            ? `openapi-mcp-bridge ${r.server.version()} ${r.server.flags}`
            : `${r.server.name} ${r.server.version()}`,
          k(r.tools),
          k(r.total),
          k(r.median),
          k(r.max),
          k(r.parts.name),
          k(r.parts.description),
          k(r.parts.inputSchema),
          k(r.parts.outputSchema),
          k(r.parts.annotations),
          k(r.parts.other),
          k(r.parts.name + r.parts.description + r.parts.inputSchema),
        ]),
      ),
      "",
    );
    if (ours.length > 0 && smaller !== undefined) {
      lines.push(
        `Target: model-visible tokens (name + description + inputSchema) at most 60% of the smaller of the other two (${k(smaller)} tokens): ${k(Math.floor(smaller * 0.6))}.`,
        "",
      );
      for (const row of ours) {
        const share = ((100 * visible(row)) / smaller).toFixed(1);
        lines.push(`- ${row.server.name}: ${share}%`);
      }
      lines.push("");
    }
    lines.push(
      markdownTable(
        ["server", "tools with required arguments: all named", "tools that state what they return"],
        rows.map((r) => [
          r.server.name,
          `${k(r.coverage.requiredNamed)} of ${k(r.coverage.withRequired)}`,
          `${k(r.coverage.returns)} of ${k(r.tools)}`,
        ]),
      ),
      "",
      "A tool states what it returns by an output schema or a sentence of its description. Ours says " +
        "it when the sentence names something a model can use (a list and of what, the fields, a media " +
        'type, no content, the paging arguments); a bare "Returns an object." is not written, since it ' +
        "tells a model nothing, so an object result whose fields do not fit the description is not counted.",
      "",
      "Largest tools:",
      "",
      markdownTable(
        ["server", "largest tools (tokens)"],
        rows.map((r) => [r.server.name, r.largest.map((t) => `${t.name} ${k(t.total)}`).join(", ")]),
      ),
      "",
    );
  }
  return `${lines.join("\n")}\n`;
}

await main();
