/**
 * The files a built ES module reaches by static relative imports (`import ... from "./x.js"`,
 * `export ... from`, `import "./x.js"`), or a CommonJS chunk by its top-level `require("./x.cjs")`,
 * itself included; dynamic `import()` (a deferred `require` in a chunk) is not followed.
 * For the bundle tests: what a start loads before any lazy import.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

export function readStaticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    const imports = [
      ...text.matchAll(/^(?:import|export)\b[^;]*?from "(\.[^"]+)"/gm),
      ...text.matchAll(/^import "(\.[^"]+)";/gm),
      // CommonJS chunks (scripts/bundle-cli.mjs): a require at the top level, not in a function.
      ...text.matchAll(/^(?:(?:const|let|var) \w+ = )?require\("(\.[^"]+)"\);/gm),
    ];
    for (const [, target] of imports) visit(resolve(dirname(file), target!));
  };
  visit(entry);
  return seen;
}
