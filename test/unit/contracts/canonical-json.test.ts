/**
 * canonicalJson and canonicalSchemaJson write in one pass the text that the digests hashed
 * before as JSON.stringify of sorted copies; a digest that changed would read as a new
 * contract for every tool, so the texts must stay the same to the byte, odd objects included.
 */
import { describe, expect, it } from "vitest";
import { canonicalizeSchema } from "../../../src/contracts/canonical-schema.js";
import { contractDigestInput, describeContract } from "../../../src/contracts/contract.js";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { hashShort } from "../../../src/model/hash.js";
import type { JsonValue } from "../../../src/model/types.js";
import {
  type CanonicalOptions,
  canonicalJson,
  canonicalSchemaJson,
  sortKeys,
} from "../../../src/runtime/server/canonical.js";
import { digestToolContract } from "../../../src/runtime/server/contract.js";
import { fixture } from "../../helpers/bridge.js";

const sortedText = (value: JsonValue) => JSON.stringify(sortKeys(value));
const schemaText = (schema: JsonValue, options: CanonicalOptions) =>
  JSON.stringify(sortKeys(canonicalizeSchema(schema, options)));

const ODD_VALUES: [string, unknown][] = [
  ["array-index keys", { b: 1, 10: "ten", 2: "two", a: { 0: [], "01": 1, "-1": 2, 4294967295: 3 } }],
  ["__proto__ from JSON.parse", JSON.parse('{"z":1,"__proto__":{"x":1},"a":[{"__proto__":2}]}')],
  ["undefined members and items", { a: undefined, b: [undefined, 1], c: { d: undefined } }],
  ["numbers, -0 and NaN", { n: [-0, 1e21, 0.1, Number.NaN, Number.POSITIVE_INFINITY] }],
  ["code-point order", { é: 1, z: 2, Z: 3, "\u{1F600}": 4, "\uFFFF": 5, "": 6 }],
  ["escapes", { 'q"': 'a\\b\n"\u2028', "\u0000": "\u0007" }],
  ["scalars", ["text", 1, true, null]],
];

const ODD_SCHEMAS: [string, unknown][] = [
  ["boolean schemas", { properties: { a: true, b: false }, items: true }],
  [
    "set keywords",
    {
      type: ["string", "null", "string"],
      required: ["b", "a", "b"],
      enum: [{ y: 1, x: 2 }, { x: 2, y: 1 }, 3, "3", null, [2, 1]],
    },
  ],
  [
    "prose, and properties named like it",
    {
      description: "d",
      title: "t",
      examples: [1],
      example: 2,
      $comment: "c",
      properties: { description: { type: "string", description: "kept as a name" }, title: {} },
      items: { title: "x", default: { b: 1, a: 2 } },
    },
  ],
  [
    "keywords of the wrong shape",
    { properties: [1, 2], allOf: { a: {} }, items: [{ b: 1, a: 2 }], required: "a", enum: { b: 1, a: 2 } },
  ],
  [
    "nested subschemas",
    {
      $defs: { 2: { type: "object" }, b: { anyOf: [{ const: { b: 1, a: 2 } }, { type: "integer" }] } },
      patternProperties: { "^x": { not: { enum: [2, 1] } } },
      prefixItems: [{ title: "first", type: "string" }],
      "x-extension": { b: [{ d: 1, c: 2 }], a: 1 },
    },
  ],
  ["undefined subschemas", { items: undefined, allOf: [undefined, {}], properties: { a: undefined } }],
  ["a schema that is not an object", "text"],
];

describe("canonicalJson", () => {
  it.each(ODD_VALUES)("writes JSON.stringify(sortKeys(value)) for %s", (_name, value) => {
    expect(canonicalJson(value as JsonValue)).toBe(sortedText(value as JsonValue));
  });
});

describe("canonicalSchemaJson", () => {
  it.each([...ODD_SCHEMAS, ...ODD_VALUES])("writes the sorted canonical schema for %s", (_name, schema) => {
    for (const prose of [true, false])
      expect(canonicalSchemaJson(schema as JsonValue, { prose })).toBe(
        schemaText(schema as JsonValue, { prose }),
      );
  });
});

describe("canonicalSchemaJson of shared $defs entries", () => {
  it("writes a component shared by several schemas as each would alone, with and without prose", () => {
    const component = { type: "object", description: "a user", properties: { id: { type: "integer" } } };
    const first = { type: "object", properties: { a: { $ref: "#/$defs/user" } }, $defs: { user: component } };
    const second = {
      properties: { b: { $ref: "#/$defs/u" } },
      $defs: { u: component, other: { enum: [2, 1] } },
    };
    for (const prose of [true, false]) {
      for (const schema of [first, second, first]) {
        expect(canonicalSchemaJson(schema as JsonValue, { prose })).toBe(
          schemaText(schema as JsonValue, { prose }),
        );
      }
    }
  });
});

describe("digestToolContract on real tools", () => {
  it.each([
    ["wire 3.1, with output schemas", "wire/wire.openapi31.yaml", { outputSchemas: true }],
    ["readme.com (real)", "real/readme.openapi31.yaml", { outputSchemas: true }],
    ["Gitea (346 operations)", "codegen/gitea.openapi30.json", {}],
  ])("hashes the text of the sorted copies for %s", async (_name, path, options) => {
    const model = await buildModel(fixture(...path.split("/")), { cache: false, ...options });
    for (const tool of model.tools) {
      const before = `sha256:${hashShort(sortedText(contractDigestInput(describeContract(tool))), 16)}`;
      expect(digestToolContract(tool), tool.name).toBe(before);
      for (const schema of [tool.inputSchema, tool.outputSchema ?? {}])
        for (const prose of [true, false])
          expect(canonicalSchemaJson(schema, { prose })).toBe(schemaText(schema, { prose }));
    }
  });
});
