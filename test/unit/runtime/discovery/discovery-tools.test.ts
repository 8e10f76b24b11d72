/**
 * The three tools of discovery mode as tools/list gives them: portable names; annotations of
 * call_operation from the operations it can reach. Their size (under 1,000 o200k_base tokens for
 * any API, the largest real one and adversarial titles and tags included) is checked with the
 * real tokenizer in discovery-tools.slow.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  listDiscoveryTools,
  nameApi,
  toDiscoveryContext,
} from "../../../../src/runtime/discovery/discovery-tools.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

describe("tools/list in discovery mode", () => {
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
    const runtime = createBridgeRuntime(model, {
      env: {},
      baseUrl: "http://127.0.0.1:9",
      mode: "discovery",
      access,
    });
    const call = runtime.listTools(undefined).tools.find((t) => t.name === "call_operation")!;
    expect(call.annotations).toMatchObject({ ...want, openWorldHint: true });
    const search = runtime.listTools(undefined).tools.find((t) => t.name === "search_operations")!;
    expect(search.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});

describe("nameApi", () => {
  it.each([
    ["Pet Store", "the Pet Store API"],
    ["GitHub REST API", "the GitHub REST API"],
    ["Stripe api ", "the Stripe api"],
    ["OpenAPI Petstore", "the OpenAPI Petstore API"],
    ["RAPI", "the RAPI API"],
    ["Discourse API Documentation", "the Discourse API Documentation"],
    ["Amadeus APIs", "the Amadeus APIs"],
    [" Seller Service Metrics API ", "the Seller Service Metrics API"],
    ["Listen API: Podcast Search", "the Listen API: Podcast Search"],
  ])("names %j as %j (never 'the ... API API')", (title, named) => {
    expect(nameApi(title)).toBe(named);
  });

  it.each(["Discourse API", "Discourse Api", "Amadeus APIs", "Discourse API Documentation"])(
    "names %j once in every text a model sees in discovery mode",
    async (title) => {
      const model = planSpec({ info: { title, version: "1" }, paths: TOY_PATHS });
      const runtime = createBridgeRuntime(model, {
        env: {},
        mode: "discovery",
        baseUrl: "https://api.example.test",
      });
      try {
        const texts = [
          ...runtime.listTools(undefined).tools.map((tool) => JSON.stringify(tool)),
          JSON.stringify(await runtime.callTool("search_operations", { query: "quantum flux capacitor" })),
          JSON.stringify(await runtime.callTool("describe_operations", { names: ["removePet"] })),
          JSON.stringify(await runtime.callTool("call_operation", { name: "removePet", arguments: {} })),
        ];
        for (const text of texts) {
          expect(text).toContain(title);
          expect(text).not.toMatch(/\bAPIs? API\b/i);
        }
      } finally {
        await runtime.close();
      }
    },
  );
});
