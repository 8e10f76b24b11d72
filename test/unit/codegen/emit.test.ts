// biome-ignore-all lint/suspicious/noTemplateCurlyInString: hostile spec text, on purpose
/**
 * The pieces of code generation, table-driven: module file names, identifiers, JSON Schema →
 * TypeScript types, and the printer (values keep their exact value, hostile keys included;
 * output that would not parse is refused).
 */
import { runInNewContext } from "node:vm";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { chooseModuleNames, toKebabCase, toPackageName } from "../../../src/generator/codegen/emit/names.js";
import { emitToolModule } from "../../../src/generator/codegen/emit/tool-module.js";
import type { ValueNode } from "../../../src/generator/codegen/print/module-spec.js";
import { createPrinter } from "../../../src/generator/codegen/print/printer.js";
import { valueText } from "../../../src/generator/codegen/print/value-text.js";
import type { JsonSchema, JsonValue, ToolNode } from "../../../src/model/types.js";
import { toIdentifier } from "../../../src/runtime/code/identifiers.js";
import { schemaToType } from "../../../src/runtime/code/schema-types.js";

describe("module file names", () => {
  it.each([
    ["getPetById", "get-pet-by-id"],
    ["agent-tasks_get-task-by-repo-and-id", "agent-tasks-get-task-by-repo-and-id"],
    ["HTMLParser_v2", "html-parser-v2"],
    ["café", "cafe"],
    ["__x__", "x"],
  ])("%s → %s", (name, want) => {
    expect(toKebabCase(name)).toBe(want);
  });

  it("keeps names unique without case, away from device names and the index module", () => {
    const names = [
      "getThing",
      "get_thing",
      "Get-Thing",
      "CON",
      "nul",
      "index",
      "com1",
      "🚀",
      "",
      "get-thing",
    ];
    const modules = chooseModuleNames(names);
    expect(new Set(modules.map((m) => m.toLowerCase())).size).toBe(names.length);
    expect(modules[0]).toBe("get-thing");
    expect(modules[1]).toMatch(/^get-thing-[0-9a-f]{6}$/);
    expect(modules.slice(3, 8)).toEqual(["con-tool", "nul-tool", "index-tool", "com1-tool", "tool"]);
    for (const m of modules) expect(m).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  });

  it("gives the same module to a tool whatever other tools come and go", () => {
    const a = chooseModuleNames(["getThing", "get_thing"]);
    const b = chooseModuleNames(["other", "getThing", "x", "get_thing"]);
    expect([b[1], b[3]]).toEqual(a);
  });

  it("keeps long names under 81 characters, distinct", () => {
    const long = "a".repeat(60) + "B".repeat(60);
    const modules = chooseModuleNames([long, `${long}x`]);
    for (const m of modules) expect(m.length).toBeLessThanOrEqual(80);
    expect(modules[0]).not.toBe(modules[1]);
  });

  it.each([
    ["get-pet-by-id", "getPetById"],
    ["delete", "delete_"],
    ["1st-thing", "_1stThing"],
    ["", "value"],
  ])("identifier of %s is %s", (text, want) => {
    expect(toIdentifier(text, new Set())).toBe(want);
  });

  it("package names are npm-safe", () => {
    expect(toPackageName('Evil `${x}` "API" </script>')).toMatch(/^[a-z0-9][a-z0-9._~-]*$/);
    expect(toPackageName("Swagger Petstore")).toBe("swagger-petstore");
    expect(toPackageName("!!!")).toBe("mcp-server");
  });
});

const printer = createPrinter();

function typeText(schema: JsonValue, defs: Record<string, string> = {}): string {
  const type = schemaToType(schema, { defNames: new Map(Object.entries(defs)) });
  const text = printer.printModule("t.ts", {
    imports: [],
    declarations: [
      ...Object.values(defs).map((name) => ({
        kind: "type" as const,
        name,
        type: { kind: "keyword" as const, name: "string" as const },
      })),
      { kind: "type", name: "T", type },
    ],
  });
  return text
    .slice(text.indexOf("export type T =") + "export type T =".length)
    .trim()
    .replace(/;$/, "");
}

describe("JSON Schema → TypeScript", () => {
  it.each<[string, JsonValue, string]>([
    ["string", { type: "string" }, "string"],
    ["integer", { type: "integer", format: "int64" }, "number"],
    ["nullable", { type: ["string", "null"] }, "string | null"],
    ["enum", { enum: ["a", "b", 1, null] }, '"a" | "b" | 1 | null'],
    ["const", { const: "x" }, '"x"'],
    ["array", { type: "array", items: { type: "boolean" } }, "boolean[]"],
    ["array of unions", { type: "array", items: { type: ["string", "number"] } }, "Array<string | number>"],
    [
      "tuple",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
      "[string, number]",
    ],
    ["free map", { type: "object" }, "Record<string, unknown>"],
    ["typed map", { type: "object", additionalProperties: { type: "integer" } }, "Record<string, number>"],
    ["closed empty", { type: "object", additionalProperties: false }, "Record<string, never>"],
    [
      "object",
      { type: "object", properties: { a: { type: "string" }, "b-c": { type: "number" } }, required: ["a"] },
      '{\n  a: string;\n  "b-c"?: number;\n}',
    ],
    [
      "strict profile: optional ones listed apart are optional",
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: ["number", "null"] } },
        required: ["a", "b"],
        additionalProperties: false,
        "x-omb-optional": ["b"],
      },
      "{\n  a: string;\n  b?: number | null;\n}",
    ],
    ["oneOf", { oneOf: [{ type: "string" }, { type: "integer" }] }, "string | number"],
    ["allOf", { allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] }, "A & B"],
    ["ref", { $ref: "#/$defs/Pet" }, "Pet"],
    ["unknown ref", { $ref: "#/components/schemas/X" }, "unknown"],
    ["true", true, "unknown"],
    ["false", false, "never"],
    ["no type", { description: "anything" }, "unknown"],
    ["long enum", { enum: ["a", "b", "c", "d", "e"] }, '| "a"\n  | "b"\n  | "c"\n  | "d"\n  | "e"'],
    [
      "hostile enum",
      { enum: ['"; x(); "', "*/ x() /*", "`${x()}`"] },
      '"\\"; x(); \\"" | "*/ x() /*" | "`${x()}`"',
    ],
  ])("%s", (_name, schema, want) => {
    expect(typeText(schema, { A: "A", B: "B", Pet: "Pet" })).toBe(want);
  });

  it("turns aliases that only reference each other into unknown", () => {
    const tool = minimalTool({
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      additionalProperties: false,
      $defs: {
        A: { $ref: "#/$defs/B" },
        B: { anyOf: [{ $ref: "#/$defs/A" }, { type: "null" }] },
        C: { type: "array", items: { $ref: "#/$defs/C" } },
      },
    });
    const text = printer.printModule("m.ts", emitToolModule(tool));
    expect(text).toContain("export type A = unknown;");
    expect(text).toContain("export type B = unknown;");
    expect(text).toContain("export type C = C[];");
  });
});

function minimalTool(inputSchema: JsonSchema, name = "t"): ToolNode {
  return {
    name,
    title: name,
    description: "",
    inputSchema,
    annotations: {
      title: name,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: { method: "get", path: "/t", parameters: [], security: [], responses: [], accept: [] },
    source: { pointer: "/paths/~1t/get" },
    tags: [],
    deprecated: false,
  };
}

/** Evaluates a printed value with the TypeScript compiler's JavaScript output, in an empty context. */
function evaluate(text: string): unknown {
  const js = ts.transpileModule(`(${text})`, {
    compilerOptions: { target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return runInNewContext(js, Object.create(null), { timeout: 1000 });
}

describe("printed values", () => {
  it.each<[string, JsonValue]>([
    ["scalars", { a: 1, b: -0.5, c: true, d: null, e: "x", f: 1e21 }],
    ["hostile strings", { "`${x}`": "*/ x /*", '"; x(); "': ["</script>", "\u2028", "\u202e", "a\\"] }],
    [
      "hostile keys",
      JSON.parse(
        '{"__proto__": {"polluted": true}, "constructor": 1, "toString": "x", "": "empty", "1": "one"}',
      ),
    ],
    ["nesting", { a: [[[]], {}, [{ b: [1, 2, 3] }]], long: ["x".repeat(50), "y".repeat(50)] }],
  ])("%s keep their exact value", (_name, value) => {
    // Through JSON, as in a model: `__proto__` is an own key, kept only if printed as one.
    const parsed = JSON.parse(JSON.stringify(value)) as JsonValue;
    const text = valueText(parsed as ValueNode, "");
    const back = evaluate(text) as object;
    expect(JSON.stringify(back)).toBe(JSON.stringify(parsed));
    if (Object.hasOwn(parsed as object, "__proto__")) expect(Object.hasOwn(back, "__proto__")).toBe(true);
  });

  it.each([
    ["an unterminated string", 'export const x = "open;'],
    ["an unterminated comment", "/* open\nexport const x = 1;"],
    ["a template literal", "export const x = `${process.exit(1)}`;"],
    ["unbalanced brackets", "export const x = { a: [1, 2 };"],
    ["a string cut by a line break", 'export const x = "a\nb";'],
    ["an unexpected character", "export const x = #a;"],
    ["a placeholder it did not write", "export const x = \u01c20;"],
  ])("refuses to print a module with %s", (_name, code) => {
    expect(() =>
      printer.printModule("bad.ts", { imports: [], declarations: [{ kind: "code", text: code }] }),
    ).toThrow(/is not well-formed/);
  });

  it("prints the same bytes every time", () => {
    const tool = minimalTool({
      type: "object",
      properties: { a: { type: "string", description: "A" } },
      additionalProperties: false,
    });
    const first = printer.printModule("m.ts", emitToolModule(tool));
    expect(createPrinter().printModule("m.ts", emitToolModule(structuredClone(tool)))).toBe(first);
  });
});
