/**
 * Every benchmark in one command, side by side with the other tools, each writing
 * bench/results/NAME.md and NAME.json: start-up and per-call latency (against
 * @ivotoby/openapi-mcp-server), code generation and tools/list tokens (against
 * openapi-mcp-generator; tokens also against @ivotoby), memory under load, HTTP calls/s at
 * saturation (against @ivotoby and a bare forwarder) and memory across rounds of HTTP load; then
 * bench/summary.mjs writes bench/results/summary.md and the README's performance table.
 *
 *   npm run bench          # npm run build --silent && node bench/run.mjs
 *
 * Each step also runs on its own (see bench/README.md).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { latencyFigures, latencyMarkdown, runLatency } from "./latency.mjs";
import { BENCH_DIR, RESULTS_DIR, writeResults } from "./lib.mjs";
import { setup } from "./setup.mjs";
import { runStartup, startupFigures, startupMarkdown } from "./startup.mjs";

const log = (line) => process.stderr.write(`${line}\n`);

/** Runs another bench script to its end, its output on this stderr; fails the run if it fails. */
function runScript(script, args = []) {
  log(`bench: node bench/${script} ${args.join(" ")}`);
  const result = spawnSync(process.execPath, [join(BENCH_DIR, script), ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error(`bench/${script} failed (exit ${result.status})`);
}

setup({ log });
mkdirSync(RESULTS_DIR, { recursive: true });

const startup = await runStartup({ log });
writeResults("startup", startupMarkdown(startup), startupFigures(startup));
log("wrote bench/results/startup.md");

const latency = await runLatency({ log });
writeResults("latency", latencyMarkdown(latency), latencyFigures(latency));
log("wrote bench/results/latency.md");

runScript("generate.mjs", [
  "--runs",
  process.env.OMB_BENCH_GENERATE_RUNS ?? "5",
  "--tsc-runs",
  "0",
  "--cases",
  "ours,oursCached,oursNoValidate",
]);
runScript("tokens.mjs");
runScript("load.mjs");
runScript("http-throughput.mjs");
runScript("summary.mjs");
