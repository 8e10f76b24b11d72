import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { BridgeModel, ToolNode } from "../../../src/model/types.js";

function plan(document: Record<string, unknown>, specVersion: "3.0" | "3.1" = "3.0"): BridgeModel {
  const loaded: LoadedSpec = {
    document: {
      openapi: specVersion === "3.1" ? "3.1.0" : "3.0.3",
      info: { title: "T", version: "1" },
      ...document,
    },
    specVersion,
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded, { outputSchemas: true });
}

function onlyTool(document: Record<string, unknown>, specVersion: "3.0" | "3.1" = "3.0"): ToolNode {
  const model = plan(document, specVersion);
  expect(model.tools).toHaveLength(1);
  return model.tools[0]!;
}

const petSchema = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string" },
    tag: { type: "string", nullable: true },
    id: { type: "integer", readOnly: true },
  },
};

describe("argument contract", () => {
  it("puts parameters at the top level and merges an object body's properties", () => {
    const tool = onlyTool({
      paths: {
        "/pets/{id}": {
          put: {
            operationId: "updatePet",
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "integer" } },
              { name: "dryRun", in: "query", schema: { type: "boolean" } },
              { name: "X-Trace", in: "header", schema: { type: "string" } },
              { name: "session", in: "cookie", required: true, schema: { type: "string" } },
            ],
            requestBody: { required: true, content: { "application/json": { schema: petSchema } } },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    // the body's readOnly `id` is never sent, so it does not clash with the path's `id`
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual([
      "id",
      "dryRun",
      "X-Trace",
      "session",
      "name",
      "tag",
    ]);
    expect(tool.inputSchema.required).toEqual(["id", "session", "name"]);
    expect(tool.inputSchema.additionalProperties).toBe(false);
    expect(tool.http.body).toMatchObject({ mode: "properties", kind: "json", mediaType: "application/json" });
    expect((tool.inputSchema.properties as Record<string, unknown>).tag).toEqual({
      type: ["string", "null"],
    });
  });

  it.each([
    {
      title: "body property clashing with a path and a query parameter",
      params: [
        { name: "id", in: "path", required: true, schema: { type: "string" } },
        { name: "name", in: "query", schema: { type: "string" } },
      ],
      body: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
      want: ["id", "name", "id__body", "name__body"],
    },
    {
      title: "query and header with the same name",
      params: [
        { name: "v", in: "query", schema: { type: "string" } },
        { name: "v", in: "header", schema: { type: "string" } },
        { name: "v", in: "cookie", schema: { type: "string" } },
      ],
      body: undefined,
      want: ["id", "v", "v__header", "v__cookie"],
    },
    {
      title: "a parameter named body and a non-object body",
      params: [{ name: "body", in: "query", schema: { type: "string" } }],
      body: { type: "array", items: { type: "string" } },
      want: ["id", "body", "body__body"],
    },
  ])("$title", ({ params, body, want }) => {
    const tool = onlyTool({
      paths: {
        "/x/{id}": {
          post: {
            parameters: params,
            ...(body ? { requestBody: { content: { "application/json": { schema: body } } } } : {}),
            responses: { "204": { description: "done" } },
          },
        },
      },
    });
    expect(Object.keys(tool.inputSchema.properties as object).sort()).toEqual([...want].sort());
    const bindings = tool.http.parameters.map((p) => `${p.in}:${p.name}→${p.argument}`);
    for (const binding of bindings) expect(want).toContain(binding.split("→")[1]);
  });

  it.each([
    { title: "array", schema: { type: "array", items: { type: "integer" } } },
    { title: "primitive", schema: { type: "string" } },
    {
      title: "oneOf",
      schema: { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }] },
    },
    { title: "free-form map", schema: { type: "object", additionalProperties: { type: "string" } } },
  ])("a $title body is one argument named body", ({ schema }) => {
    const tool = onlyTool({
      paths: {
        "/x": {
          post: {
            requestBody: { required: true, content: { "application/json": { schema } } },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(["body"]);
    expect(tool.inputSchema.required).toEqual(["body"]);
    expect(tool.http.body).toMatchObject({ mode: "value", argument: "body" });
    expect(tool.inputSchema.oneOf).toBeUndefined();
  });

  // The rule for body properties (README, "The tool contract"): required by the body's schema
  // means a required argument unless the spec says `required: false` for the body; then they
  // are required together, as soon as any body property is given (dependentRequired).
  it.each([
    {
      title: "required body: its required fields are required arguments",
      requestBody: { required: true },
      required: ["name"],
      dependentRequired: undefined,
    },
    {
      title: "body required unsaid (the OpenAPI default most specs leave): the same",
      requestBody: {},
      required: ["name"],
      dependentRequired: undefined,
    },
    {
      title: "body explicitly optional: required only with the body",
      requestBody: { required: false },
      required: undefined,
      dependentRequired: { tag: ["name"] },
    },
  ])("$title", ({ requestBody, required, dependentRequired }) => {
    const tool = onlyTool({
      paths: {
        "/x": {
          post: {
            requestBody: { ...requestBody, content: { "application/json": { schema: petSchema } } },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(tool.inputSchema.required).toEqual(required);
    expect(tool.inputSchema.dependentRequired).toEqual(dependentRequired);
    const name = (tool.inputSchema.properties as Record<string, { description?: string }>).name!;
    expect(name.description).toBe(dependentRequired ? "Required when any body field is given." : undefined);
  });

  // null, [] and {} are RFC 6570 "undefined": a required parameter given one would be left out
  // (query, header, cookie) or refused (path), so the schema of a required one rules them out.
  it.each([
    {
      title: "required path object",
      parameter: {
        name: "o",
        in: "path",
        required: true,
        schema: { type: "object", properties: { a: { type: "string" } } },
      },
      want: { type: "object", properties: { a: { type: "string" } }, minProperties: 1 },
    },
    {
      title: "required query array",
      parameter: {
        name: "ids",
        in: "query",
        required: true,
        schema: { type: "array", items: { type: "integer" } },
      },
      want: { type: "array", items: { type: "integer" }, minItems: 1 },
    },
    {
      title: "required header array that already needs two",
      parameter: {
        name: "X-Ids",
        in: "header",
        required: true,
        schema: { type: "array", minItems: 2, items: { type: "string" } },
      },
      want: { type: "array", minItems: 2, items: { type: "string" } },
    },
    {
      title: "required nullable string",
      parameter: {
        name: "q",
        in: "query",
        required: true,
        schema: { type: "string", nullable: true, enum: ["a", "b", null] },
      },
      want: { type: "string", enum: ["a", "b"] },
    },
    {
      title: "optional query array: [] means leave it out, as the schema allows",
      parameter: { name: "ids", in: "query", schema: { type: "array", items: { type: "integer" } } },
      want: { type: "array", items: { type: "integer" } },
    },
  ])("a $title parameter", ({ parameter, want }) => {
    const path = parameter.in === "path" ? "/x/{o}" : "/x";
    const tool = onlyTool({
      paths: { [path]: { get: { parameters: [parameter], responses: { "200": { description: "ok" } } } } },
    });
    expect((tool.inputSchema.properties as Record<string, unknown>)[parameter.name]).toEqual(want);
  });

  it("an optional body's required fields depend on each other under their argument names", () => {
    const tool = onlyTool({
      paths: {
        "/x/{name}": {
          patch: {
            parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
            requestBody: {
              required: false,
              content: {
                "application/x-www-form-urlencoded": {
                  schema: {
                    type: "object",
                    required: ["name", "To"],
                    properties: {
                      name: { type: "string", description: "The new name." },
                      To: { type: "string" },
                      Body: { type: "string" },
                    },
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(tool.inputSchema.required).toEqual(["name"]);
    expect(tool.inputSchema.dependentRequired).toEqual({
      name__body: ["To"],
      To: ["name__body"],
      Body: ["name__body", "To"],
    });
    const properties = tool.inputSchema.properties as Record<string, { description?: string }>;
    expect(properties.name__body!.description).toBe(
      'The new name. Sent as the body property "name"; the path parameter is `name`. Required when any body field is given.',
    );
    expect(properties.Body!.description).toBeUndefined();
  });

  it("merges allOf members of an object body", () => {
    const tool = onlyTool({
      paths: {
        "/x": {
          post: {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    allOf: [
                      { $ref: "#/components/schemas/Base" },
                      { type: "object", properties: { extra: { type: "integer" } }, required: ["extra"] },
                    ],
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: { Base: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } } },
      },
    });
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(["kind", "extra"]);
    expect(tool.inputSchema.required).toEqual(["kind", "extra"]);
  });

  it("multipart file fields take a base64 file object; binary bodies take base64", () => {
    const model = plan({
      paths: {
        "/upload": {
          post: {
            operationId: "upload",
            requestBody: {
              content: {
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    properties: { file: { type: "string", format: "binary" }, note: { type: "string" } },
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
        "/raw": {
          put: {
            operationId: "raw",
            requestBody: {
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const [upload, raw] = model.tools;
    expect(upload!.http.body?.properties).toEqual([
      { argument: "file", name: "file", shape: "primitive", file: true },
      { argument: "note", name: "note", shape: "primitive" },
    ]);
    const fileSchema = (
      upload!.inputSchema.properties as Record<string, { anyOf?: { required?: string[] }[] }>
    ).file!;
    expect(fileSchema.anyOf![0]!.required).toEqual(["base64"]);
    expect(raw!.http.body).toMatchObject({ kind: "binary", mode: "value", argument: "body" });
    expect((raw!.inputSchema.properties as Record<string, unknown>).body).toMatchObject({
      type: "string",
      contentEncoding: "base64",
    });
  });

  it("adds undeclared path template variables as required strings, with a warning", () => {
    const model = plan({ paths: { "/a/{x}": { get: { responses: { "200": { description: "ok" } } } } } });
    expect(model.tools[0]!.inputSchema.required).toEqual(["x"]);
    expect(model.diagnostics.map((d) => d.code)).toContain("OMB_PATH_PARAMETER_UNDECLARED");
  });

  it.each([
    ["an empty name", { name: "", in: "header", schema: { type: "string" } }],
    ["a blank name", { name: "  ", in: "query", schema: { type: "string" } }],
    ["no location", { name: "x", schema: { type: "string" } }],
  ])("ignores a parameter with %s, with a warning", (_label, parameter) => {
    const model = plan({
      paths: { "/a": { get: { parameters: [parameter], responses: { "200": { description: "ok" } } } } },
    });
    expect(Object.keys(model.tools[0]!.inputSchema.properties as object)).toEqual([]);
    expect(model.diagnostics.map((d) => d.code)).toContain("OMB_PARAMETER_INVALID");
  });

  it("resolves parameter styles and defaults", () => {
    const tool = onlyTool({
      paths: {
        "/a/{p}": {
          get: {
            parameters: [
              {
                name: "p",
                in: "path",
                required: true,
                style: "label",
                explode: true,
                schema: { type: "array", items: { type: "string" } },
              },
              { name: "q", in: "query", schema: { type: "object" } },
              { name: "d", in: "query", style: "deepObject", schema: { type: "object" } },
              { name: "j", in: "query", content: { "application/json": { schema: { type: "object" } } } },
              { name: "h", in: "header", schema: { type: "array", items: { type: "string" } } },
              { name: "Accept", in: "header", schema: { type: "string" } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(
      tool.http.parameters.map(({ name, style, explode, shape, contentType }) => ({
        name,
        style,
        explode,
        shape,
        contentType,
      })),
    ).toEqual([
      { name: "p", style: "label", explode: true, shape: "array", contentType: undefined },
      { name: "q", style: "form", explode: true, shape: "object", contentType: undefined },
      { name: "d", style: "deepObject", explode: false, shape: "object", contentType: undefined },
      { name: "j", style: "form", explode: true, shape: "object", contentType: "application/json" },
      { name: "h", style: "simple", explode: false, shape: "array", contentType: undefined },
    ]);
  });
});

describe("schemas", () => {
  it("keeps references as local $defs, including recursive ones", () => {
    const tool = onlyTool({
      paths: {
        "/n": {
          post: {
            requestBody: {
              content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
            },
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: "object",
            properties: {
              value: { type: "string" },
              children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
            },
          },
        },
      },
    });
    expect(tool.inputSchema.properties).toEqual({
      value: { type: "string" },
      children: { type: "array", items: { $ref: "#/$defs/Node" } },
      extraProperties: { type: "object" },
    });
    expect(tool.inputSchema.$defs).toEqual({
      Node: {
        type: "object",
        properties: {
          value: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/Node" } },
        },
      },
    });
    // output schemas are outlines: the result's fields (lists and objects typed), nothing required
    expect(tool.outputSchema).toEqual({
      type: "object",
      properties: {
        value: {},
        children: { type: ["array", "null"] },
      },
    });
  });

  it.each([
    {
      given: { type: "string", nullable: true, enum: ["a", "b"] },
      want: { type: ["string", "null"], enum: ["a", "b", null] },
    },
    {
      given: { type: "number", minimum: 1, exclusiveMinimum: true },
      want: { type: "number", exclusiveMinimum: 1 },
    },
    { given: { type: "number", maximum: 9, exclusiveMaximum: false }, want: { type: "number", maximum: 9 } },
    {
      given: { type: "string", example: "x", "x-internal": true, xml: { name: "a" } },
      want: { type: "string", examples: ["x"] },
    },
    {
      given: { $ref: "#/components/schemas/O", nullable: true },
      want: { anyOf: [{ $ref: "#/$defs/O" }, { type: "null" }] },
    },
    {
      // A plain value's schema is written out, and the reference's nullable applies to it.
      given: { $ref: "#/components/schemas/S", nullable: true },
      want: { type: ["string", "null"] },
    },
    {
      // An array's enum of item values admits no value: the values belong to the items.
      given: { type: "array", items: { type: "string" }, enum: ["all", "ahd-5"] },
      want: { type: "array", items: { type: "string", enum: ["all", "ahd-5"] } },
    },
    {
      given: { type: "array", items: { type: "string", enum: ["a"] }, enum: ["a", "b"] },
      want: { type: "array", items: { type: "string", enum: ["a"] } },
    },
    {
      given: { type: "array", items: { type: "string" }, enum: [["a"], ["b"]] },
      want: { type: "array", items: { type: "string" }, enum: [["a"], ["b"]] },
    },
    {
      // A `type` that is not a JSON Schema type name would make clients refuse the tool.
      given: { type: { type: "string", enum: ["A"] }, description: "Kind." },
      want: { description: "Kind." },
    },
    { given: { type: "date" }, want: {} },
    { given: { type: ["string", "int", "string"] }, want: { type: ["string"] } },
  ])("OAS 3.0 $given → JSON Schema 2020-12", ({ given, want }) => {
    const tool = onlyTool({
      paths: {
        "/x": {
          get: {
            parameters: [{ name: "v", in: "query", schema: given }],
            responses: { "204": { description: "ok" } },
          },
        },
      },
      components: { schemas: { S: { type: "string" }, O: { type: "object" } } },
    });
    expect((tool.inputSchema.properties as Record<string, unknown>).v).toEqual(want);
  });

  it("wraps non-object responses and advertises no output schema when 2xx schemas differ", () => {
    const model = plan({
      paths: {
        "/list": {
          get: {
            operationId: "list",
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { type: "array", items: { type: "string" } } } },
              },
            },
          },
        },
        "/mixed": {
          get: {
            operationId: "mixed",
            responses: {
              "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
              "202": { description: "later" },
            },
          },
        },
      },
    });
    const [list, mixed] = model.tools;
    expect(list!.outputWrapped).toBe(true);
    expect(list!.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: ["array", "null"], items: { type: ["string", "null"] } } },
      required: ["result"],
    });
    expect(mixed!.outputSchema).toBeUndefined();
  });
});

describe("tools", () => {
  it("derives annotations from the method", () => {
    const model = plan({
      paths: {
        "/r": {
          get: { responses: { "200": { description: "ok" } } },
          put: { responses: { "200": { description: "ok" } } },
          post: { responses: { "200": { description: "ok" } } },
          delete: { responses: { "200": { description: "ok" } } },
          patch: { responses: { "200": { description: "ok" } } },
        },
      },
    });
    const byMethod = Object.fromEntries(model.tools.map((t) => [t.http.method, t.annotations]));
    expect(byMethod.get).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byMethod.put).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byMethod.post).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byMethod.delete).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byMethod.patch).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
  });

  it("never describes an operation as undefined and keeps every operation", () => {
    const model = plan({
      paths: {
        "/a": { get: { responses: {} }, post: { operationId: "same", responses: {} } },
        "/b": { post: { operationId: "same", responses: {} } },
      },
    });
    expect(model.tools.map((t) => t.name)).toEqual([
      "get_a",
      "same",
      expect.stringMatching(/^same_[0-9a-f]{6}$/),
    ]);
    for (const tool of model.tools) {
      expect(tool.description).not.toMatch(/undefined/);
      expect(tool.title).not.toMatch(/undefined/);
    }
  });

  it("uses security from the operation, else from the document", () => {
    const model = plan({
      security: [{ key: [] }],
      paths: { "/a": { get: { responses: {} }, post: { security: [], responses: {} } } },
      components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
    });
    expect(model.tools.map((t) => t.http.security)).toEqual([[{ key: [] }], []]);
    expect(model.securitySchemes).toEqual({ key: { type: "apiKey", in: "header", name: "X-Key" } });
  });

  it.each([
    {
      name: "a required Authorization header parameter and no security: a required credential",
      parameter: { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
      security: undefined,
      want: [{ authorizationHeader: [] }],
    },
    {
      name: "an optional one: sent when configured",
      parameter: { name: "authorization", in: "header", schema: { type: "string" } },
      security: undefined,
      want: [{ authorizationHeader: [] }, {}],
    },
    {
      name: "an operation with its own security keeps it",
      parameter: { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
      security: [{ key: [] }],
      want: [{ key: [] }],
    },
  ])("$name", ({ parameter, security, want }) => {
    const model = plan({
      paths: {
        "/a": {
          get: {
            parameters: [parameter, { name: "q", in: "query", schema: { type: "string" } }],
            ...(security ? { security } : {}),
            responses: { "204": { description: "ok" } },
          },
        },
      },
      components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
    });
    const tool = model.tools[0]!;
    expect(tool.http.security).toEqual(want);
    // Never an argument: the model does not handle credentials.
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(["q"]);
    if (security === undefined) {
      expect(model.securitySchemes["authorizationHeader"]).toMatchObject({
        type: "apiKey",
        in: "header",
        name: "Authorization",
      });
      expect(model.diagnostics.map((d) => d.code)).toContain("OMB_AUTHORIZATION_HEADER");
    } else {
      expect(model.securitySchemes["authorizationHeader"]).toBeUndefined();
    }
  });

  it("survives a JSON round trip unchanged", () => {
    const model = plan({
      paths: {
        "/pets/{id}": {
          get: {
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
  });
});

describe("output outlines", () => {
  it.each([
    {
      title: "object: fields named, lists and nested objects typed and opaque",
      schema: {
        type: "object",
        required: ["id"],
        properties: {
          id: { type: "integer", format: "int64" },
          owner: { type: "object", properties: { login: { type: "string" } } },
          tags: { type: "array", items: { type: "string", enum: ["a"] } },
        },
      },
      want: {
        type: "object",
        properties: {
          id: {},
          owner: { type: ["object", "null"] },
          tags: { type: ["array", "null"] },
        },
      },
    },
    {
      title: "list of objects: the items' fields",
      schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } },
      want: {
        type: "object",
        properties: {
          result: {
            type: ["array", "null"],
            items: { type: ["object", "null"], properties: { name: {} } },
          },
        },
        required: ["result"],
      },
    },
    {
      title: "allOf members merged",
      schema: { allOf: [{ $ref: "#/components/schemas/Pet" }, { properties: { age: { type: "number" } } }] },
      want: {
        type: "object",
        properties: { name: {}, age: {} },
      },
    },
    {
      title: "a list of strings at the top keeps its item type",
      schema: { type: "array", items: { type: "string" } },
      want: {
        type: "object",
        properties: { result: { type: ["array", "null"], items: { type: ["string", "null"] } } },
        required: ["result"],
      },
    },
    {
      title: "many fields: required non-link fields, other non-link fields, then links",
      schema: {
        type: "object",
        required: ["a_url", "f11"],
        properties: Object.fromEntries(
          [...["a_url", "b_url"], ...Array.from({ length: 12 }, (_, i) => `f${i}`), "url"].map((name) => [
            name,
            { type: "string" },
          ]),
        ),
      },
      want: {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, {}])),
      },
    },
    {
      title: "oneOf at the top: wrapped and left open",
      schema: { oneOf: [{ type: "string" }, { type: "integer" }] },
      want: { type: "object", properties: { result: {} }, required: ["result"] },
    },
  ])("$title", ({ schema, want }) => {
    const tool = onlyTool({
      paths: {
        "/x": {
          get: { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } },
        },
      },
      components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
    });
    expect(tool.outputSchema).toEqual(want);
  });
});
