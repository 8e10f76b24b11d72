/**
 * Rewrites docs/diagnostics.md's table of diagnostic codes (between <!-- codes:begin --> and
 * <!-- codes:end -->) from the catalog, src/model/diagnostic-codes.ts, as built in dist/ (run
 * `npm run build` first, or `npm run docs:codes`, which does). With --check it writes nothing and
 * exits 1 when that page is out of date (test/unit/model/diagnostic-codes.test.ts checks the same).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readmePath = join(root, "docs", "diagnostics.md");
const { renderDiagnosticCodesTable, replaceCodesSection } = await import(
  pathToFileURL(join(root, "dist", "generator", "shared", "diagnostic-codes-table.js")).href
);

const readme = readFileSync(readmePath, "utf8");
const updated = replaceCodesSection(readme, renderDiagnosticCodesTable());
if (process.argv.includes("--check")) {
  if (updated !== readme) {
    process.stderr.write(
      "docs/diagnostics.md: the table of diagnostic codes is out of date; run npm run docs:codes\n",
    );
    process.exitCode = 1;
  }
} else if (updated !== readme) {
  writeFileSync(readmePath, updated);
  process.stderr.write("docs/diagnostics.md: table of diagnostic codes rewritten\n");
}
