/**
 * OpenAPI Schema Object → JSON Schema 2020-12 (json-schema.ts), table by table: each case gives
 * a schema as a spec writes it (OAS 3.0 rules or 3.1) and the input schema a client is handed.
 */
import { describe, expect, it } from "vitest";
import { SchemaConverter } from "../../../src/generator/compile/json-schema.js";
import type { JsonSchema } from "../../../src/model/types.js";

type Case = [name: string, given: unknown, want: JsonSchema];

function convert(
  schema: unknown,
  options: { openapi30?: boolean; document?: unknown } = {},
): { schema: JsonSchema; defs: Record<string, JsonSchema> } {
  const converter = new SchemaConverter({
    document: options.document ?? {},
    openapi30: options.openapi30 ?? true,
    descriptionBudget: 60,
  });
  const refs = new Set<string>();
  const converted = converter.convert(schema, refs);
  return { schema: converted, defs: converter.collectDefs(refs) };
}

describe("OAS 3.0 keywords", () => {
  it.each<Case>([
    ["nullable type", { type: "string", nullable: true }, { type: ["string", "null"] }],
    [
      "nullable enum gains null",
      { type: "string", enum: ["a", "b"], nullable: true },
      { type: ["string", "null"], enum: ["a", "b", null] },
    ],
    [
      "nullable type list",
      { type: ["string", "integer"], nullable: true },
      { type: ["string", "integer", "null"] },
    ],
    [
      "nullable without a type is anyOf with null",
      { properties: { a: {} }, nullable: true },
      { anyOf: [{ properties: { a: {} } }, { type: "null" }] },
    ],
    ["nullable false changes nothing", { type: "string", nullable: false }, { type: "string" }],
    [
      "an allOf member left empty by a dropped keyword is left out (EC2's xml beside a $ref)",
      { type: "array", items: { allOf: [{ type: "string" }, { xml: { name: "Filter" } }] } },
      { type: "array", items: { allOf: [{ type: "string" }] } },
    ],
    ["an allOf of nothing but such members is none", { allOf: [{ xml: { name: "x" } }] }, {}],
    [
      "an empty anyOf member still means anything",
      { anyOf: [{ type: "string" }, { xml: { name: "x" } }] },
      { anyOf: [{ type: "string" }, {}] },
    ],
    [
      "boolean exclusiveMinimum takes the minimum's value",
      { type: "number", minimum: 1, exclusiveMinimum: true },
      { type: "number", exclusiveMinimum: 1 },
    ],
    [
      "boolean exclusiveMaximum takes the maximum's value",
      { type: "integer", maximum: 9, exclusiveMaximum: true },
      { type: "integer", exclusiveMaximum: 9 },
    ],
    [
      "exclusive false keeps the inclusive bound",
      { type: "integer", minimum: 0, exclusiveMinimum: false },
      { type: "integer", minimum: 0 },
    ],
    ["Swagger's type file is binary text", { type: "file" }, { type: "string", format: "binary" }],
  ])("%s", (_name, given, want) => {
    expect(convert(given).schema).toEqual(want);
  });

  it("a readOnly sibling of a $ref, and a $ref to a readOnly schema, are left out with their $defs", () => {
    const document = {
      components: {
        schemas: {
          User: { type: "object", properties: { gid: { type: "string" } } },
          Stamp: { type: "string", format: "date-time", readOnly: true },
        },
      },
    };
    const given = {
      type: "object",
      properties: {
        by: { $ref: "#/components/schemas/User", readOnly: true },
        stamp: { $ref: "#/components/schemas/Stamp" },
        note: { type: "string" },
      },
    };
    const { schema, defs } = convert(given, { document });
    expect(schema).toEqual({ type: "object", properties: { note: { type: "string" } } });
    expect(defs).toEqual({});
  });

  it("keeps a numeric exclusiveMinimum (3.1) and the minimum beside it", () => {
    expect(convert({ type: "number", minimum: 0, exclusiveMinimum: 5 }, { openapi30: false }).schema).toEqual(
      {
        type: "number",
        minimum: 0,
        exclusiveMinimum: 5,
      },
    );
  });
});

describe("what a validator or a model cannot use is left out", () => {
  it.each<Case>([
    [
      "OpenAPI-only keywords",
      {
        type: "object",
        discriminator: { propertyName: "kind" },
        xml: { name: "x" },
        externalDocs: {},
        $id: "x",
      },
      { type: "object" },
    ],
    ["extensions", { type: "string", "x-internal": true, "x-order": 3 }, { type: "string" }],
    ["component titles", { type: "string", title: "Name" }, { type: "string" }],
    ["a type JSON Schema does not name", { type: "date", format: "date" }, { format: "date" }],
    ["unknown names in a type list", { type: ["string", "int"] }, { type: ["string"] }],
    ["a long example", { type: "string", example: "x".repeat(200) }, { type: "string" }],
  ])("%s", (_name, given, want) => {
    expect(convert(given).schema).toEqual(want);
  });
});

describe("examples, descriptions and patterns", () => {
  it.each<Case>([
    ["example becomes examples", { type: "integer", example: 7 }, { type: "integer", examples: [7] }],
    ["the first short example of examples", { examples: ["x".repeat(100), "ok"] }, { examples: ["ok"] }],
    [
      "a description is cut to the budget at a word",
      { type: "string", description: `The lead sentence of this text. ${"Word ".repeat(40)}` },
      { type: "string", description: "The lead sentence of this text." },
    ],
    ["an empty description is left out", { type: "string", description: "  " }, { type: "string" }],
    [
      "a pattern valid with the u flag stays",
      { type: "string", pattern: "^[a-z]+$" },
      { type: "string", pattern: "^[a-z]+$" },
    ],
    [
      "a lax pattern is rewritten",
      { type: "string", pattern: "^a\\-b$" },
      { type: "string", pattern: "^a-b$" },
    ],
    [
      "a pattern with no strict form is left out",
      { type: "string", pattern: "[\\p{all}]" },
      { type: "string" },
    ],
    [
      "patternProperties keys are patterns too",
      { type: "object", patternProperties: { "^x\\-": { type: "string" } } },
      { type: "object", patternProperties: { "^x-": { type: "string" } } },
    ],
  ])("%s", (_name, given, want) => {
    expect(convert(given).schema).toEqual(want);
  });
});

describe("shapes", () => {
  it.each<Case>([
    [
      "draft-04 tuple items become prefixItems",
      { type: "array", items: [{ type: "string" }, { type: "integer" }] },
      { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] },
    ],
    [
      "an array's enum of item values moves to its items",
      { type: "array", items: { type: "string" }, enum: ["a", "b"] },
      { type: "array", items: { type: "string", enum: ["a", "b"] } },
    ],
    [
      "readOnly properties are left out and not required (they are never sent)",
      {
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
      },
      { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    ],
    [
      "required empties out when every required property is readOnly",
      { type: "object", required: ["id"], properties: { id: { readOnly: true } } },
      { type: "object", properties: {} },
    ],
    [
      "a closed object keeps its readOnly properties (a value carrying them stays valid), not required",
      {
        type: "object",
        additionalProperties: false,
        required: ["id"],
        properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
      },
      {
        type: "object",
        additionalProperties: false,
        properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
      },
    ],
    [
      "boolean schema true",
      { type: "object", additionalProperties: true },
      { type: "object", additionalProperties: true },
    ],
    [
      "boolean schema false",
      { type: "object", additionalProperties: false },
      { type: "object", additionalProperties: false },
    ],
    ["a non-object schema is any value", "nonsense", {}],
  ])("%s", (_name, given, want) => {
    expect(convert(given).schema).toEqual(want);
  });

  it("a property named __proto__ stays an own property", () => {
    const { schema } = convert(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'));
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.hasOwn(properties, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it("a oneOf whose branches share a discriminator becomes anyOf (branches may overlap)", () => {
    const document = {
      components: {
        schemas: {
          Pet: {
            type: "object",
            discriminator: { propertyName: "kind" },
            properties: { kind: { type: "string" } },
          },
          Cat: { allOf: [{ $ref: "#/components/schemas/Pet" }] },
          Dog: { allOf: [{ $ref: "#/components/schemas/Pet" }] },
        },
      },
    };
    const given = { oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }] };
    const { schema } = convert(given, { document });
    expect(schema).toEqual({ anyOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] });
    expect(convert({ oneOf: [{ type: "string" }, { type: "integer" }] }).schema).toEqual({
      oneOf: [{ type: "string" }, { type: "integer" }],
    });
  });

  it("stops 200 levels down (any value there) instead of overflowing the stack", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 300; i++) deep = { type: "object", properties: { a: deep } };
    let node: unknown = convert(deep).schema;
    let levels = 0;
    while ((node as { properties?: { a?: unknown } }).properties?.a !== undefined) {
      node = (node as { properties: { a: unknown } }).properties.a;
      levels++;
    }
    expect(levels).toBe(201);
    expect(node).toEqual({});
  });
});

describe("references stay references, as local $defs", () => {
  const document = {
    components: {
      schemas: {
        Pet: { type: "object", properties: { owner: { $ref: "#/components/schemas/Owner" } } },
        Owner: {
          type: "object",
          properties: { pets: { type: "array", items: { $ref: "#/components/schemas/Pet" } } },
        },
        "odd name/with slash": { type: "object" },
        Unused: { type: "integer" },
      },
      parameters: {
        Limit: {
          name: "limit",
          in: "query",
          schema: { type: "object", properties: { n: { type: "integer" } } },
        },
      },
    },
  };

  it("a component becomes #/$defs/<name> and its definitions travel with the tool, sorted", () => {
    const { schema, defs } = convert({ $ref: "#/components/schemas/Pet" }, { document });
    expect(schema).toEqual({ $ref: "#/$defs/Pet" });
    expect(Object.keys(defs)).toEqual(["Owner", "Pet"]);
    expect(defs.Owner).toEqual({
      type: "object",
      properties: { pets: { type: "array", items: { $ref: "#/$defs/Pet" } } },
    });
  });

  it("keeps a reference's useful siblings", () => {
    const given = {
      $ref: "#/components/schemas/Owner",
      description: "Who owns it.",
      readOnly: true,
      default: null,
    };
    expect(convert(given, { document }).schema).toEqual({
      $ref: "#/$defs/Owner",
      default: null,
      readOnly: true,
      description: "Who owns it.",
    });
  });

  it("names a definition after its component, characters outside [A-Za-z0-9_.-] as _", () => {
    const { schema, defs } = convert({ $ref: "#/components/schemas/odd%20name~1with%20slash" }, { document });
    expect(schema).toEqual({ $ref: "#/$defs/odd_name_with_slash" });
    expect(Object.keys(defs)).toEqual(["odd_name_with_slash"]);
  });

  it("a schema outside components/schemas is named after its pointer", () => {
    const { schema } = convert({ $ref: "#/components/parameters/Limit/schema" }, { document });
    expect(schema).toEqual({ $ref: "#/$defs/components_parameters_Limit_schema" });
  });

  it("converts each component once for every tool of a document", () => {
    const converter = new SchemaConverter({ document, openapi30: true });
    const first = new Set<string>();
    const second = new Set<string>();
    converter.convert({ $ref: "#/components/schemas/Pet" }, first);
    converter.convert({ $ref: "#/components/schemas/Owner" }, second);
    expect(converter.collectDefs(first).Pet).toBe(converter.collectDefs(second).Pet);
  });

  it("an external ref is left as it is and carries no definition", () => {
    expect(convert({ $ref: "other.yaml#/Pet" }, { document })).toEqual({
      schema: { $ref: "other.yaml#/Pet" },
      defs: {},
    });
  });

  it("nullable on a reference is kept as anyOf with null", () => {
    expect(convert({ $ref: "#/components/schemas/Owner", nullable: true }, { document }).schema).toEqual({
      anyOf: [{ $ref: "#/$defs/Owner" }, { type: "null" }],
    });
  });
});

describe("a plain value's schema is written out where it is referred to (scalar-refs.ts)", () => {
  const longEnum = Array.from({ length: 80 }, (_, i) => `code-${i}`);
  const document = {
    components: {
      schemas: {
        Label: { type: "string", description: "What the thing is called.", maxLength: 32 },
        Size: { type: "integer", enum: [1, 3], default: 1 },
        Currency: { type: "string", enum: longEnum },
        Kind: { enum: ["a", "b"] },
        Ips: { type: "array", items: { type: "string", pattern: "^[0-9./]+$" } },
        Owners: { type: "array", items: { $ref: "#/components/schemas/Owner" } },
        Owner: { type: "object", properties: { name: { type: "string" } } },
        // Linode's pattern: one schema's property refers to another's.
        Db: { type: "object", properties: { label: { $ref: "#/components/schemas/Label" } } },
        MySql: {
          type: "object",
          properties: { label: { $ref: "#/components/schemas/Db/properties/label", "x-cli-display": 2 } },
        },
        Alias: { $ref: "#/components/schemas/Owner" },
        Loop: { $ref: "#/components/schemas/Loop" },
      },
    },
  };
  const cases: [name: string, given: unknown, want: JsonSchema, defs: string[]][] = [
    [
      "a string",
      { $ref: "#/components/schemas/Label" },
      { type: "string", description: "What the thing is called.", maxLength: 32 },
      [],
    ],
    [
      "an enum with its default",
      { $ref: "#/components/schemas/Size" },
      { type: "integer", enum: [1, 3], default: 1 },
      [],
    ],
    ["values without a type", { $ref: "#/components/schemas/Kind" }, { enum: ["a", "b"] }, []],
    [
      "a list of plain values",
      { $ref: "#/components/schemas/Ips" },
      { type: "array", items: { type: "string", pattern: "^[0-9./]+$" } },
      [],
    ],
    [
      "a list of objects stays a definition",
      { $ref: "#/components/schemas/Owners" },
      { $ref: "#/$defs/Owners" },
      ["Owner", "Owners"],
    ],
    [
      "the reference's description wins, its nullable applies",
      { $ref: "#/components/schemas/Label", description: "The database's label.", nullable: true },
      { type: ["string", "null"], description: "The database's label.", maxLength: 32 },
      [],
    ],
    [
      "through references that only name another",
      { $ref: "#/components/schemas/MySql/properties/label" },
      { type: "string", description: "What the thing is called.", maxLength: 32 },
      [],
    ],
    [
      "a long enum stays a definition",
      { $ref: "#/components/schemas/Currency" },
      { $ref: "#/$defs/Currency" },
      ["Currency"],
    ],
    [
      "an object stays a definition",
      { $ref: "#/components/schemas/Owner" },
      { $ref: "#/$defs/Owner" },
      ["Owner"],
    ],
    [
      "a reference naming an object is that object's one definition",
      { $ref: "#/components/schemas/Alias" },
      { $ref: "#/$defs/Owner" },
      ["Owner"],
    ],
    [
      "a reference to itself stays as it is",
      { $ref: "#/components/schemas/Loop" },
      { $ref: "#/$defs/Loop" },
      ["Loop"],
    ],
  ];
  it.each(cases)("%s", (_name, given, want, defs) => {
    const converted = convert(given, { document });
    expect(converted.schema).toEqual(want);
    expect(Object.keys(converted.defs)).toEqual(defs);
  });

  it("measures a plain value's schema as converted: long prose cut to the budget is no reason to keep a reference", () => {
    const prose = "An image to deploy the disk from, as listed by the images endpoint. ".repeat(12);
    const long = {
      components: { schemas: { Image: { type: "string", description: prose, example: "linode/debian9" } } },
    };
    const { schema, defs } = convert({ $ref: "#/components/schemas/Image" }, { document: long });
    expect(schema.type).toBe("string");
    expect(schema.examples).toEqual(["linode/debian9"]);
    expect(String(schema.description).length).toBeLessThan(prose.length);
    expect(defs).toEqual({});
  });

  it("gives each reference a copy of its own", () => {
    const converter = new SchemaConverter({ document, openapi30: true });
    const first = converter.convert({ $ref: "#/components/schemas/Label" }, new Set());
    first.maxLength = 1;
    expect(converter.convert({ $ref: "#/components/schemas/Label" }, new Set()).maxLength).toBe(32);
  });
});
