/** Shared helpers for the benchmarks: paths, MCP clients over stdio, statistics, markdown. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = resolve(BENCH_DIR, "..");
export const RESULTS_DIR = join(BENCH_DIR, "results");
export const OUR_CLI = join(REPO_DIR, "dist", "cli", "main.js");
/** Scratch folder outside the repo for the competitor and the big spec (override with OMB_BENCH_DIR). */
export const SCRATCH_DIR = process.env.OMB_BENCH_DIR ?? join(os.tmpdir(), "omb-bench");
export const COMPETITOR = "@ivotoby/openapi-mcp-server";
export const COMPETITOR_VERSION = "1.16.1";
export const COMPETITOR_DIR = join(SCRATCH_DIR, "node_modules", "@ivotoby", "openapi-mcp-server");
export const COMPETITOR_BIN = join(COMPETITOR_DIR, "bin", "mcp-server.js");
export const OCTOKIT_DIR = join(SCRATCH_DIR, "node_modules", "@octokit", "openapi");
export const GITHUB_SPEC = join(OCTOKIT_DIR, "generated", "api.github.com.json");
/** Never contacted by the start-up benchmark: the discard port on loopback. */
export const UNUSED_BASE_URL = "http://127.0.0.1:9";

/**
 * Command line (argv after node) that starts our bridge over stdio, every operation a tool (as
 * the other bridge serves them; auto would serve GitHub in discovery mode).
 */
export function ourServeArgs(specOrModel, baseUrl) {
  return [OUR_CLI, "serve", specOrModel, "--base-url", baseUrl, "--mode", "tools"];
}

/** Command line (argv after node) that starts the competitor over stdio, quietly. */
export function competitorServeArgs(spec, baseUrl) {
  return [COMPETITOR_BIN, "--openapi-spec", spec, "--api-base-url", baseUrl, "--verbose", "false"];
}

/** Shortens absolute paths for the result files. */
export function displayCommand(args) {
  return ["node", ...args]
    .map((a) => a.replaceAll(SCRATCH_DIR, "$SCRATCH").replaceAll(`${REPO_DIR}/`, ""))
    .join(" ");
}

/**
 * Spawns `node ...args` and connects a real SDK Client over stdio. The child's stderr is kept
 * (last 8 KiB) for error messages. Resolves once the MCP initialize handshake is done.
 */
export async function connectStdioClient(args, { timeoutMs = 60_000, env = {} } = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: REPO_DIR,
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), ...env },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-8192);
  });
  const client = new Client({ name: "omb-bench", version: "0.0.0" });
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await transport.close().catch(() => {});
    throw new Error(`could not start \`${displayCommand(args)}\`: ${error.message}\n${stderr}`);
  }
  return { client, transport, stderr: () => stderr };
}

/** Peak resident set size of a live process in bytes (VmHWM from /proc), or undefined. */
export function readPeakRss(pid) {
  if (pid === null || pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Sorted-copy quantile with linear interpolation (q in [0, 1]). */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export const median = (values) => quantile(values, 0.5);

export function summarize(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

export const formatMs = (ms, digits = 0) => `${ms.toFixed(digits)} ms`;
export const formatMb = (bytes) => (bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

/** A GitHub-flavoured markdown table. */
export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function tryExec(command, args) {
  try {
    return execFileSync(command, args, { encoding: "utf8", timeout: 10_000, cwd: REPO_DIR }).trim();
  } catch {
    return undefined;
  }
}

/** Where and when a run happened, for the head of each result file. */
export function describeEnvironment() {
  const commit = tryExec("git", ["rev-parse", "--short", "HEAD"]);
  const dirty = tryExec("git", ["status", "--porcelain", "--", "src"]);
  const version = (dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
    } catch {
      return "?";
    }
  };
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? "?",
    nproc: tryExec("nproc", []) ?? String(os.availableParallelism()),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    loadAverage: os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" "),
    commit: commit === undefined ? "?" : `${commit}${dirty ? " (src/ has uncommitted changes)" : ""}`,
    competitor: `${COMPETITOR} ${version(COMPETITOR_DIR)}`,
    octokit: `@octokit/openapi ${version(OCTOKIT_DIR)}`,
  };
}

export function environmentMarkdown(env) {
  return [
    `- Date: ${env.date}`,
    `- Node: ${env.node} on ${env.platform}`,
    `- Machine: ${env.cpu}, nproc ${env.nproc}, ${env.memory} memory; load average (1/5/15 min) at the end: ${env.loadAverage}`,
    `- openapi-mcp-bridge commit: ${env.commit}`,
    `- Compared with: ${env.competitor} (installed in \`$SCRATCH\` = \`${SCRATCH_DIR}\`)`,
  ].join("\n");
}

export const now = () => performance.now();

/** True when the module at `url` is the script node was started with. */
export function isMain(url) {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(url);
}

/**
 * Writes `bench/results/NAME.md` (for people) and `bench/results/NAME.json` (the figures
 * bench/summary.mjs reads for summary.md and the README's performance table).
 */
export function writeResults(name, markdown, figures) {
  writeFileSync(join(RESULTS_DIR, `${name}.md`), markdown);
  writeFileSync(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

/** A TCP port free on loopback now (for a child told to listen on it). */
export async function findFreePort() {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
