// Summarizes a run of bench/conformance/run.sh: node bench/conformance/summarize.mjs <outdir>
// Prints one markdown table (scenario x run) and the per-run totals.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? "/tmp/omb-conformance";
const runs = [
  "sessionful-2025-11-25",
  "stateless-2025-11-25",
  "sessionful-2026-07-28",
  "stateless-2026-07-28",
];
const table = new Map();
const totals = {};
for (const run of runs) {
  const text = readFileSync(join(dir, `${run}.txt`), "utf8");
  for (const m of text.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gm)) {
    const row = table.get(m[2]) ?? {};
    row[run] = `${m[1]} ${m[3]}/${Number(m[3]) + Number(m[4])}`;
    table.set(m[2], row);
  }
  const t = text.match(/Total: (\d+) passed, (\d+) failed/);
  const ok = [...text.matchAll(/^✓ /gm)].length;
  const bad = [...text.matchAll(/^✗ /gm)].length;
  totals[run] = t
    ? `checks ${t[1]} passed / ${t[2]} failed; scenarios ${ok} passed / ${bad} failed`
    : "no total";
}
console.log(`| scenario | ${runs.join(" | ")} |`);
console.log(`|---|${runs.map(() => "---").join("|")}|`);
for (const [name, row] of table) console.log(`| ${name} | ${runs.map((r) => row[r] ?? "-").join(" | ")} |`);
console.log("");
for (const run of runs) console.log(`- ${run}: ${totals[run]}`);
