import { describe, expect, it } from "vitest";
import { scanDocument } from "../../../src/generator/spec/document-scan.js";
import { collectRefStrings } from "../../../src/generator/spec/ref-sites.js";
import { repairSlips } from "../../../src/generator/spec/repair-slips.js";
import { isDeeperThan } from "../../../src/model/json-depth.js";
import type { SpecVersion } from "../../../src/model/types.js";

/** A document where the reach of each concern differs: data keywords, extensions, name maps named like them. */
function mixedDocument(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    "x-meta": { $ref: "#/x", maximum: "5", nested: [{ $ref: "#/in-extension" }] },
    paths: {
      "/a/{id}": {
        parameters: [{ $ref: "#/components/parameters/id" }],
        get: {
          parameters: [
            { name: "q", in: "query", required: "true", schema: { type: "integer", default: "3" } },
            { name: "r", in: "query", schema: { type: "array", items: { maxItems: "4" } } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/Pet" },
                  example: { $ref: "#/not-a-ref", maximum: "1" },
                  examples: { one: { value: { $ref: "#/data" } }, two: { $ref: "#/components/examples/E" } },
                },
              },
            },
          },
        },
      },
    },
    components: {
      parameters: { id: { name: "id", in: "path", required: "false", schema: { type: "string" } } },
      examples: { E: { value: { minimum: "2" } } },
      schemas: {
        Pet: {
          type: "object",
          properties: {
            properties: { type: "object", properties: { maximum: { type: "number", minimum: "0" } } },
            default: { $ref: "#/components/schemas/Tag" },
            enum: { type: "boolean", default: "false", nullable: "true" },
          },
          default: { $ref: "#/in-default" },
          enum: [{ $ref: "#/in-enum" }],
        },
        Tag: { type: "string", maxLength: "10", "x-limit": { maxLength: "9" } },
      },
    },
  };
}

/** What the separate walks make of `doc` (in a copy): the refs, the repaired copy and its warnings. */
function separately(doc: unknown, version: SpecVersion) {
  const copy = structuredClone(doc);
  const refStrings = [...collectRefStrings(copy)];
  const diagnostics = repairSlips(copy, version, "spec.json", { tree: true });
  return { refStrings, diagnostics, repaired: copy };
}

function nest(levels: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 1; i < levels; i++) value = i % 3 === 0 ? [value] : { examples: value };
  return value;
}

describe("scanDocument", () => {
  it.each<[string, () => unknown, SpecVersion]>([
    ["a document whose concerns reach differently", mixedDocument, "3.0"],
    ["the same as 3.1", () => ({ ...mixedDocument(), openapi: "3.1.0" }), "3.1"],
    [
      "an array at the top",
      () => [{ $ref: "#/a", maximum: "1" }, [{ type: "integer", default: "1" }]],
      "3.0",
    ],
  ])("finds in %s what the separate walks find", (_what, make, version) => {
    const want = separately(make(), version);
    const doc = make();
    const scan = scanDocument(doc, { limit: 2000, slipsOf: version });
    if (scan.tooDeep) throw new Error("not too deep");
    expect([...scan.refStrings]).toEqual(want.refStrings);
    expect(scan.slips?.repair("spec.json")).toEqual(want.diagnostics);
    expect(doc).toEqual(want.repaired);
  });

  it("makes no repair until asked, and looks for none when not asked", () => {
    const doc = mixedDocument();
    const scan = scanDocument(doc, { limit: 2000, slipsOf: "3.0" });
    expect(doc).toEqual(mixedDocument());
    const strict = scanDocument(doc, { limit: 2000 });
    expect(strict.tooDeep === false && strict.slips === undefined).toBe(true);
    expect(scan.tooDeep).toBe(false);
  });

  it.each([5, 6, 7, 40])("answers the depth limit as isDeeperThan does (nesting %i levels)", (levels) => {
    for (const limit of [1, 4, 5, 6, 7, 39, 40, 41]) {
      const doc = { paths: { "/a": nest(levels) }, "x-deep": nest(levels), example: nest(levels) };
      expect(scanDocument(doc, { limit, slipsOf: "3.0" }).tooDeep).toBe(isDeeperThan(doc, limit));
    }
  });
});
