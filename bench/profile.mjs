/**
 * Where the time goes, for the rows of the performance table that miss their target: CPU
 * profiles (`node --cpu-prof`) of ours on the GitHub spec, each sample put in the phase of the
 * first rule below that matches a frame of its stack, as shares of the busy CPU time. Shares
 * move little when the machine is loaded; milliseconds do. Writes bench/results/profiles.md.
 *
 *   npm run build && node bench/profile.mjs
 *
 * Cases: start-up to the first tools/list cold from the spec (`--no-cache`), the same from a
 * saved model (made with `model`), and `generate --no-cache`. Uses the scratch folder of
 * setup.mjs.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import {
  describeEnvironment,
  GITHUB_SPEC,
  isMain,
  markdownTable,
  OUR_CLI,
  REPO_DIR,
  RESULTS_DIR,
  UNUSED_BASE_URL,
} from "./lib.mjs";
import { setup } from "./setup.mjs";
import { MODEL_FILE, makeModel } from "./startup.mjs";

/** Phases in order of precedence: a sample goes to the first whose pattern matches its stack. */
const PHASES = [
  ["garbage collection", /^\(garbage collector\)/],
  ["structural validation (Ajv's standalone OpenAPI schema validator)", /validateDocument|oas-[23]\.\d\.cjs/],
  ["planning: descriptions and prose", /compile\/(describe|text)\.js/],
  [
    "planning: arguments and their schemas",
    /compile\/(arguments|json-schema|request-body|argument-names|shared-schemas|value-shape|pattern)\.js/,
  ],
  ["planning: the rest (names, responses, security, search index)", /generator\/compile\/|discovery\/search/],
  ["normalising (OpenAPI 3 checks)", /generator\/spec\/normalize/],
  ["the spec: the depth limit's walk", /measureDepth|checkDepth/],
  ["the spec: finding and checking $refs", /generator\/spec\/(ref-sites|bundle-refs)/],
  ["the spec: reading and JSON.parse", /generator\/spec\/(read|parse|load)/],
  ["reading the saved model", /readModelOrSpec|model\/serialize\.js/],
  ["code generation: printing", /codegen\/print|code-block-writer|typescript\/lib/],
  ["code generation: emitting and writing files", /generator\/codegen\//],
  ["tools/list and its JSON over stdio", /listTools|runtime\/tool-list\.js|transport\/stdio\.js/],
  ["MCP SDK and zod: loading and first use", /@modelcontextprotocol|\/zod\//],
  ["Ajv: loading", /\/ajv\/|ajv-formats/],
  ["starting the server (checks, runtime, origins)", /runtime\/(config|engine|request\/origins|access)/],
  [
    "loading and compiling modules",
    /^(compileSourceTextModule|wrapSafe|compileFunctionForCJSLoader|Module\._|internalModuleStat|realpathSync|readPackage|moduleResolve|packageResolve|finalizeResolution|defaultResolve|defaultLoad|compileForInternalLoader)/,
  ],
];

/** Busy milliseconds by phase, from one .cpuprofile. */
export function phasesOf(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const stack = [];
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id))
      stack.push(byId.get(id).callFrame);
    if (stack[0].functionName === "(idle)" || stack[0].functionName === "(program)") continue;
    busy += ms;
    const frames = stack.map((c) => `${c.functionName} ${c.url}`);
    const phase =
      PHASES.find(([, pattern]) =>
        frames.some((f, k) => pattern.test(f) || pattern.test(stack[k].functionName)),
      )?.[0] ?? "the rest (node's own start, the CLI, small modules)";
    totals.set(phase, (totals.get(phase) ?? 0) + ms);
  }
  return { busy, totals };
}

/** Starts `serve` with a CPU profile, lists the tools once over stdio, stops it. */
async function profileServe(args, dir) {
  const child = spawn(process.execPath, [`--cpu-prof`, `--cpu-prof-dir=${dir}`, OUR_CLI, ...args], {
    cwd: REPO_DIR,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  let buffer = "";
  await new Promise((resolve, reject) => {
    child.on("exit", (code) => (code === 0 || code === null ? resolve() : reject(new Error(`exit ${code}`))));
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          child.stdin.end(); // the bridge stops when its client goes, writing the profile
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
        clientInfo: { name: "profile", version: "0" },
      },
    });
  });
}

function readProfile(dir) {
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  return JSON.parse(readFileSync(join(dir, file), "utf8"));
}

export async function runProfiles({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  setup({ log });
  makeModel({ log });
  const root = mkdtempSync(join(os.tmpdir(), "omb-profile-"));
  const cases = [
    {
      label: "start-up to the first tools/list, cold from the spec",
      command: `serve SPEC --mode tools --no-cache`,
      run: (dir) =>
        profileServe(
          ["serve", GITHUB_SPEC, "--base-url", UNUSED_BASE_URL, "--mode", "tools", "--no-cache"],
          dir,
        ),
    },
    {
      label: "start-up to the first tools/list, from a saved model",
      command: `serve github.model.json --mode tools`,
      run: (dir) =>
        profileServe(["serve", MODEL_FILE, "--base-url", UNUSED_BASE_URL, "--mode", "tools"], dir),
    },
    {
      label: "generate --no-cache",
      command: `generate SPEC -o OUT --no-cache`,
      run: async (dir) =>
        execFileSync(
          process.execPath,
          [
            `--cpu-prof`,
            `--cpu-prof-dir=${dir}`,
            OUR_CLI,
            "generate",
            GITHUB_SPEC,
            "-o",
            join(dir, "out"),
            "--no-cache",
          ],
          { cwd: REPO_DIR, stdio: "ignore" },
        ),
    },
  ];
  try {
    for (const [index, c] of cases.entries()) {
      const dir = join(root, String(index));
      log(`profile: ${c.label}`);
      await c.run(dir);
      c.result = phasesOf(readProfile(dir));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { env: describeEnvironment(), cases };
}

export function profilesMarkdown({ env, cases }) {
  const lines = [
    "# Where the time goes (CPU profiles)",
    "",
    `- Date: ${env.date}; Node ${env.node}; ${env.cpu}, nproc ${env.nproc}; load average at the end: ${env.loadAverage}`,
    `- openapi-mcp-bridge commit: ${env.commit}; spec: ${env.octokit}, \`generated/api.github.com.json\``,
    "",
    "`node --cpu-prof` of one run each; every sample goes to the first phase whose pattern matches a",
    "frame of its stack (bench/profile.mjs lists them). Shares of the busy CPU time of the main thread",
    "(idle time left out); the milliseconds depend on the machine's load, the shares much less.",
    "",
  ];
  for (const c of cases) {
    const rows = [...c.result.totals]
      .sort((a, b) => b[1] - a[1])
      .map(([phase, ms]) => [phase, `${((100 * ms) / c.result.busy).toFixed(0)}%`, `${ms.toFixed(0)} ms`]);
    lines.push(
      `## ${c.label}`,
      "",
      `\`node --cpu-prof dist/cli/main.js ${c.command}\`: ${c.result.busy.toFixed(0)} ms busy.`,
      "",
      markdownTable(["phase", "share", "CPU"], rows),
      "",
    );
  }
  return lines.join("\n");
}

if (isMain(import.meta.url)) {
  const result = await runProfiles();
  const text = profilesMarkdown(result);
  writeFileSync(join(RESULTS_DIR, "profiles.md"), text);
  process.stdout.write(text);
}
