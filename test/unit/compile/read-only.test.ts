/**
 * Properties the API writes and never reads: OpenAPI's readOnly, or Google's prose markers
 * ("Output only.", "[Output Only]", a closing "Read-only."), left out of input schemas.
 */
import { describe, expect, it } from "vitest";
import { SchemaConverter } from "../../../src/generator/compile/json-schema.js";
import { isReadOnlySchema } from "../../../src/generator/compile/read-only.js";

describe("isReadOnlySchema", () => {
  const cases: [unknown, boolean][] = [
    [{ type: "string", readOnly: true }, true],
    [{ type: "string", description: "Output only. The time the instance was created." }, true],
    [{ type: "string", description: "[Output Only] Creation timestamp in RFC3339 text format." }, true],
    [
      { type: "string", description: "Creation time of the event (as a RFC3339 timestamp). Read-only." },
      true,
    ],
    [{ type: "string", description: "Description of the calendar. Optional. Read-only." }, true],
    [{ type: "string", description: "The number of tasks. Output only." }, true],
    [{ type: "array", description: "The user's calendars. Read-only. Nullable." }, true],
    [{ type: "string", description: "The unique identifier. Read-only. Supports $filter (eq)." }, true],
    [{ type: "string", description: "Whether the file is read-only. Set it to lock the file." }, false],
    [{ type: "boolean", description: "Whether the calendar is read-only." }, false],
    [{ type: "string", description: "Read-only mode of the disk: READ_WRITE or READ_ONLY." }, false],
    [{ type: "string", description: "Output only if the caller asks for it, else input." }, false],
    [{ type: "string", readOnly: false }, false],
    ["nonsense", false],
  ];
  for (const [schema, want] of cases) {
    it(`${JSON.stringify(schema)} → ${want}`, () => expect(isReadOnlySchema(schema)).toBe(want));
  }
});

describe("input schemas leave out properties marked output only", () => {
  it("an open object drops them and their required entries", () => {
    const converter = new SchemaConverter({ document: {}, openapi30: true, descriptionBudget: 60 });
    const converted = converter.convert(
      {
        type: "object",
        required: ["id", "summary"],
        properties: {
          id: { type: "string", description: "Output only. Server-assigned id." },
          summary: { type: "string", description: "Title of the event." },
        },
      },
      new Set(),
    );
    expect(converted).toEqual({
      type: "object",
      required: ["summary"],
      properties: { summary: { type: "string", description: "Title of the event." } },
    });
  });
});
