/**
 * Which input schemas the planner compiles (compile-risks.ts): those Ajv could refuse with the
 * runtime's options, and no others. Each kind of risk is named here with a schema Ajv really
 * refuses; plain schemas pass untouched.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { mayFailToCompile } from "../../../src/generator/compile/compile-risks.js";
import { INPUT_AJV_OPTIONS } from "../../../src/runtime/arguments/input-ajv-options.js";

function compiles(schema: unknown): boolean {
  try {
    new Ajv2020({ ...INPUT_AJV_OPTIONS }).compile(schema as object);
    return true;
  } catch {
    return false;
  }
}

const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("mayFailToCompile", () => {
  it.each<[string, unknown]>([
    ["a bound written as text", object({ limit: { type: "integer", maximum: "50" } })],
    ["a draft-4 exclusive bound", object({ n: { type: "number", minimum: 1, exclusiveMinimum: true } })],
    ["an items list under 2020-12", object({ pair: { type: "array", items: [{ type: "string" }] } })],
    ["an empty enum", object({ state: { enum: [] } })],
    ["a type that names no JSON type", object({ id: { type: "uuid" } })],
    ["nullable without type", object({ note: { nullable: true } })],
    ["a reference that resolves nowhere", object({ pet: { $ref: "#/$defs/Missing" } })],
    [
      "a reference to a $defs name the root lacks",
      { ...object({ pet: { $ref: "#/$defs/Pet" } }), $defs: { Owner: { type: "object" } } },
    ],
    [
      "a risk inside a $defs entry",
      { ...object({ pet: { $ref: "#/$defs/Pet" } }), $defs: { Pet: { type: "object", required: "id" } } },
    ],
    ["required that is not a list", { type: "object", required: "id" }],
    ["a deep one in allOf", { allOf: [object({ a: { anyOf: [{ type: "string", minLength: "1" }] } })] }],
  ])("finds %s, which Ajv refuses", (_what, schema) => {
    expect(mayFailToCompile(schema)).toBe(true);
    expect(compiles(schema)).toBe(false);
  });

  it.each<[string, unknown]>([
    ["an empty object schema", { type: "object", properties: {} }],
    [
      "a typical body",
      object({
        name: { type: "string", minLength: 1, maxLength: 100, pattern: "^[a-z][a-z0-9-]*$" },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, uniqueItems: true },
        size: { type: ["integer", "null"], minimum: 0, exclusiveMaximum: 10, default: 3 },
        when: { type: "string", format: "date-time", description: "…", example: "2020-01-01" },
        meta: { type: "object", additionalProperties: { type: "string" }, propertyNames: { maxLength: 5 } },
        either: { oneOf: [{ type: "string" }, { type: "object", required: ["k"] }], discriminator: {} },
      }),
    ],
    [
      "boolean subschemas",
      { type: "object", properties: { any: true, none: false }, additionalProperties: false },
    ],
    [
      "unknown keywords (strict is off)",
      object({ x: { type: "string", "x-internal": { deep: [1] }, xml: {} } }),
    ],
    [
      "local references the root's $defs resolve, recursion included",
      {
        ...object({
          pet: { $ref: "#/$defs/Pet" },
          owners: { type: "array", items: { $ref: "#/$defs/Owner" } },
        }),
        $defs: {
          Pet: object({ name: { type: "string" }, parent: { $ref: "#/$defs/Pet" } }),
          Owner: object({ pets: { type: "array", items: { $ref: "#/$defs/Pet" } } }),
        },
      },
    ],
  ])("passes %s, which Ajv compiles", (_what, schema) => {
    expect(mayFailToCompile(schema)).toBe(false);
    expect(compiles(schema)).toBe(true);
  });

  it("judges a component shared by two tools by each tool's own $defs", () => {
    // The same object under two roots: walked once, the names it needs checked per root.
    const pet = object({ owner: { $ref: "#/$defs/Owner" } });
    const withOwner = { ...object({ pet: { $ref: "#/$defs/Pet" } }), $defs: { Pet: pet, Owner: object({}) } };
    const withoutOwner = { ...object({ pet: { $ref: "#/$defs/Pet" } }), $defs: { Pet: pet } };
    expect([mayFailToCompile(withOwner), compiles(withOwner)]).toEqual([false, true]);
    expect([mayFailToCompile(withoutOwner), compiles(withoutOwner)]).toEqual([true, false]);
  });

  it("compiles a schema nested deeper than the walk goes", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 80; i++) deep = { type: "array", items: deep };
    expect(mayFailToCompile(object({ deep }))).toBe(true);
  });
});
