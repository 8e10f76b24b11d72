// Turns the last `npm run conformance` (its node_modules/.cache/omb-conformance/results.json)
// into the markdown of bench/results/conformance.md: per requirement set, one table of scenario
// x target ("✓ passed/reported"; "⚠ N" counts the SHOULD-level warnings), the totals of each run,
// and the Inspector's cases.
// Usage: npm run conformance; node bench/conformance/summarize.mjs [results.json]
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const file = process.argv[2] ?? join(ROOT, "node_modules", ".cache", "omb-conformance", "results.json");
const report = JSON.parse(readFileSync(file, "utf8"));
const LABELS = {
  serve: "serve",
  "serve-stateless": "serve --stateless",
  generated: "generated",
  "generated-stateless": "generated --stateless",
};

/** "✓ 3/3", "✗ 1/2", with " ⚠ 1" when the scenario had warnings. */
function formatCell(s) {
  if (!s) return "-";
  const reported = s.passed + s.failed;
  return `${s.failed === 0 ? "✓" : "✗"} ${s.passed}/${reported}${s.warnings > 0 ? ` ⚠ ${s.warnings}` : ""}`;
}

const lines = [];
lines.push(
  `Commit ${report.commit}, ${report.date.slice(0, 10)}; the bridge on Node ${report.bridgeNode}, the suite ` +
    `(@modelcontextprotocol/conformance ${report.tools["@modelcontextprotocol/conformance"]}) and the Inspector ` +
    `(${report.tools["@modelcontextprotocol/inspector"]}) on Node ${report.tools.node}.`,
);
for (const requirements of [...new Set(report.runs.map((run) => run.requirements))]) {
  const runs = report.runs.filter((run) => run.requirements === requirements);
  lines.push("", `### --requirements ${requirements}`, "");
  lines.push(`| scenario | ${runs.map((run) => LABELS[run.target] ?? run.target).join(" | ")} |`);
  lines.push(`|---|${runs.map(() => "---").join("|")}|`);
  const names = [...new Set(runs.flatMap((run) => Object.keys(run.scenarios)))];
  for (const name of names) {
    lines.push(`| ${name} | ${runs.map((run) => formatCell(run.scenarios[name])).join(" | ")} |`);
  }
  lines.push("");
  for (const run of runs) {
    const t = run.totals;
    lines.push(
      `- ${LABELS[run.target] ?? run.target}: checks ${t.passed} passed / ${t.failed} failed / ${t.warnings} ` +
        `warnings; scenarios ${t.scenariosPassed} passed / ${t.scenarios - t.scenariosPassed} failed`,
    );
  }
}
if (report.inspector.length > 0) {
  lines.push("", "### MCP Inspector CLI against serve", "", "| case | result |", "|---|---|");
  for (const c of report.inspector)
    lines.push(`| ${c.name} | ${c.ok ? "ok" : "FAILED"}: ${c.detail.split("\n")[0]} |`);
}
console.log(lines.join("\n"));
