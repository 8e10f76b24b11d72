/**
 * The three tools of discovery mode as tools/list gives them: under 1,000 tokens (o200k_base)
 * for any API, the largest real one and adversarial titles and tags included. Slow (the real
 * tokenizer, GitHub's 1,223 operations, planned once: test/helpers/planned-model.ts).
 */
import { describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/generator/lint/token-count.js";
import {
  DISCOVERY_TOOL_NAMES,
  listDiscoveryTools,
} from "../../../../src/runtime/discovery/discovery-tools.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";
import { fixture } from "../../../helpers/bridge.js";
import { githubSpec } from "../../../helpers/github-spec.js";
import { plannedModel } from "../../../helpers/planned-model.js";

const count = await loadTokenCounter();
const tokensOf = (value: unknown) => count(JSON.stringify(value));

describe("tools/list in discovery mode", () => {
  it.each([
    ["petstore", () => fixture("petstore", "petstore.openapi30.yaml")],
    ["gitea", () => fixture("codegen", "gitea.openapi30.json")],
    ["GitHub", githubSpec],
  ])("%s: the three tools, under 1,000 tokens in all", { timeout: 60_000 }, async (_label, spec) => {
    const model = await plannedModel(spec());
    const runtime = createBridgeRuntime(model, {
      env: {},
      mode: "discovery",
      baseUrl: "https://api.example.test",
    });
    const page = runtime.listTools(undefined);
    expect(page.tools.map((t) => t.name)).toEqual(DISCOVERY_TOOL_NAMES);
    expect(page).not.toHaveProperty("nextCursor");
    expect(tokensOf(page)).toBeLessThan(1000);
    await runtime.close();
  });

  it("stays under 1,000 tokens for any title, tags and count the spec has", () => {
    const toy = planSpec({ paths: TOY_PATHS }).tools;
    const worst = listDiscoveryTools(
      {
        title: "An API with a title that goes on and on ".repeat(300),
        operations: 22_361_000,
        tags: Array.from({ length: 5000 }, (_, i) => `tag-${i}-${"long".repeat(50)}`),
      },
      toy,
    );
    expect(tokensOf({ tools: worst })).toBeLessThan(1000);
    // Tokens that cost most per character (non-Latin text) are clipped by characters too.
    const cjk = listDiscoveryTools(
      { title: "財務会計".repeat(5000), operations: 1, tags: ["標準".repeat(500)] },
      toy,
    );
    expect(tokensOf({ tools: cjk })).toBeLessThan(1000);
  });
});
