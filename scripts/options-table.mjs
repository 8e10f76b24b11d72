/**
 * Rewrites the option tables of docs/serve.md from the tables they render, as built in dist/:
 * `npm run options-table`. Between the options markers, the runtime's option table (every
 * option of `serve` and a generated server); between the plan-options markers, the spec options
 * (generator/compile/plan-option-table.ts). test/unit/codegen/readme-options.test.ts and
 * test/unit/compile/plan-option-table.test.ts fail while that page and a table disagree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderOptionTable, replaceOptionTable } from "../dist/generator/codegen/emit/option-markdown.js";
import { PLAN_OPTION_MARKERS, renderPlanOptionTable } from "../dist/generator/compile/plan-option-table.js";
import { replaceMarkedSection } from "../dist/generator/shared/markdown.js";

const readme = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "serve.md");
const before = readFileSync(readme, "utf8");
const after = replaceMarkedSection(
  replaceOptionTable(before, renderOptionTable()),
  PLAN_OPTION_MARKERS,
  renderPlanOptionTable(),
);
if (after === before) {
  process.stderr.write("docs/serve.md: the option tables are up to date\n");
} else {
  writeFileSync(readme, after);
  process.stderr.write("docs/serve.md: option tables rewritten\n");
}
