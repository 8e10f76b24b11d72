import { describe, expect, it } from "vitest";
import { repairSlips } from "../../../src/generator/spec/repair-slips.js";
import type { SpecVersion } from "../../../src/model/types.js";

/** A 3.0 document whose one parameter has `schema` (a schema's slips are tried there). */
function withSchema(schema: Record<string, unknown>, parameter: Record<string, unknown> = {}) {
  return {
    openapi: "3.0.3",
    paths: { "/a": { get: { parameters: [{ name: "p", in: "query", ...parameter, schema }] } } },
  };
}

function schemaOf(doc: ReturnType<typeof withSchema>): unknown {
  return doc.paths["/a"].get.parameters[0]!.schema;
}

describe("repairSlips", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, SpecVersion?]>([
    [
      "a bound",
      { type: "integer", maximum: "50", minimum: "-1" },
      { type: "integer", maximum: 50, minimum: -1 },
    ],
    ["a decimal bound", { maximum: "0.5", multipleOf: "1e-2" }, { maximum: 0.5, multipleOf: 0.01 }],
    ["a count", { minLength: " 3 ", maxItems: "10" }, { minLength: 3, maxItems: 10 }],
    [
      "flags",
      { nullable: "true", readOnly: "False", uniqueItems: "TRUE" },
      { nullable: true, readOnly: false, uniqueItems: true },
    ],
    ["additionalProperties", { additionalProperties: "false" }, { additionalProperties: false }],
    ["a 3.0 exclusive bound", { exclusiveMaximum: "true" }, { exclusiveMaximum: true }],
    ["a 3.1 exclusive bound", { exclusiveMaximum: "5" }, { exclusiveMaximum: 5 }, "3.1"],
    ["an integer's default", { type: "integer", default: "20" }, { type: "integer", default: 20 }],
    ["a boolean's default", { type: "boolean", default: "false" }, { type: "boolean", default: false }],
  ])("reads %s as meant", (_what, given, want, version = "3.0") => {
    const doc = withSchema(given);
    expect(repairSlips(doc, version, "spec.json")).not.toEqual([]);
    expect(schemaOf(doc)).toEqual(want);
  });

  it.each<[string, Record<string, unknown>, SpecVersion?]>([
    ["a bound that is no number", { maximum: "fifty" }],
    ["a count below zero", { minLength: "-1" }],
    ["a fractional count", { maxItems: "2.5" }],
    ["a flag that is no boolean", { nullable: "yes" }],
    ["a 3.1 exclusive bound written as a flag", { exclusiveMaximum: "true" }, "3.1"],
    ["a string's default", { type: "string", default: "20" }],
    ["an integer's fractional default", { type: "integer", default: "2.5" }],
    ["a schema's required (a list of names)", { type: "object", required: "true" }],
    ["examples and enums (data)", { type: "integer", example: "5", enum: ["1", "2"] }],
    ["an extension's content", { "x-limits": { maximum: "5" } }],
    ["properties named like keywords", { properties: { maximum: { type: "string" } } }],
  ])("leaves %s alone", (_what, given, version = "3.0") => {
    const doc = withSchema(structuredClone(given));
    expect(repairSlips(doc, version, "spec.json")).toEqual([]);
    expect(schemaOf(doc)).toEqual(given);
  });

  it("reads required, explode and the like of parameters, headers and request bodies as booleans", () => {
    const doc = {
      openapi: "3.0.3",
      paths: {
        "/a": {
          put: {
            parameters: [{ name: "p", in: "query", required: "true", explode: "false", schema: {} }],
            requestBody: { required: "true", content: {} },
            responses: {
              "200": { description: "ok", headers: { "X-N": { required: "false", schema: {} } } },
            },
          },
        },
      },
    };
    repairSlips(doc, "3.0", "spec.json");
    const put = doc.paths["/a"].put;
    expect(put.parameters[0]).toMatchObject({ required: true, explode: false });
    expect(put.requestBody.required).toBe(true);
    expect(put.responses["200"].headers["X-N"].required).toBe(false);
  });

  it("repairs Swagger 2.0 parameters, whose bounds sit on the parameter", () => {
    const doc = {
      swagger: "2.0",
      paths: {
        "/a": {
          get: { parameters: [{ name: "n", in: "query", type: "integer", required: "true", maximum: "9" }] },
        },
      },
    };
    repairSlips(doc, "2.0", "spec.json");
    expect(doc.paths["/a"].get.parameters[0]).toMatchObject({ required: true, maximum: 9 });
  });

  it("says so once per kind, with the count, the keywords and the first place", () => {
    const doc = {
      openapi: "3.0.3",
      paths: {
        "/a": {
          get: {
            parameters: [
              { name: "a", in: "query", required: "true", schema: { type: "integer", maximum: "50" } },
              { name: "b", in: "query", required: "false", schema: { minimum: "0", nullable: "true" } },
            ],
          },
        },
      },
    };
    const diagnostics = repairSlips(doc, "3.0", "spec.json");
    expect(diagnostics).toEqual([
      {
        code: "OMB_SPEC_REPAIRED",
        severity: "warning",
        message:
          '3 booleans written as strings read as booleans (nullable, required): "required": "true" read as true here and 2 more',
        file: "spec.json",
        pointer: "/paths/~1a/get/parameters/0/required",
      },
      {
        code: "OMB_SPEC_REPAIRED",
        severity: "warning",
        message:
          '2 numbers written as strings read as numbers (maximum, minimum): "maximum": "50" read as 50 here and 1 more',
        file: "spec.json",
        pointer: "/paths/~1a/get/parameters/0/schema/maximum",
      },
    ]);
  });

  it("repairs a parsed tree without remembering its nodes as it repairs a bundled document", () => {
    const make = () => ({
      openapi: "3.0.3",
      paths: {
        "/a/{id}": {
          get: {
            parameters: [
              { name: "id", in: "path", required: "true", schema: { type: "integer", maximum: "9" } },
              { name: "q", in: "query", schema: { type: "array", items: [{ minLength: "2" }] } },
            ],
          },
        },
      },
    });
    const tree = make();
    const bundled = make();
    expect(repairSlips(tree, "3.0", "spec.json", { tree: true })).toEqual(
      repairSlips(bundled, "3.0", "spec.json"),
    );
    expect(tree).toEqual(bundled);
    expect(tree.paths["/a/{id}"].get.parameters[1]!.schema.items?.[0]).toEqual({ minLength: 2 });
  });

  it("counts an object a bundled document holds in two places once", () => {
    const shared = { type: "integer", maximum: "9" };
    const doc = {
      openapi: "3.0.3",
      paths: {
        "/a": { get: { parameters: [{ name: "a", in: "query", schema: shared }] } },
        "/b": { get: { parameters: [{ name: "b", in: "query", schema: shared }] } },
      },
    };
    const [diagnostic] = repairSlips(doc, "3.0", "spec.json");
    expect(diagnostic?.message).toMatch(/^1 number written as a string/);
  });
});
