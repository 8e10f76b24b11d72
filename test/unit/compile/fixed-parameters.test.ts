/**
 * Constants (required one-value enums) and Express-style `:name` path segments, as planned:
 * the input schema no longer asks for a constant, and `:id` is a path parameter.
 */
import { describe, expect, it } from "vitest";
import { findConstantValue, toTemplatePath } from "../../../src/generator/compile/fixed-parameters.js";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { JsonSchema, ToolNode } from "../../../src/model/types.js";

function planOne(path: string, parameters: unknown[]): ToolNode {
  const loaded = {
    source: "spec.json",
    specVersion: "3.1",
    diagnostics: [],
    document: {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: {
        [path]: { get: { operationId: "op", parameters, responses: { "200": { description: "OK" } } } },
      },
    },
  } as unknown as LoadedSpec;
  const tools = planModel(loaded).tools;
  expect(tools).toHaveLength(1);
  return tools[0]!;
}

describe("findConstantValue", () => {
  it.each([
    { schema: { type: "string", enum: ["DescribeInstances"] }, required: true, want: "DescribeInstances" },
    { schema: { type: "string", const: "2016-11-15" }, required: true, want: "2016-11-15" },
    { schema: { type: "integer", enum: [2] }, required: true, want: 2 },
    { schema: { type: "string", enum: ["a"] }, required: false, want: undefined },
    { schema: { type: "string", enum: ["a", "b"] }, required: true, want: undefined },
    { schema: { type: "object", enum: [{ a: 1 }] }, required: true, want: undefined },
    { schema: { type: "string" }, required: true, want: undefined },
  ] as { schema: JsonSchema; required: boolean; want: unknown }[])(
    "$schema (required: $required) → $want",
    ({ schema, required, want }) => {
      expect(findConstantValue(schema, required)).toBe(want);
    },
  );
});

describe("toTemplatePath", () => {
  it.each([
    ["/v1/integrations/webhooks/:id", "/v1/integrations/webhooks/{id}"], // zeit.co, as published
    ["/users/:user_id/posts/:postId", "/users/{user_id}/posts/{postId}"],
    ["/v1/{name}:cancel", "/v1/{name}:cancel"], // a Google custom method stays literal
    ["/time/12:30", "/time/12:30"],
    ["/a/:", "/a/:"],
    ["/pets/{petId}", "/pets/{petId}"],
  ])("%s → %s", (path, want) => {
    expect(toTemplatePath(path)).toBe(want);
  });
});

describe("planning", () => {
  it("EC2-style Action and Version are constants, not arguments; optional ones stay arguments", () => {
    const tool = planOne("/", [
      {
        name: "Action",
        in: "query",
        required: true,
        schema: { type: "string", enum: ["DescribeInstances"] },
      },
      { name: "Version", in: "query", required: true, schema: { type: "string", enum: ["2016-11-15"] } },
      { name: "DryRun", in: "query", schema: { type: "string", enum: ["true"] } },
    ]);
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(["DryRun"]);
    expect(tool.inputSchema.required).toBeUndefined();
    expect(tool.http.parameters.map((p) => [p.name, p.constant])).toEqual([
      ["Action", "DescribeInstances"],
      ["Version", "2016-11-15"],
      ["DryRun", undefined],
    ]);
  });

  it("a required query or header parameter with a default is optional and filled; a path one is not", () => {
    const tool = planOne("/items/{id}", [
      { name: "api-version", in: "query", required: true, schema: { type: "string", default: "2024-01-01" } },
      { name: "X-Region", in: "header", required: true, schema: { type: "string", default: "eu" } },
      { name: "id", in: "path", required: true, schema: { type: "string", default: "1" } },
      { name: "limit", in: "query", schema: { type: "integer", default: 20 } },
    ]);
    expect(tool.inputSchema.required).toEqual(["id"]);
    expect(tool.http.parameters.map((p) => [p.name, p.fill])).toEqual([
      ["api-version", "2024-01-01"],
      ["X-Region", "eu"],
      ["id", undefined],
      ["limit", undefined],
    ]);
  });

  it("a declared :id segment is the path parameter id", () => {
    const tool = planOne("/v1/integrations/webhooks/:id", [
      { name: "id", in: "path", required: true, schema: { type: "string" } },
    ]);
    expect(tool.http.path).toBe("/v1/integrations/webhooks/{id}");
    expect(tool.inputSchema.required).toEqual(["id"]);
  });

  it("an undeclared :id segment becomes a required string argument, as an undeclared {id} does", () => {
    const tool = planOne("/users/:id", []);
    expect(tool.http.path).toBe("/users/{id}");
    expect(tool.inputSchema.properties).toEqual({ id: { type: "string" } });
  });
});
