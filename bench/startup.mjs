/**
 * Start-up benchmark on the GitHub REST spec: time from spawning the bridge to the last page of
 * the first tools/list answer, through a real SDK Client over stdio, and the child's peak RSS.
 * Also checks every listed tool the way the SDK client does (Tool zod schema, ajv compile of
 * inputSchema and outputSchema).
 */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { PaginatedResultSchema, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  COMPETITOR,
  COMPETITOR_VERSION,
  competitorServeArgs,
  connectStdioClient,
  describeEnvironment,
  displayCommand,
  environmentMarkdown,
  formatMb,
  formatMs,
  GITHUB_SPEC,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  ourServeArgs,
  readPeakRss,
  SCRATCH_DIR,
  summarize,
  UNUSED_BASE_URL,
  writeResults,
} from "./lib.mjs";
import { setup } from "./setup.mjs";

const RUNS = Number(process.env.OMB_BENCH_STARTUP_RUNS ?? 7);
const RUN_TIMEOUT_MS = 120_000;
const MAX_PAGES = 1000;
export const MODEL_FILE = join(SCRATCH_DIR, "github.model.json");

/** Spawns, lists every page, reads VmHWM, closes. Returns timing, peak RSS and the raw tools. */
async function measureOnce(args) {
  const started = now();
  const { client, transport, stderr } = await connectStdioClient(args, { timeoutMs: RUN_TIMEOUT_MS });
  try {
    const tools = [];
    let cursor;
    let pages = 0;
    do {
      if (pages >= MAX_PAGES || now() - started > RUN_TIMEOUT_MS)
        throw new Error("tools/list did not finish");
      // A loose result schema: the per-tool checks below are counted, not fatal.
      const page = await client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        PaginatedResultSchema,
        { timeout: RUN_TIMEOUT_MS },
      );
      tools.push(...(Array.isArray(page.tools) ? page.tools : []));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    const elapsedMs = now() - started;
    const peakRss = readPeakRss(transport.pid);
    return { elapsedMs, peakRss, tools, pages };
  } catch (error) {
    throw new Error(`\`${displayCommand(args)}\`: ${error.message}\n${stderr()}`);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The SDK client's own checks on each tool: ToolSchema, then ajv compile of both schemas. */
export function checkTools(tools) {
  const validator = new AjvJsonSchemaValidator();
  const failures = [];
  // ajv warns on console about unknown formats (e.g. GitHub's "repo.nwo"); those are not failures.
  const warn = console.warn;
  console.warn = () => {};
  try {
    checkEach(tools, validator, failures);
  } finally {
    console.warn = warn;
  }
  return failures;
}

function checkEach(tools, validator, failures) {
  for (const tool of tools) {
    const name = typeof tool?.name === "string" ? tool.name : "(no name)";
    const parsed = ToolSchema.safeParse(tool);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      failures.push({ name, check: "ToolSchema", error: `${issue?.path.join(".")}: ${issue?.message}` });
      continue;
    }
    for (const key of ["inputSchema", "outputSchema"]) {
      if (tool[key] === undefined) continue;
      try {
        validator.getValidator(tool[key]);
      } catch (error) {
        failures.push({
          name,
          check: `ajv ${key}`,
          error: String(error.message).split("\n")[0].slice(0, 200),
        });
        break;
      }
    }
  }
}

export function makeModel({ log }) {
  const started = now();
  execFileSync(process.execPath, [OUR_CLI, "model", GITHUB_SPEC, "-o", MODEL_FILE], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: RUN_TIMEOUT_MS,
  });
  const ms = now() - started;
  log(`startup: wrote ${MODEL_FILE} in ${formatMs(ms)}`);
  return { ms, bytes: statSync(MODEL_FILE).size };
}

export async function runStartup({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  setup({ log });
  const model = makeModel({ log });
  const cases = [
    {
      id: "ours-spec-cold",
      label: "openapi-mcp-bridge, from the spec, no cache (first start)",
      args: [...ourServeArgs(GITHUB_SPEC, UNUSED_BASE_URL), "--no-cache"],
    },
    {
      id: "ours-spec",
      label: "openapi-mcp-bridge, from the spec, cached model (later starts)",
      args: ourServeArgs(GITHUB_SPEC, UNUSED_BASE_URL),
    },
    {
      id: "ours-model",
      label: "openapi-mcp-bridge, from a saved model",
      args: ourServeArgs(MODEL_FILE, UNUSED_BASE_URL),
    },
    {
      id: "competitor",
      label: `${COMPETITOR} ${COMPETITOR_VERSION}, from the spec`,
      args: competitorServeArgs(GITHUB_SPEC, UNUSED_BASE_URL),
    },
  ];
  for (const c of cases) c.runs = [];
  for (let run = 0; run < RUNS; run += 1) {
    for (const c of cases) {
      const result = await measureOnce(c.args);
      if (c.firstList === undefined) {
        c.firstList = {
          tools: result.tools,
          pages: result.pages,
          bytes: JSON.stringify(result.tools).length,
        };
      }
      c.runs.push({ elapsedMs: result.elapsedMs, peakRss: result.peakRss });
      log(
        `startup: run ${run + 1}/${RUNS} ${c.id}: ${formatMs(result.elapsedMs)}, ${formatMb(result.peakRss)}`,
      );
    }
  }
  for (const c of cases) {
    c.time = summarize(c.runs.map((r) => r.elapsedMs));
    const rss = c.runs.map((r) => r.peakRss).filter((v) => v !== undefined);
    c.rss = rss.length > 0 ? summarize(rss) : undefined;
    c.failures = checkTools(c.firstList.tools);
    c.toolCount = c.firstList.tools.length;
  }
  return { env: describeEnvironment(), runs: RUNS, model, cases };
}

/** Every run's time and peak RSS per case, in run order (run i of each case ran side by side). */
export function startupFigures({ env, runs, cases }) {
  return {
    date: env.date,
    commit: env.commit,
    runs,
    cases: cases.map((c) => ({
      id: c.id,
      label: c.label,
      ms: c.runs.map((r) => r.elapsedMs),
      peakRss: c.runs.map((r) => r.peakRss ?? null),
    })),
  };
}

export function startupMarkdown({ env, runs, model, cases }) {
  const rows = cases.map((c) => [
    c.label,
    formatMs(c.time.median),
    `${formatMs(c.time.min)} – ${formatMs(c.time.max)}`,
    c.rss ? formatMb(c.rss.median) : "n/a",
    c.rss ? `${formatMb(c.rss.min)} – ${formatMb(c.rss.max)}` : "n/a",
    String(c.toolCount),
    String(c.firstList.pages),
    `${(c.firstList.bytes / 1024 / 1024).toFixed(1)} MB`,
    String(c.failures.length),
  ]);
  const failureSections = cases.map((c) => {
    if (c.failures.length === 0) return `- ${c.label}: all ${c.toolCount} tools pass.`;
    const shown = c.failures.slice(0, 8).map((f) => `  - \`${f.name}\` (${f.check}): ${f.error}`);
    const more =
      c.failures.length > shown.length ? [`  - ... and ${c.failures.length - shown.length} more`] : [];
    return [`- ${c.label}: ${c.failures.length} of ${c.toolCount} tools fail:`, ...shown, ...more].join("\n");
  });
  return [
    "# Start-up: GitHub REST spec to the first complete tools/list",
    "",
    environmentMarkdown(env),
    `- Spec: ${env.octokit}, \`generated/api.github.com.json\``,
    "",
    `Time from spawning the process to the last page of the first tools/list answer (following`,
    "`nextCursor`), through an SDK `Client` over `StdioClientTransport`, initialize handshake included.",
    "Peak RSS is `VmHWM` from `/proc/<pid>/status` read right after the list. " +
      `${runs} runs per case, cases interleaved.`,
    "",
    markdownTable(
      [
        "Case",
        "Median",
        "Min – max",
        "Peak RSS (median)",
        "Peak RSS min – max",
        "Tools",
        "Pages",
        "tools/list JSON",
        "Tools failing SDK checks",
      ],
      rows,
    ),
    "",
    `The model file was written once per benchmark run with the \`model\` command in ${formatMs(model.ms)}` +
      ` (${(model.bytes / 1024 / 1024).toFixed(1)} MB).`,
    "",
    "## Tools failing the SDK client's checks",
    "",
    "Each listed tool is parsed with the SDK's `ToolSchema` (zod), then its `inputSchema` and",
    "`outputSchema` are compiled with the SDK's `AjvJsonSchemaValidator` (what `Client.listTools()` /",
    "`callTool()` use; one validator per bridge, as one client would).",
    "",
    ...failureSections,
    "",
    "## Commands",
    "",
    "```sh",
    "npm run bench   # npm run build --silent && node bench/run.mjs",
    `node dist/cli/main.js model $SCRATCH/node_modules/@octokit/openapi/generated/api.github.com.json -o $SCRATCH/github.model.json`,
    ...cases.map((c) => `${displayCommand(c.args)}   # ${c.id}`),
    "```",
    "",
  ].join("\n");
}

if (isMain(import.meta.url)) {
  const result = await runStartup();
  writeResults("startup", startupMarkdown(result), startupFigures(result));
  process.stdout.write(startupMarkdown(result));
}
