/**
 * Parameter and body property names that plain JavaScript objects treat specially
 * (`__proto__`, `constructor`, `toString`, ...): the planner keeps them as arguments without
 * touching any prototype, and the runtime sends them under their own names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { BridgeModel, ToolNode } from "../../../src/model/types.js";
import { connectModel } from "../../helpers/bridge.js";
import { startUpstream, type Upstream } from "../../helpers/upstream.js";

function plan(document: Record<string, unknown>): BridgeModel {
  const loaded = {
    document: { openapi: "3.1.0", info: { title: "T", version: "1" }, ...document },
    specVersion: "3.1",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded);
}

/** As a parsed spec has it: `__proto__` an own key (JSON.parse and YAML parsers keep it so). */
const thingSchema = JSON.parse(
  JSON.stringify({
    type: "object",
    required: ["name"],
    properties: {
      name: { type: "string" },
      __proto_placeholder__: { type: "object", properties: { polluted: { type: "boolean" } } },
      constructor: { type: "string" },
      toString: { type: "string" },
    },
  }).replace("__proto_placeholder__", "__proto__"),
) as Record<string, unknown>;

function document(): Record<string, unknown> {
  return {
    paths: {
      "/things": {
        post: {
          operationId: "createThing",
          parameters: [{ name: "valueOf", in: "query", schema: { type: "string" } }],
          requestBody: { required: true, content: { "application/json": { schema: thingSchema } } },
          responses: { "201": { description: "created" } },
        },
      },
    },
  };
}

function argumentNames(tool: ToolNode): string[] {
  return Object.keys(tool.inputSchema.properties as object);
}

describe("special property names", () => {
  it("keeps a body property named __proto__ as an argument, without setting any prototype", () => {
    const tool = plan(document()).tools[0]!;
    expect(argumentNames(tool)).toEqual([
      "valueOf__query",
      "name",
      "__proto____body",
      "constructor__body",
      "toString__body",
    ]);
    const properties = tool.inputSchema.properties as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(properties["__proto____body"]).toMatchObject({ type: "object" });
    expect(tool.http.body?.properties?.map((p) => [p.argument, p.name])).toEqual([
      ["name", "name"],
      ["__proto____body", "__proto__"],
      ["constructor__body", "constructor"],
      ["toString__body", "toString"],
    ]);
    expect(tool.http.parameters.map((p) => [p.argument, p.name])).toEqual([["valueOf__query", "valueOf"]]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("special property names inside a referenced schema", () => {
  it("keeps a nested __proto__ property (and one in an example) as an own key of $defs", () => {
    const inner = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"id":{"type":"integer"}},"example":{"__proto__":"x"}}',
    ) as Record<string, unknown>;
    const tool = plan({
      paths: {
        "/x": {
          post: {
            operationId: "postX",
            requestBody: {
              content: {
                "application/json": {
                  schema: { type: "object", properties: { item: { $ref: "#/components/schemas/Inner" } } },
                },
              },
            },
            responses: { "204": { description: "ok" } },
          },
        },
      },
      components: { schemas: { Inner: inner } },
    }).tools[0]!;
    const defs = tool.inputSchema.$defs as Record<string, Record<string, unknown>>;
    const properties = defs["Inner"]!["properties"] as object;
    expect(Object.keys(properties)).toEqual(["__proto__", "id"]);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(JSON.stringify(defs["Inner"]!["examples"])).toBe('[{"__proto__":"x"}]');
  });
});

describe("special property names on the wire", () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("sends them as JSON body properties and query parameters under their own names", async () => {
    const model = plan({ ...document(), servers: [{ url: upstream.url }] });
    const bridge = await connectModel(model);
    try {
      const result = await bridge.call("createThing", {
        name: "n",
        __proto____body: { polluted: true },
        constructor__body: "c",
        toString__body: "s",
        valueOf__query: "v",
      });
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      const request = upstream.requests.at(-1)!;
      expect(request.queryPairs()).toEqual([["valueOf", "v"]]);
      expect(request.text()).toBe(
        '{"name":"n","__proto__":{"polluted":true},"constructor":"c","toString":"s"}',
      );
      const sent = request.json() as object;
      expect(Object.hasOwn(sent, "__proto__")).toBe(true);
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();

      // Without the special arguments, nothing inherited is mistaken for one.
      const plain = await bridge.call("createThing", { name: "m" });
      expect(plain.isError ?? false, JSON.stringify(plain.content)).toBe(false);
      expect(upstream.requests.at(-1)!.text()).toBe('{"name":"m"}');
    } finally {
      await bridge.close();
    }
  });
});
