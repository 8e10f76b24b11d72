/**
 * The runtime's token estimate (no tokenizer at start-up) against the real o200k_base tokenizer
 * (js-tiktoken), on the tools of real specs: what `--mode auto` decides by must be close to
 * what a client pays. Slow (the tokenizer, 1,223 GitHub operations): the `slow` project, with
 * the models planned once (test/helpers/planned-model.ts).
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/generator/lint/token-count.js";
import { AUTO_LIMITS, estimateListTokens } from "../../../../src/runtime/discovery/mode.js";
import { fixture } from "../../../helpers/bridge.js";
import { githubSpec } from "../../../helpers/github-spec.js";
import { plannedModel } from "../../../helpers/planned-model.js";

/** Label → spec path (GitHub's is unpacked on first use). */
const SPECS: [string, () => string][] = [
  ["petstore", () => fixture("petstore", "petstore.openapi30.yaml")],
  ["gitea", () => fixture("codegen", "gitea.openapi30.json")],
  ...readdirSync(fixture("real"))
    .filter((name) => !name.endsWith(".md"))
    .map((name): [string, () => string] => [name, () => fixture("real", name)]),
  ["GitHub", githubSpec],
];

describe("the estimate of name + description + input schema against o200k_base", () => {
  it.each(SPECS)("%s: within -15% and +10% of the real count", { timeout: 120_000 }, async (_label, spec) => {
    const model = await plannedModel(spec());
    const count = await loadTokenCounter();
    const real = model.tools.reduce(
      (sum, tool) =>
        sum + count(tool.name) + count(tool.description) + count(JSON.stringify(tool.inputSchema)),
      0,
    );
    const estimate = estimateListTokens(model.tools);
    expect(real).toBeGreaterThan(0);
    const ratio = estimate / real;
    expect(ratio, `estimate ${estimate}, real ${real}`).toBeGreaterThan(0.85);
    expect(ratio, `estimate ${estimate}, real ${real}`).toBeLessThan(1.1);
    // The decision it feeds is the one the real count gives, away from the limit itself.
    if (Math.abs(real - AUTO_LIMITS.tokens) > AUTO_LIMITS.tokens * 0.15) {
      expect(estimate > AUTO_LIMITS.tokens).toBe(real > AUTO_LIMITS.tokens);
    }
  });
});
