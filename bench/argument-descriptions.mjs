// Characters of every argument description (input-schema "description" strings) the planner
// writes for a few real specs, and o200k_base tokens of each tool's name, description and input
// schema as compact JSON; `node bench/argument-descriptions.mjs <dist dir> spec...` with a dist
// built by `npx tsc -p tsconfig.build.json --outDir <dist dir>`. Results:
// bench/results/argument-descriptions.md.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { getEncoding } from "js-tiktoken";

const [dist, ...specs] = process.argv.slice(2);
const { loadSpec } = await import(pathToFileURL(resolve(dist, "generator/spec/load-spec.js")).href);
const { planModel } = await import(pathToFileURL(resolve(dist, "generator/compile/plan-model.js")).href);

function collect(node, out) {
  if (Array.isArray(node)) for (const item of node) collect(item, out);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "description" && typeof value === "string") out.push(value);
      else collect(value, out);
    }
  }
}

const encoder = getEncoding("o200k_base");
console.log(
  ["spec", "tools", "descriptions", "chars", "unclosed (", "ends at e.g./etc.", "tokens"].join("\t"),
);
for (const spec of specs) {
  const model = planModel(await loadSpec(spec));
  const texts = [];
  for (const tool of model.tools) collect(tool.inputSchema, texts);
  const tokens = model.tools.reduce(
    (sum, tool) =>
      sum +
      encoder.encode(
        JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
      ).length,
    0,
  );
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  const openParen = texts.filter((t) => (t.match(/\(/g) ?? []).length > (t.match(/\)/g) ?? []).length).length;
  const endsAbbrev = texts.filter((t) => /\b(e\.g|i\.e|etc|vs|approx|no)\.$/i.test(t)).length;
  console.log(
    [spec.split("/").pop(), model.tools.length, texts.length, chars, openParen, endsAbbrev, tokens].join(
      "\t",
    ),
  );
}
