/**
 * Rewrites the option table of README.md (between the options markers) from the runtime's
 * option table, as built in dist/: `npm run options-table`. test/unit/readme-options.test.ts
 * fails while the README and the table disagree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderOptionTable, replaceOptionTable } from "../dist/generator/codegen/emit/option-markdown.js";

const readme = join(dirname(fileURLToPath(import.meta.url)), "..", "README.md");
const before = readFileSync(readme, "utf8");
const after = replaceOptionTable(before, renderOptionTable());
if (after === before) {
  process.stderr.write("README.md: the option table is up to date\n");
} else {
  writeFileSync(readme, after);
  process.stderr.write("README.md: option table rewritten\n");
}
