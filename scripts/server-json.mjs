/**
 * Rewrites server.json (this package's entry for the MCP Registry) from package.json (name,
 * version, mcpName) and the option table, as built in dist/: `npm run server-json`.
 * test/unit/codegen/server-json.test.ts fails while the file is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { emitPackageServerJson } from "../dist/generator/codegen/emit/server-json.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "server.json");
const text = emitPackageServerJson(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
let before;
try {
  before = readFileSync(target, "utf8");
} catch {}
if (before === text) process.stderr.write("server.json is up to date\n");
else {
  writeFileSync(target, text);
  process.stderr.write("server.json rewritten\n");
}
