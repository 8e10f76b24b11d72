/**
 * One run of the official MCP conformance suite (server side) against one endpoint with one
 * requirement set, on the suite's own Node, and its results read back from the per-scenario
 * checks.json files it writes (the suite's exit code only says "something failed").
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The check statuses that count as not passing (the suite's own baseline treats them so too). */
export const NOT_PASSING = new Set(["FAILURE", "WARNING"]);

/** Worst first: a check id reported twice keeps the worse of its statuses. */
const RANK = ["FAILURE", "WARNING", "SKIPPED", "INFO", "SUCCESS"];

/** "server-tools-list-2026-12-05T17-03-58-621Z" → "tools-list" */
function readScenarioName(folder) {
  return folder.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
}

/** The one-line reason a check gives, for messages. */
function summarizeCheck(check) {
  const text = check.errorMessage ?? check.message ?? check.description ?? "";
  return String(text).replace(/\s+/g, " ").trim().slice(0, 240);
}

/**
 * Reads the scenarios of a finished run from outDir: per scenario its checks by id (an id
 * reported twice keeps its worse status) and the suite's own counts (every check reported).
 */
function readRun(outDir) {
  const scenarios = new Map();
  for (const folder of readdirSync(outDir).sort()) {
    const file = join(outDir, folder, "checks.json");
    if (!existsSync(file)) continue;
    const reported = JSON.parse(readFileSync(file, "utf8"));
    const checks = new Map();
    for (const check of reported) {
      const seen = checks.get(check.id);
      if (seen && RANK.indexOf(seen.status) <= RANK.indexOf(check.status)) continue;
      checks.set(check.id, { id: check.id, status: check.status, message: summarizeCheck(check) });
    }
    const count = (status) => reported.filter((check) => check.status === status).length;
    scenarios.set(readScenarioName(folder), {
      checks: [...checks.values()],
      passed: count("SUCCESS"),
      failed: count("FAILURE"),
      warnings: count("WARNING"),
    });
  }
  return scenarios;
}

/**
 * Runs `conformance server --url endpoint --requirements revision -o outDir`. Resolves to
 * { scenarios: Map<scenario, { checks, passed, failed, warnings }>, output, exitCode, ms }; throws when the suite did not get
 * as far as its summary, or its summary and its files disagree on the scenarios run.
 */
export function runSuite({ tools, endpoint, requirements, outDir, timeoutMs = 600_000 }) {
  const started = Date.now();
  const args = [tools.suite, "server", "--url", endpoint, "--requirements", requirements, "-o", outDir];
  const child = spawn(tools.node, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const summary = [...output.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed/gm)].map((m) => m[1]);
      const tail = output.split("\n").slice(-40).join("\n");
      if (signal || summary.length === 0) {
        reject(new Error(`the suite stopped (${signal ?? `exit ${code}`}) before its summary:\n${tail}`));
        return;
      }
      const scenarios = existsSync(outDir) ? readRun(outDir) : new Map();
      const missing = summary.filter((name) => !scenarios.has(name));
      if (missing.length > 0) {
        reject(
          new Error(`the suite summarised scenarios it wrote no checks.json for: ${missing.join(", ")}`),
        );
        return;
      }
      // In the suite's own order (its summary's), which groups related scenarios.
      const ordered = new Map(summary.map((name) => [name, scenarios.get(name)]));
      for (const [name, scenario] of scenarios) if (!ordered.has(name)) ordered.set(name, scenario);
      resolve({ scenarios: ordered, output, exitCode: code, ms: Date.now() - started });
    });
  });
}
