/**
 * Bugs the corpus harness (test/corpus) found on real specs, each pinned by a small case.
 */
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { buildRequest, withoutFragment } from "../../../src/runtime/request/build-request.js";

function plan(paths: Record<string, unknown>): BridgeModel {
  return planModel({
    document: { openapi: "3.0.3", info: { title: "T", version: "1" }, paths },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec);
}

const context = { baseUrl: "http://127.0.0.1:9", securitySchemes: {}, credentials: new Map(), headers: {} };

describe("path templates with a #fragment (APIs.guru's AWS specs)", () => {
  it.each([
    ["/#X-Amz-Target=AmazonAthena.ListWorkGroups", "/"],
    ["/{Bucket}#cors", "/{Bucket}"],
    ["/{Bucket}/{Key}#uploadId", "/{Bucket}/{Key}"],
    ["/a/{b#c}", "/a/{b#c}"],
    ["/plain", "/plain"],
  ])("%s is sent as %s", (given, want) => {
    expect(withoutFragment(given)).toBe(want);
  });

  it("never puts a # in the request line", () => {
    const model = plan({
      "/{Bucket}#cors": {
        get: {
          operationId: "GetBucketCors",
          parameters: [
            { name: "Bucket", in: "path", required: true, schema: { type: "string" } },
            { name: "x", in: "query", schema: { type: "string" } },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    });
    const request = buildRequest(model.tools[0]!, { Bucket: "b", x: "1" }, context);
    expect(request.path).toBe("/b?x=1");
  });
});

describe("a body that requires a property it does not describe (ReadMe's schema-enums)", () => {
  it("still takes that property as an argument (any value)", () => {
    const model = plan({
      "/e": {
        put: {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { a: { type: "boolean" } },
                  required: ["a", "b (undescribed)"],
                },
              },
            },
          },
          responses: { "200": { description: "ok" } },
        },
      },
    });
    const tool = model.tools[0]!;
    expect(tool.inputSchema.required).toEqual(["a", "b (undescribed)"]);
    expect((tool.inputSchema.properties as Record<string, unknown>)["b (undescribed)"]).toEqual({});
    const request = buildRequest(tool, { a: true, "b (undescribed)": "x" }, context);
    expect(JSON.parse(String(request.body))).toEqual({ a: true, "b (undescribed)": "x" });
  });

  it("does not invent it when the schema forbids other properties", () => {
    const model = plan({
      "/e": {
        put: {
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { a: { type: "boolean" } },
                  required: ["b"],
                  additionalProperties: false,
                },
              },
            },
          },
          responses: { "200": { description: "ok" } },
        },
      },
    });
    expect(Object.keys(model.tools[0]!.inputSchema.properties as object)).toEqual(["a"]);
  });
});

describe("oneOf with a discriminator (ReadMe's discriminators and polymorphism documents)", () => {
  const pet = (extra: Record<string, unknown>) => ({
    "/pets": {
      patch: {
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Body" } } },
        },
        responses: { "200": { description: "ok" } },
      },
    },
    ...extra,
  });
  const withComponents = (schemas: Record<string, unknown>) =>
    planModel({
      document: {
        openapi: "3.0.3",
        info: { title: "T", version: "1" },
        paths: pet({}),
        components: { schemas },
      },
      specVersion: "3.0",
      source: "spec.yaml",
      diagnostics: [],
    } as unknown as LoadedSpec).tools[0]!;
  const open = (name: string) => ({
    type: "object",
    properties: { pet_type: { type: "string" }, [name]: { type: "boolean" } },
  });

  it("becomes anyOf, so that a Cat that is also a Dog under JSON Schema can be sent", () => {
    const tool = withComponents({
      Body: {
        oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: { propertyName: "pet_type" },
      },
      Cat: open("hunts"),
      Dog: open("barks"),
    });
    const defs = tool.inputSchema.$defs as Record<string, Record<string, unknown>>;
    expect(defs.Body!.anyOf).toHaveLength(2);
    expect(defs.Body!.oneOf).toBeUndefined();
  });

  it("also when every branch inherits the discriminator through allOf", () => {
    const tool = withComponents({
      Body: { oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }] },
      Pet: {
        type: "object",
        properties: { pet_type: { type: "string" } },
        discriminator: { propertyName: "pet_type" },
      },
      Cat: { allOf: [{ $ref: "#/components/schemas/Pet" }, open("hunts")] },
      Dog: { allOf: [{ $ref: "#/components/schemas/Pet" }, open("barks")] },
    });
    const defs = tool.inputSchema.$defs as Record<string, Record<string, unknown>>;
    expect(defs.Body!.anyOf).toHaveLength(2);
  });

  it("stays oneOf without a discriminator", () => {
    const tool = withComponents({
      Body: { oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }] },
      Cat: open("hunts"),
      Dog: open("barks"),
    });
    const defs = tool.inputSchema.$defs as Record<string, Record<string, unknown>>;
    expect(defs.Body!.oneOf).toHaveLength(2);
  });
});

describe("a path key with a literal query (APIs.guru's freetv-app.com)", () => {
  it("sends the literal query first, then the arguments, with one ?", () => {
    const model = plan({
      "/services?funcs=GetLatestNews&mobile=1": {
        get: {
          parameters: [{ name: "language", in: "query", schema: { type: "string" } }],
          responses: { "200": { description: "ok" } },
        },
      },
    });
    const request = buildRequest(model.tools[0]!, { language: "US" }, context);
    expect(request.path).toBe("/services?funcs=GetLatestNews&mobile=1&language=US");
    expect(buildRequest(model.tools[0]!, {}, context).path).toBe("/services?funcs=GetLatestNews&mobile=1");
  });
});

describe("an API key declared both as a security scheme and as a parameter (currencytick.com, spinbot.net)", () => {
  const model = planModel({
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      security: [{ key: [] }],
      components: { securitySchemes: { key: { type: "apiKey", in: "query", name: "apikey" } } },
      paths: {
        "/live": {
          get: {
            parameters: [
              { name: "apikey", in: "query", required: true, schema: { type: "string" } },
              { name: "base", in: "query", schema: { type: "string" } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec);
  const tool = model.tools[0]!;

  it("sends the configured credential once, instead of the argument", () => {
    const request = buildRequest(
      tool,
      { apikey: "YOUR_API_KEY", base: "USD" },
      { ...context, securitySchemes: model.securitySchemes, credentials: new Map([["key", "secret"]]) },
    );
    expect(request.path).toBe("/live?base=USD&apikey=secret");
  });

  it("sends the argument when no credential is configured", () => {
    const request = buildRequest(
      tool,
      { apikey: "k1", base: "USD" },
      { ...context, securitySchemes: model.securitySchemes },
    );
    expect(request.path).toBe("/live?apikey=k1&base=USD");
  });
});

describe("literal path text that a request line cannot carry (apisetu.gov.in's issuer spec)", () => {
  it.each([
    ["/Your Pull DOC Request API Path", {}, "/Your%20Pull%20DOC%20Request%20API%20Path"],
    ["/files/{name}.json", { name: "a b" }, "/files/a%20b.json"],
    ["/a%2Fb/{id}|x", { id: "1" }, "/a%2Fb/1%7Cx"],
    ["/über/{id}", { id: "1" }, "/%C3%BCber/1"],
  ])("%s is sent as %s", (template, args, want) => {
    const parameters = Object.keys(args).map((name) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const model = plan({ [template]: { get: { parameters, responses: { "200": { description: "ok" } } } } });
    expect(buildRequest(model.tools[0]!, args, context).path).toBe(want);
  });
});

describe("transport headers declared as parameters (azure.com monitor-metricsCreate's Content-Length)", () => {
  it("are not arguments: the HTTP client sets them", () => {
    const model = plan({
      "/m": {
        post: {
          parameters: [
            { name: "Content-Length", in: "header", required: true, schema: { type: "integer" } },
            { name: "Host", in: "header", schema: { type: "string" } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    });
    expect(Object.keys(model.tools[0]!.inputSchema.properties as object)).toEqual(["X-Trace"]);
    expect(model.diagnostics.filter((d) => d.code === "OMB_PARAMETER_IGNORED")).toHaveLength(2);
  });
});
