import { describe, expect, it } from "vitest";
import { toUnicodePattern } from "../../../src/generator/compile/pattern.js";

describe("toUnicodePattern", () => {
  it.each([
    // given, want (patterns from real specs: AWS nimble, anchore.io, ReadMe's schema-validation)
    ["^[a-z]+$", "^[a-z]+$"],
    ["^2021\\-03\\-31$", "^2021-03-31$"],
    ["^\\d{4}(?:\\:\\d+)?$", "^\\d{4}(?::\\d+)?$"],
    ["^[\\w\\-]+$", "^[\\w\\-]+$"],
    ["^(?:{[0-9a-f]{4}}|[0-9a-f]{4})$", "^(?:\\{[0-9a-f]{4}\\}|[0-9a-f]{4})$"],
    ["a{2,}b", "a{2,}b"],
    ['\\"quoted\\"', '"quoted"'],
  ])("%s → %s", (given, want) => {
    expect(toUnicodePattern(given)).toBe(want);
    expect(() => new RegExp(want, "u")).not.toThrow();
  });

  it("matches what the lax pattern matched", () => {
    const lax = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:\\:\\d+)?[A-Z]?$";
    const strict = new RegExp(toUnicodePattern(lax)!, "u");
    for (const text of ["2024-01-02T03:04:05", "2024-01-02T03:04:05.5:12Z", "2024-01-02"]) {
      expect(strict.test(text)).toBe(new RegExp(lax).test(text));
    }
  });

  it("gives up on what has no strict form", () => {
    expect(toUnicodePattern("[\\p{all}]*")).toBeUndefined();
  });
});

describe("planned input schemas", () => {
  it("carry patterns that Ajv compiles with the u flag, or none", async () => {
    const { planModel } = await import("../../../src/generator/compile/plan-model.js");
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const model = planModel({
      document: {
        openapi: "3.0.3",
        info: { title: "T", version: "1" },
        paths: {
          "/v/{version}": {
            get: {
              parameters: [
                {
                  name: "version",
                  in: "path",
                  required: true,
                  schema: { type: "string", pattern: "^2021\\-03\\-31$" },
                },
                { name: "any", in: "query", schema: { type: "string", pattern: "[\\p{all}]*" } },
                {
                  name: "map",
                  in: "query",
                  schema: { type: "object", patternProperties: { "^x\\-": { type: "string" } } },
                },
              ],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      },
      specVersion: "3.0",
      source: "spec.yaml",
      diagnostics: [],
    } as never);
    const schema = model.tools[0]!.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.version!.pattern).toBe("^2021-03-31$");
    expect(schema.properties.any!.pattern).toBeUndefined();
    expect(Object.keys(schema.properties.map!.patternProperties as object)).toEqual(["^x-"]);
    expect(() => new Ajv2020({ strict: false }).compile(schema)).not.toThrow();
  });
});
