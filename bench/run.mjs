/** Runs every benchmark and writes bench/results/startup.md and bench/results/latency.md. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { latencyMarkdown, runLatency } from "./latency.mjs";
import { RESULTS_DIR } from "./lib.mjs";
import { setup } from "./setup.mjs";
import { runStartup, startupMarkdown } from "./startup.mjs";

const log = (line) => process.stderr.write(`${line}\n`);

setup({ log });
mkdirSync(RESULTS_DIR, { recursive: true });

const startup = await runStartup({ log });
const startupFile = join(RESULTS_DIR, "startup.md");
writeFileSync(startupFile, startupMarkdown(startup));
log(`wrote ${startupFile}`);

const latency = await runLatency({ log });
const latencyFile = join(RESULTS_DIR, "latency.md");
writeFileSync(latencyFile, latencyMarkdown(latency));
log(`wrote ${latencyFile}`);
