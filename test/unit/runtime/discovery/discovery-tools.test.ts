/**
 * The three tools of discovery mode as tools/list gives them: under 1,000 tokens (o200k_base)
 * for any API, the largest real one and adversarial titles and tags included; portable names;
 * annotations of call_operation from the operations it can reach.
 */
import { describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/generator/lint/token-count.js";
import { buildModel } from "../../../../src/index.js";
import {
  DISCOVERY_TOOL_NAMES,
  listDiscoveryTools,
  toDiscoveryContext,
} from "../../../../src/runtime/discovery/discovery-tools.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";
import { fixture } from "../../../helpers/bridge.js";
import { githubSpec } from "../../../helpers/github-spec.js";

const count = await loadTokenCounter();
const tokensOf = (value: unknown) => count(JSON.stringify(value));

describe("tools/list in discovery mode", () => {
  it.each([
    ["petstore", () => fixture("petstore", "petstore.openapi30.yaml")],
    ["gitea", () => fixture("codegen", "gitea.openapi30.json")],
    ["GitHub", githubSpec],
  ])("%s: the three tools, under 1,000 tokens in all", { timeout: 60_000 }, async (_label, spec) => {
    const model = await buildModel(spec());
    const runtime = createBridgeRuntime(model, { env: {}, mode: "discovery" });
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

  it("names the API and its operations, and some of its tags", () => {
    const model = planSpec({ info: { title: "Toy Store", version: "1" }, paths: TOY_PATHS });
    const [search, describe, call] = listDiscoveryTools(toDiscoveryContext(model), model.tools);
    expect(search!.description).toContain("the Toy Store API (10 operations)");
    expect(JSON.stringify(search!.inputSchema)).toContain("e.g. pets, admin, store");
    expect(describe!.description).toContain("Toy Store");
    expect(call!.description).toContain("Toy Store");
    for (const tool of [search, describe, call]) expect(tool!.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it.each([
    ["every operation", {}, { readOnlyHint: false, destructiveHint: true, idempotentHint: false }],
    ["--read-only", { readOnly: true }, { readOnlyHint: true, destructiveHint: false, idempotentHint: true }],
    [
      "--destructive refuse",
      { destructive: "refuse" as const },
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    ],
  ])("call_operation's annotations with %s: those of what it can reach", (_label, access, want) => {
    const model = planSpec({ paths: TOY_PATHS });
    const runtime = createBridgeRuntime(model, { env: {}, mode: "discovery", access });
    const call = runtime.listTools(undefined).tools.find((t) => t.name === "call_operation")!;
    expect(call.annotations).toMatchObject({ ...want, openWorldHint: true });
    const search = runtime.listTools(undefined).tools.find((t) => t.name === "search_operations")!;
    expect(search.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});
