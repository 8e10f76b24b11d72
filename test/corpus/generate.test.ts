/**
 * The corpus harness's argument generator: every value it makes must be valid for the schema it
 * was made from (checked with Ajv 2020 and ajv-formats, as the bridge and Prism check).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { generateArguments, generateValue, samplePattern } from "./generate.js";

const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
ajvFormats.default(ajv);

const accepts = (schema: Record<string, unknown>, value: unknown) => ajv.validate(schema, value) === true;

const cases: { given: string; schema: Record<string, unknown> }[] = [
  { given: "a string with a format", schema: { type: "string", format: "date-time" } },
  {
    given: "every common format",
    schema: {
      type: "array",
      prefixItems: ["date", "time", "email", "uri", "uuid", "ipv4", "ipv6", "hostname", "byte"].map(
        (format) => ({ type: "string", format }),
      ),
      minItems: 9,
    },
  },
  { given: "length bounds", schema: { type: "string", minLength: 12, maxLength: 14 } },
  { given: "a pattern", schema: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } },
  {
    given: "a pattern with groups and alternation",
    schema: { type: "string", pattern: "^(?:v[0-9]+|latest)(\\.[a-z]+)?$" },
  },
  {
    given: "a pattern and a minimum length",
    schema: { type: "string", pattern: "^[a-z0-9]+$", minLength: 20 },
  },
  { given: "an enum", schema: { enum: ["b", "c"] } },
  { given: "a nullable enum", schema: { type: ["string", "null"], enum: [null, "x"] } },
  { given: "integer bounds", schema: { type: "integer", minimum: 10, maximum: 20, multipleOf: 3 } },
  { given: "exclusive bounds", schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 } },
  { given: "a negative maximum", schema: { type: "integer", maximum: -5 } },
  {
    given: "unique items of an enum",
    schema: { type: "array", items: { enum: ["a", "b", "c"] }, minItems: 3, uniqueItems: true },
  },
  {
    given: "unique strings",
    schema: { type: "array", items: { type: "string" }, minItems: 3, uniqueItems: true },
  },
  {
    given: "a required-only object",
    schema: {
      type: "object",
      properties: { a: { type: "integer" } },
      required: ["a"],
      additionalProperties: false,
    },
  },
  {
    given: "minProperties on a map",
    schema: { type: "object", additionalProperties: { type: "integer" }, minProperties: 2 },
  },
  {
    given: "allOf with $refs",
    schema: {
      $defs: {
        Base: { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] },
      },
      allOf: [
        { $ref: "#/$defs/Base" },
        { type: "object", properties: { n: { type: "integer", minimum: 5 } }, required: ["n"] },
      ],
    },
  },
  {
    given: "oneOf that overlaps (a discriminator)",
    schema: {
      oneOf: [
        {
          type: "object",
          properties: { kind: { const: "cat" }, hunts: { type: "boolean" } },
          required: ["kind"],
        },
        {
          type: "object",
          properties: { kind: { const: "dog" }, barks: { type: "boolean" } },
          required: ["kind"],
        },
      ],
    },
  },
  {
    given: "oneOf whose first branch also matches the second",
    schema: {
      oneOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "integer" } }, required: ["b"] },
      ],
    },
  },
  {
    given: "a recursive schema",
    schema: {
      $defs: {
        Node: {
          type: "object",
          properties: {
            name: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
          required: ["name"],
        },
      },
      $ref: "#/$defs/Node",
    },
  },
  { given: "a base64 file", schema: { type: "string", contentEncoding: "base64" } },
];

describe("generateValue", () => {
  it.each(cases)("makes a valid value for $given", ({ schema }) => {
    const value = generateValue(schema, schema, { accepts });
    expect(ajv.validate(schema, value), JSON.stringify({ value, errors: ajv.errors })).toBe(true);
  });

  it("is deterministic", () => {
    const schema = cases.at(-2)!.schema;
    expect(JSON.stringify(generateValue(schema, schema))).toBe(JSON.stringify(generateValue(schema, schema)));
  });
});

describe("generateArguments", () => {
  it("gives every top-level argument, required or not, and skips readOnly properties", () => {
    const schema = {
      type: "object",
      properties: {
        id: { type: "integer" },
        q: { type: "string" },
        body: {
          type: "object",
          properties: { name: { type: "string" }, created: { type: "string", readOnly: true } },
        },
      },
      required: ["id"],
      additionalProperties: false,
    };
    expect(generateArguments(schema)).toEqual({ id: 1, q: "string", body: { name: "string" } });
  });

  it("the minimal call (optionalDepth -1) gives only required properties, at every depth", () => {
    const schema = {
      type: "object",
      properties: {
        id: { type: "integer" },
        q: { type: "string" },
        owner: {
          type: "object",
          properties: { login: { type: "string" }, bio: { type: "string" } },
          required: ["login"],
        },
      },
      required: ["id", "owner"],
      additionalProperties: false,
    };
    const args = generateArguments(schema, { optionalDepth: -1 });
    expect(args).toEqual({ id: 1, owner: { login: "string" } });
    expect(ajv.validate(schema, args)).toBe(true);
    expect(
      generateArguments({ type: "object", properties: { q: { type: "string" } } }, { optionalDepth: -1 }),
    ).toEqual({});
  });
});

describe("samplePattern", () => {
  it.each([
    ["^[a-z]{2,4}$", /^[a-z]{2,4}$/],
    ["^\\d+(\\.\\d+)?$", /^\d+(\.\d+)?$/],
    ["^[^\\s]+@[^\\s]+$", /^[^\s]+@[^\s]+$/],
    ["^(GET|POST)$", /^(GET|POST)$/],
  ])("samples %s", (pattern, regex) => {
    expect(samplePattern(pattern)).toMatch(regex);
  });

  it("gives up on lookarounds", () => {
    expect(samplePattern("^(?=a)b$")).toBeUndefined();
  });
});
