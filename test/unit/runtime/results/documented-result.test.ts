import { describe, expect, it } from "vitest";
import type { JsonSchema, ToolNode } from "../../../../src/model/types.js";
import { findDocumentedResult, mayBeString } from "../../../../src/runtime/results/documented-result.js";

const tool = (fields: Partial<ToolNode>) => fields as ToolNode;
const RESULT: JsonSchema = { type: "object", properties: { id: { type: "string" } } };
const OUTPUT: JsonSchema = { type: ["object", "null"], properties: { id: {} } };

describe("findDocumentedResult", () => {
  it.each([
    {
      name: "the typed result outline first",
      given: tool({ resultSchema: RESULT, outputSchema: OUTPUT }),
      want: RESULT,
    },
    { name: "else the output schema", given: tool({ outputSchema: OUTPUT }), want: OUTPUT },
    {
      name: "a wrapped answer's result",
      given: tool({
        outputSchema: { type: "object", properties: { result: { type: ["string", "null"] } } },
        outputWrapped: true,
      }),
      want: { type: ["string", "null"] },
    },
    { name: "nothing planned", given: tool({}), want: undefined },
  ])("$name", ({ given, want }) => {
    expect(findDocumentedResult(given)).toEqual(want);
  });
});

describe("mayBeString", () => {
  it.each([
    { schema: { type: "string" }, want: true },
    { schema: { type: ["string", "null"] }, want: true },
    { schema: { type: "object" }, want: false },
    { schema: {}, want: false },
    { schema: undefined, want: false },
  ] as { schema: JsonSchema | undefined; want: boolean }[])("$schema → $want", ({ schema, want }) => {
    expect(mayBeString(schema)).toBe(want);
  });
});
