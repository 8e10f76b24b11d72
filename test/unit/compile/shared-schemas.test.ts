/** Repeated subschemas of one input schema become one `$defs` entry, and validate the same. */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { shareRepeatedSchemas } from "../../../src/generator/compile/shared-schemas.js";
import type { JsonSchema } from "../../../src/model/types.js";

/** An object schema long enough (as JSON) to be worth sharing. */
const rule: JsonSchema = {
  type: "object",
  description: "How this rule appears when configuring it, and what it matches against.",
  properties: {
    operator: { type: "string", enum: ["starts_with", "ends_with", "contains", "regex"] },
    pattern: { type: "string", description: "The pattern to match with." },
    negate: { type: "boolean", description: "If true, the rule will fail if the pattern matches." },
  },
  required: ["operator", "pattern"],
};

function toolSchema(properties: Record<string, JsonSchema>, defs?: Record<string, JsonSchema>): JsonSchema {
  return {
    type: "object",
    properties,
    additionalProperties: false,
    ...(defs ? { $defs: defs } : {}),
  };
}

describe("shareRepeatedSchemas", () => {
  it("moves a subschema repeated under different arguments to $defs once", () => {
    const schema = toolSchema({
      branch: { type: "object", properties: { parameters: rule } },
      tag: { type: "object", properties: { parameters: rule } },
    });
    const before = JSON.stringify(schema);
    const shared = shareRepeatedSchemas(schema);
    expect(shared.$defs).toEqual({ parameters: rule });
    expect(shared.properties).toEqual({
      branch: { type: "object", properties: { parameters: { $ref: "#/$defs/parameters" } } },
      tag: { type: "object", properties: { parameters: { $ref: "#/$defs/parameters" } } },
    });
    expect(JSON.stringify(shared).length).toBeLessThan(before.length);
    // The input (whose $defs other tools share) is left as it was.
    expect(JSON.stringify(schema)).toBe(before);
  });

  it.each([
    {
      name: "arguments themselves stay where clients read them",
      schema: toolSchema({ a: rule, b: rule }),
    },
    {
      name: "a subschema too short to pay for a reference",
      schema: toolSchema({
        a: { type: "object", properties: { x: { type: "string", enum: ["one", "two"] } } },
        b: { type: "object", properties: { x: { type: "string", enum: ["one", "two"] } } },
        c: { type: "string", description: "x".repeat(400) },
      }),
    },
    {
      name: "values that look like schemas but are data (default, examples, enum)",
      schema: toolSchema({
        a: { type: "object", default: rule, examples: [rule] },
        b: { type: "object", default: rule, examples: [rule] },
      }),
    },
    {
      name: "one copy only",
      schema: toolSchema({ a: { type: "object", properties: { p: rule } } }),
    },
  ])("leaves alone: $name", ({ schema }) => {
    expect(shareRepeatedSchemas(schema)).toBe(schema);
  });

  it("names a definition after where it was found, without taking an existing name", () => {
    const schema = toolSchema(
      {
        a: { type: "object", properties: { parameters: rule } },
        b: { type: "array", items: { $ref: "#/$defs/parameters" } },
      },
      {
        parameters: { type: "object", description: "Another definition of the same name." },
        other: { type: "object", properties: { parameters: rule } },
      },
    );
    const shared = shareRepeatedSchemas(schema);
    expect(Object.keys(shared.$defs as object).sort()).toEqual(["other", "parameters", "parameters-2"]);
    expect(shared.$defs).toMatchObject({
      "parameters-2": rule,
      other: { properties: { parameters: { $ref: "#/$defs/parameters-2" } } },
    });
  });

  it("validates exactly what the copies did", () => {
    const schema = toolSchema({
      branch: { type: "object", properties: { parameters: rule }, required: ["parameters"] },
      tag: { type: "array", items: { type: "object", properties: { parameters: rule } } },
    });
    const shared = shareRepeatedSchemas(schema);
    expect(shared).not.toBe(schema);
    const ajv = new Ajv2020({ strict: false });
    const before = ajv.compile(schema);
    const after = ajv.compile(shared);
    const values = [
      { branch: { parameters: { operator: "regex", pattern: "^a" } } },
      { branch: { parameters: { operator: "regex" } } },
      { branch: { parameters: { operator: "glob", pattern: "a" } } },
      { tag: [{ parameters: { operator: "contains", pattern: "x", negate: true } }] },
      { tag: [{ parameters: { operator: "contains", pattern: "x", negate: "yes" } }] },
      { branch: {} },
      { other: 1 },
    ];
    for (const value of values) expect(after(value), JSON.stringify(value)).toBe(before(value));
  });

  it("finds repeats inside shared components as it does inline, reading each component once", () => {
    const component: JsonSchema = { type: "object", properties: { a: rule, b: rule } };
    const first = shareRepeatedSchemas(toolSchema({ x: { $ref: "#/$defs/thing" } }, { thing: component }));
    const second = shareRepeatedSchemas(toolSchema({ y: { $ref: "#/$defs/thing" } }, { thing: component }));
    for (const shared of [first, second]) {
      expect(shared.$defs).toEqual({
        thing: { type: "object", properties: { a: { $ref: "#/$defs/a" }, b: { $ref: "#/$defs/a" } } },
        a: rule,
      });
    }
    // The shared component itself is never changed.
    expect(component).toEqual({ type: "object", properties: { a: rule, b: rule } });
  });

  it.each([
    {
      title: "the same arguments over the same component: a copy of the first's result",
      second: (component: JsonSchema) => toolSchema({ x: { $ref: "#/$defs/thing" } }, { thing: component }),
    },
    {
      title: "another argument name: shared on its own",
      second: (component: JsonSchema) => toolSchema({ y: { $ref: "#/$defs/thing" } }, { thing: component }),
    },
    {
      title: "an equal component that is another object: shared on its own",
      second: (component: JsonSchema) =>
        toolSchema({ x: { $ref: "#/$defs/thing" } }, { thing: structuredClone(component) }),
    },
  ])("$title", ({ second }) => {
    // Remembered by shape (arguments' text, components by name and object): a schema of a
    // shape met before gets what sharing gave the first, as its own objects.
    const component: JsonSchema = { type: "object", properties: { a: rule, b: rule }, title: "once" };
    const first = shareRepeatedSchemas(toolSchema({ x: { $ref: "#/$defs/thing" } }, { thing: component }));
    const again = shareRepeatedSchemas(second(component));
    const expected = structuredClone(first);
    if ((again.properties as Record<string, unknown>).y !== undefined)
      expected.properties = { y: { $ref: "#/$defs/thing" } };
    expect(again).toEqual(expected);
    expect(again.$defs).not.toBe(first.$defs);
    // a change to one tool's schema (mcp-headers.ts adds arguments) stays with that tool
    (first.properties as Record<string, JsonSchema>).added = { type: "string" };
    expect(shareRepeatedSchemas(second(component)).properties).toEqual(expected.properties);
  });

  it("shares in later rounds as a walk of the whole copy does, reading components no round changed from what they held", () => {
    // Components without an object in two places have their finds reused in the copy; one
    // small object in two places (which no round writes into) makes every round walk the copy.
    // Either way the result is the same.
    const big: JsonSchema = {
      type: "object",
      description: "A larger object, found twice in one component.",
      properties: { rule: structuredClone(rule), note: { type: "string", description: "x".repeat(60) } },
    };
    const build = (leaf: () => JsonSchema) =>
      toolSchema(
        { x: { $ref: "#/$defs/one" }, y: { $ref: "#/$defs/two" } },
        {
          one: {
            type: "object",
            properties: { a: structuredClone(big), b: structuredClone(big), t: leaf() },
          },
          two: {
            type: "object",
            properties: { c: structuredClone(rule), d: structuredClone(rule), u: leaf() },
          },
        },
      );
    const apart = shareRepeatedSchemas(build(() => ({ type: "string" })));
    const one: JsonSchema = { type: "string" };
    const together = shareRepeatedSchemas(build(() => one));
    expect(together).toEqual(apart);
    // Two rounds: the larger object, then the rule it holds beside the second component's two.
    expect(Object.keys(apart.$defs as object)).toHaveLength(4);
    expect(JSON.stringify(apart).split("starts_with")).toHaveLength(2);
  });

  it("leaves a schema with nothing worth sharing as it is, the first time and the next", () => {
    const schema = () => toolSchema({ branch: { type: "object", properties: { parameters: rule } } });
    const first = schema();
    const second = schema();
    expect(shareRepeatedSchemas(first)).toBe(first);
    expect(shareRepeatedSchemas(second)).toBe(second);
  });

  it("leaves a schema over 64 KB as it is (each round would read all of it again)", () => {
    const filler = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`field${i}`, { type: "string", description: "x".repeat(160) }]),
    );
    const schema = toolSchema({
      branch: { type: "object", properties: { parameters: rule } },
      tag: { type: "object", properties: { parameters: rule } },
      big: { type: "object", properties: filler },
    });
    expect(JSON.stringify(schema).length).toBeGreaterThan(64 * 1024);
    expect(shareRepeatedSchemas(schema)).toBe(schema);
  });
});
