/**
 * Body arguments as the API means them: a required body property with a default or one allowed
 * value is filled by the bridge (optional argument, sent when left out), and the properties a
 * body schema allows beyond those it lists are one `extraProperties` argument sent in the body.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { ToolNode } from "../../../src/model/types.js";
import { ArgumentError } from "../../../src/runtime/request/argument-error.js";
import { encodeBody } from "../../../src/runtime/request/body.js";

function planBody(
  schema: unknown,
  extra: Record<string, unknown> = {},
  mediaType = "application/json",
  method = "post",
): ToolNode {
  const loaded = {
    source: "spec.json",
    specVersion: "3.1",
    diagnostics: [],
    document: {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: {
        "/groups": {
          [method]: {
            operationId: "createGroup",
            requestBody: { content: { [mediaType]: { schema } }, ...extra },
            responses: { "201": { description: "Created" } },
          },
        },
      },
      components: {
        schemas: {
          entity: {
            type: "object",
            required: ["@odata.type"],
            properties: { id: { type: "string", readOnly: true }, "@odata.type": { type: "string" } },
          },
          pet: { type: "object", properties: { name: { type: "string" } } },
          // Bitbucket's base: a discriminator without a mapping, `type` required.
          object: {
            type: "object",
            required: ["type"],
            discriminator: { propertyName: "type" },
            properties: { type: { type: "string" } },
          },
          pullrequest: {
            allOf: [{ $ref: "#/components/schemas/object" }, { properties: { title: { type: "string" } } }],
          },
          animal: {
            type: "object",
            required: ["kind"],
            // Two entries name each of Dog and Wolf: the first one's key is the value.
            discriminator: {
              propertyName: "kind",
              mapping: {
                doggo: "#/components/schemas/Dog",
                canine: "Dog",
                wolfie: "Wolf",
                lupus: "#/components/schemas/Wolf",
              },
            },
            properties: { kind: { type: "string" } },
          },
          Dog: {
            allOf: [{ $ref: "#/components/schemas/animal" }, { properties: { bark: { type: "string" } } }],
          },
          Wolf: {
            allOf: [{ $ref: "#/components/schemas/animal" }, { properties: { howl: { type: "string" } } }],
          },
          Cat: {
            allOf: [{ $ref: "#/components/schemas/animal" }, { properties: { meow: { type: "string" } } }],
          },
          NarrowRef: { allOf: [{ $ref: "#/components/schemas/narrowBase" }] },
          narrowBase: {
            type: "object",
            required: ["kind"],
            discriminator: { propertyName: "kind" },
            properties: { kind: { type: "string", enum: ["a", "b"] } },
          },
          recipient: {
            type: "object",
            required: ["@odata.type", "address"],
            properties: { "@odata.type": { type: "string" }, address: { type: "string" } },
          },
        },
      },
    },
  } as unknown as LoadedSpec;
  return planModel(loaded).tools[0]!;
}

/** Graph's shape: the base type requires `@odata.type`, the derived one gives it a default. */
const GRAPH_GROUP = {
  allOf: [
    { $ref: "#/components/schemas/entity" },
    {
      type: "object",
      required: ["@odata.type"],
      properties: {
        displayName: { type: "string" },
        "@odata.type": { type: "string", default: "#microsoft.graph.group" },
      },
    },
  ],
};

function sentJson(tool: ToolNode, args: Record<string, unknown>): unknown {
  const encoded = encodeBody(tool.http.body!, args);
  return encoded === undefined ? undefined : JSON.parse(encoded.payload as string);
}

function accepts(tool: ToolNode, args: Record<string, unknown>): boolean {
  return new Ajv2020({ strict: false }).validate(tool.inputSchema, args);
}

describe("required body properties with a default or one allowed value", () => {
  it.each([
    { label: "default (Graph @odata.type)", schema: GRAPH_GROUP, body: { required: true } },
    {
      label: "enum of one",
      schema: {
        type: "object",
        required: ["@odata.type", "displayName"],
        properties: { displayName: { type: "string" }, "@odata.type": { enum: ["#microsoft.graph.group"] } },
      },
      body: {},
    },
    {
      label: "const",
      schema: {
        type: "object",
        required: ["@odata.type"],
        properties: { displayName: { type: "string" }, "@odata.type": { const: "#microsoft.graph.group" } },
      },
      body: {},
    },
  ])("$label: optional argument, sent when left out", ({ schema, body }) => {
    const tool = planBody(schema, body);
    const required = (tool.inputSchema.required as string[] | undefined) ?? [];
    expect(required).not.toContain("@odata.type");
    expect(accepts(tool, { displayName: "Team" })).toBe(true);
    expect(sentJson(tool, { displayName: "Team" })).toEqual({
      displayName: "Team",
      "@odata.type": "#microsoft.graph.group",
    });
    // The model's own value wins.
    expect(sentJson(tool, { displayName: "Team", "@odata.type": "#x" })).toMatchObject({
      "@odata.type": "#x",
    });
  });

  it("OData's @odata.type, required with no value to fill, is not asked for in nested objects", () => {
    const tool = planBody({
      type: "object",
      required: ["to"],
      properties: {
        to: { type: "array", items: { $ref: "#/components/schemas/recipient" } },
        owner: { $ref: "#/components/schemas/entity" },
      },
    });
    expect(accepts(tool, { to: [{ address: "a@b.example" }], owner: {} })).toBe(true);
    // The model may still name a derived type; the spec's other required properties stay required.
    expect(accepts(tool, { to: [{ address: "a@b.example", "@odata.type": "#x.y" }] })).toBe(true);
    expect(accepts(tool, { to: [{}] })).toBe(false);
    expect(sentJson(tool, { to: [{ address: "a@b.example" }] })).toEqual({
      to: [{ address: "a@b.example" }],
    });
  });

  it("a required body with only filled properties is sent with them, not as {}", () => {
    const tool = planBody(GRAPH_GROUP, { required: true });
    expect(accepts(tool, {})).toBe(true);
    expect(sentJson(tool, {})).toEqual({ "@odata.type": "#microsoft.graph.group" });
  });

  it("a body the spec leaves unsaid is sent when a filled property made it optional", () => {
    const tool = planBody(GRAPH_GROUP);
    expect(tool.http.body?.required).toBe(true);
    expect(sentJson(tool, {})).toEqual({ "@odata.type": "#microsoft.graph.group" });
  });

  it("an optional body (required: false) left out stays out; given, it carries the fill", () => {
    const tool = planBody(GRAPH_GROUP, { required: false });
    expect(tool.inputSchema.dependentRequired).toBeUndefined();
    expect(sentJson(tool, {})).toBeUndefined();
    expect(sentJson(tool, { displayName: "T" })).toEqual({
      displayName: "T",
      "@odata.type": "#microsoft.graph.group",
    });
  });

  it("an optional property with a default is not filled: the API applies its own", () => {
    const tool = planBody({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, visibility: { type: "string", default: "private" } },
    });
    expect(tool.inputSchema.required).toEqual(["name"]);
    expect(sentJson(tool, { name: "n" })).toEqual({ name: "n" });
  });

  it("form bodies are filled too", () => {
    const tool = planBody(
      {
        type: "object",
        required: ["grant_type", "code"],
        properties: { grant_type: { const: "code" }, code: { type: "string" } },
      },
      {},
      "application/x-www-form-urlencoded",
    );
    expect(tool.inputSchema.required).toEqual(["code"]);
    expect(encodeBody(tool.http.body!, { code: "abc" })?.payload).toBe("grant_type=code&code=abc");
  });
});

describe("the discriminator of a body that is one named subtype", () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  it.each([
    {
      label: "no mapping: the component's name (Bitbucket)",
      schema: ref("pullrequest"),
      property: "type",
      value: "pullrequest",
    },
    { label: "an explicit mapping's key", schema: ref("Dog"), property: "kind", value: "doggo" },
    {
      label: "the first key of a bare name's mapping",
      schema: ref("Wolf"),
      property: "kind",
      value: "wolfie",
    },
    { label: "a mapping without this one: its name", schema: ref("Cat"), property: "kind", value: "Cat" },
  ])("$label", ({ schema, property, value }) => {
    const tool = planBody(schema, { required: true });
    const required = (tool.inputSchema.required as string[] | undefined) ?? [];
    expect(required).not.toContain(property);
    expect(sentJson(tool, {})).toEqual({ [property]: value });
    expect(sentJson(tool, { [property]: "other" })).toEqual({ [property]: "other" });
  });

  it.each([
    { label: "the base itself names no one type", schema: { $ref: "#/components/schemas/object" } },
    {
      label: "a value the property's enum does not allow",
      schema: { $ref: "#/components/schemas/NarrowRef" },
    },
    { label: "an inline body names no type", schema: { allOf: [{ $ref: "#/components/schemas/object" }] } },
  ])("not filled: $label", ({ schema }) => {
    const tool = planBody(schema, { required: true });
    const required = (tool.inputSchema.required as string[] | undefined) ?? [];
    expect(required.length).toBeGreaterThan(0);
  });
});

describe("properties beyond those the body lists", () => {
  it.each([
    { label: "additionalProperties: true", additional: true, value: 7 },
    { label: "additionalProperties: a schema", additional: { type: "string" }, value: "x" },
    { label: "in an allOf member (Graph)", additional: undefined, value: "x", member: { type: "string" } },
  ])("$label: passed as extraProperties and sent in the body", ({ additional, value, member }) => {
    const schema = member
      ? { allOf: [GRAPH_GROUP, { type: "object", additionalProperties: member }] }
      : { type: "object", properties: { name: { type: "string" } }, additionalProperties: additional };
    const tool = planBody(schema);
    const properties = tool.inputSchema.properties as Record<string, unknown>;
    expect(properties.extraProperties).toBeDefined();
    expect(tool.http.body?.extraArgument).toBe("extraProperties");
    const args = { extraProperties: { extension_abc_skills: value } };
    expect(accepts(tool, args)).toBe(true);
    expect(sentJson(tool, args)).toMatchObject({ extension_abc_skills: value });
  });

  it("the additionalProperties schema checks the values", () => {
    const tool = planBody({
      type: "object",
      properties: { name: { type: "string" } },
      additionalProperties: { type: "string" },
    });
    expect(accepts(tool, { extraProperties: { a: 1 } })).toBe(false);
    // An unknown top-level argument is still refused.
    expect(accepts(tool, { nmae: "x" })).toBe(false);
  });

  it("a listed property given as extra is refused, naming its own argument", () => {
    const tool = planBody({
      type: "object",
      properties: { name: { type: "string" } },
      additionalProperties: true,
    });
    expect(() => encodeBody(tool.http.body!, { extraProperties: { name: "x" } })).toThrow(ArgumentError);
    expect(() => encodeBody(tool.http.body!, { extraProperties: { name: "x" } })).toThrow(/argument `name`/);
  });

  it("additionalProperties false (also in an allOf member): no extraProperties argument", () => {
    for (const schema of [
      { type: "object", properties: { name: { type: "string" } }, additionalProperties: false },
      { allOf: [GRAPH_GROUP, { type: "object", additionalProperties: false }] },
    ]) {
      const tool = planBody(schema);
      expect(Object.keys(tool.inputSchema.properties as object)).not.toContain("extraProperties");
      expect(tool.http.body?.extraArgument).toBeUndefined();
    }
  });

  it("additionalProperties unsaid on a shared schema (a resource's own): a bare extraProperties object", () => {
    const tool = planBody({ $ref: "#/components/schemas/pet" });
    expect((tool.inputSchema.properties as Record<string, unknown>).extraProperties).toEqual({
      type: "object",
    });
    expect(sentJson(tool, { name: "n", extraProperties: { x: [1] } })).toEqual({ name: "n", x: [1] });
  });

  it("additionalProperties unsaid on a schema written for this body: no extraProperties argument", () => {
    for (const schema of [
      { type: "object", properties: { name: { type: "string" } } },
      // inline, though built on a shared base: what this operation reads is listed here
      GRAPH_GROUP,
    ]) {
      const tool = planBody(schema);
      expect(Object.keys(tool.inputSchema.properties as object)).not.toContain("extraProperties");
      expect(tool.http.body?.extraArgument).toBeUndefined();
      expect(accepts(tool, { extraProperties: { x: 1 } })).toBe(false);
    }
  });

  it("a body property named extraProperties keeps its name; the extras get a suffix", () => {
    const tool = planBody({
      type: "object",
      properties: { extraProperties: { type: "string" } },
      additionalProperties: true,
    });
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual([
      "extraProperties",
      "extraProperties__body",
    ]);
    expect(sentJson(tool, { extraProperties: "a", extraProperties__body: { b: 1 } })).toEqual({
      extraProperties: "a",
      b: 1,
    });
  });
});

describe("a body that can only be empty", () => {
  const CLOSED_EMPTY = { type: "object", properties: {}, additionalProperties: false };
  it.each([
    {
      name: "closed, no properties, optional (Stripe's GETs)",
      schema: CLOSED_EMPTY,
      extra: {},
      bound: false,
    },
    { name: "the same, body unsaid", schema: CLOSED_EMPTY, extra: { required: undefined }, bound: false },
    {
      name: "the same, required: the API wants a body, {} is sent",
      schema: CLOSED_EMPTY,
      extra: { required: true },
      bound: true,
    },
    { name: "open, no properties", schema: { type: "object" }, extra: {}, bound: true },
    {
      name: "open, no properties, optional, on a GET (Notion's converted GETs)",
      schema: { type: "object", properties: {} },
      extra: {},
      method: "get",
      bound: false,
    },
    {
      name: "the same, required",
      schema: { type: "object", properties: {} },
      extra: { required: true },
      method: "get",
      bound: true,
    },
    {
      name: "open, no properties, optional, on a DELETE",
      schema: { type: "object" },
      extra: {},
      method: "delete",
      bound: true,
    },
  ])("$name", ({ schema, extra, bound, method }) => {
    for (const mediaType of ["application/json", "application/x-www-form-urlencoded"]) {
      const tool = planBody(schema, extra, mediaType, method);
      expect(tool.http.body !== undefined, mediaType).toBe(bound);
      expect(Object.keys(tool.inputSchema.properties ?? {}).includes("body"), mediaType).toBe(bound);
    }
  });
});
