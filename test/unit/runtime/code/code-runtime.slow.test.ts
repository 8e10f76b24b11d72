/**
 * Code mode's tools/list: search, describe and execute, under 1,000 tokens (o200k_base) for any
 * API, GitHub's 1,223 operations and any title, tags, count and limits included. Slow (the real
 * tokenizer, GitHub planned once: test/helpers/planned-model.ts); the rest of code mode on the
 * runtime is code-runtime.test.ts.
 */
import { describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/generator/lint/token-count.js";
import { CODE_TOOL_NAMES, listCodeTools } from "../../../../src/runtime/code/code-tools.js";
import { resolveSandboxLimits } from "../../../../src/runtime/code/sandbox/limits.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";
import { fixture } from "../../../helpers/bridge.js";
import { githubSpec } from "../../../helpers/github-spec.js";
import { plannedModel } from "../../../helpers/planned-model.js";

const count = await loadTokenCounter();
const tokensOf = (value: unknown) => count(JSON.stringify(value));

describe("tools/list in code mode", () => {
  it.each([
    ["petstore", () => fixture("petstore", "petstore.openapi30.yaml")],
    ["GitHub", githubSpec],
  ])("%s: search, describe and execute, under 1,000 tokens", { timeout: 60_000 }, async (_label, spec) => {
    const model = await plannedModel(spec(), { resultSchemas: true });
    const runtime = createBridgeRuntime(model, { env: {}, mode: "code" });
    const page = runtime.listTools(undefined);
    expect(page.tools.map((t) => t.name)).toEqual(CODE_TOOL_NAMES);
    expect(tokensOf(page)).toBeLessThan(1000);
    await runtime.close();
  });

  it("stays under 1,000 tokens for any title, tags, count and limits", () => {
    const toy = planSpec({ paths: TOY_PATHS }).tools;
    const worst = listCodeTools(
      {
        title: "An API with a title that goes on and on ".repeat(300),
        operations: 22_361_000,
        tags: Array.from({ length: 5000 }, (_, i) => `tag-${i}-${"long".repeat(50)}`),
      },
      toy,
      { ...resolveSandboxLimits(), maxCalls: 9_007_199_254_740_991, timeoutMs: 9_007_199_254_740_991 },
    );
    expect(tokensOf({ tools: worst })).toBeLessThan(1000);
  });
});
