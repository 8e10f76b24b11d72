/**
 * describe_operations within the budget: an answer that fits is as it was; one that does not is
 * summarised (required first, nested objects as expand pointers, $refs as their $defs pointer)
 * until it fits; a pointer shows one part, in full or summarised; error-status text shared by
 * several operations is said once.
 */
import { describe, expect, it } from "vitest";
import type { JsonSchema, ResultFieldsNode } from "../../../../src/model/types.js";
import {
  expandPointer,
  fitDescribed,
  RETURNS_CHARS,
  SHARED_RESPONSE_TEXT,
  showOperation,
} from "../../../../src/runtime/discovery/describe-budget.js";
import type { DescribedOperation } from "../../../../src/runtime/discovery/describe-result.js";
import { showReturns } from "../../../../src/runtime/discovery/describe-returns.js";

const AMOUNT: JsonSchema = {
  type: "object",
  required: ["value", "currency"],
  properties: { value: { type: "integer" }, currency: { type: "string", minLength: 3, maxLength: 3 } },
};

function nested(groups: number): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    note: { type: "string", description: "A note." },
    amount: { $ref: "#/$defs/Amount" },
    kind: { type: "string", enum: ["a", "b", "c"], description: "Which kind." },
    tags: { type: "array", items: { type: "string" } },
    lines: { type: "array", items: { $ref: "#/$defs/Amount" } },
  };
  for (let i = 0; i < groups; i++) {
    properties[`group${i}`] = {
      type: "object",
      description: `Group ${i}. ${"Explains it at length. ".repeat(20)}`,
      properties: { a: { type: "string" }, b: { type: "integer" } },
    };
  }
  return { type: "object", required: ["amount", "kind"], properties, $defs: { Amount: AMOUNT } };
}

const ERRORS = [
  { status: "401", description: "Unauthorized: bad or expired token." },
  { status: "429", description: "Too many requests." },
];

function operation(name: string, inputSchema: JsonSchema, responses = ERRORS): DescribedOperation {
  return {
    name,
    title: `Does ${name}`,
    method: "POST",
    path: `/${name}`,
    tags: [],
    description: `Does ${name}.`,
    inputSchema,
    responses: [{ status: "200", description: "OK" }, ...responses],
    annotations: {
      title: `Does ${name}`,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    needsConfirmation: false,
  };
}

const size = (value: unknown) => JSON.stringify(value).length;

describe("fitDescribed", () => {
  it("leaves an answer that fits whole, each thing said once", () => {
    const op = operation("small", nested(1));
    expect(fitDescribed([op], 100_000, "describe_operations")).toEqual({
      operations: [
        {
          name: "small",
          method: "POST",
          path: "/small",
          description: "Does small.",
          inputSchema: op.inputSchema,
          responses: {
            "200": "",
            "401": "Unauthorized: bad or expired token.",
            "429": "Too many requests.",
          },
          annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
        },
      ],
    });
  });

  it.each([2000, 4000, 8000])("summarises a large operation until it fits %i characters", (budget) => {
    const op = operation("big", nested(60));
    expect(size(op)).toBeGreaterThan(budget);
    const answer = fitDescribed([op], budget, "describe_operations");
    expect(size(answer)).toBeLessThanOrEqual(budget);
    const schema = answer.operations[0]!.inputSchema as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.required).toEqual(["amount", "kind"]);
    expect(Object.keys(schema.properties).slice(0, 2)).toEqual(["amount", "kind"]);
    expect(schema.properties.amount).toMatchObject({ type: "object", expand: "/inputSchema/$defs/Amount" });
    expect(schema.properties.kind).toMatchObject({ type: "string", enum: ["a", "b", "c"] });
    expect(answer.expand).toContain('"pointer"');
  });

  it("shows nested objects, lists of objects and scalars each in their way", () => {
    const answer = fitDescribed([operation("big", nested(60))], 20_000, "describe_operations");
    const properties = (answer.operations[0]!.inputSchema as { properties: Record<string, unknown> })
      .properties;
    expect(properties.group7).toMatchObject({ type: "object", expand: "/inputSchema/properties/group7" });
    expect(properties.lines).toEqual({
      type: "array",
      items: { type: "object", expand: "/inputSchema/$defs/Amount" },
    });
    expect(properties.tags).toEqual({ type: "array", items: { type: "string" } });
  });

  it("says what a call returns before its responses, shorter as the operation is summarised", () => {
    const wide: ResultFieldsNode = {
      list: true,
      fields: Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`field_${i}`, {}])),
    };
    const full = fitDescribed([{ ...operation("small", nested(1)), resultFields: wide }], 100_000, "x");
    const shown = full.operations[0]!;
    expect(Object.keys(shown).slice(-3)).toEqual(["returns", "responses", "annotations"]);
    expect(shown.returns).toBe(showReturns(wide, RETURNS_CHARS));
    const fitted = fitDescribed([{ ...operation("big", nested(60)), resultFields: wide }], 2000, "x");
    expect(size(fitted)).toBeLessThanOrEqual(2000);
    const returns = fitted.operations[0]!.returns as string;
    expect(returns.length).toBeLessThan((shown.returns as string).length);
    expect(returns).toMatch(/^\[\]\{field_0, field_1, .*…\}$/);
  });

  it("shortens what a call returns before it summarises any schema", () => {
    const wide: ResultFieldsNode = {
      fields: Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`field_${i}`, {}])),
    };
    const op = { ...operation("small", nested(1)), resultFields: wide };
    const full = fitDescribed([op], 100_000, "x");
    const budget = size(full) - 100;
    const fitted = fitDescribed([op], budget, "x");
    expect(size(fitted)).toBeLessThanOrEqual(budget);
    expect(fitted.operations[0]!.inputSchema).toEqual(op.inputSchema);
    expect((fitted.operations[0]!.returns as string).length).toBeLessThan(300);
    expect(fitted).not.toHaveProperty("expand");
  });

  it("names the optional properties it has no room for, each expandable", () => {
    const answer = fitDescribed([operation("big", nested(150))], 3000, "describe_operations");
    expect(size(answer)).toBeLessThanOrEqual(3000);
    const schema = answer.operations[0]!.inputSchema as {
      moreProperties?: { names: string[]; expand: string };
    };
    expect(schema.moreProperties?.names).toContain("group149");
    expect(schema.moreProperties?.expand).toBe("/inputSchema/properties/<name>");
  });

  it("says the error text that several operations share once", () => {
    const answer = fitDescribed(
      [
        operation("one", nested(0)),
        operation("two", nested(0)),
        operation("three", nested(0), [{ status: "401", description: "Other words." }]),
      ],
      100_000,
      "describe_operations",
    );
    // 429 is shared by one and two; 401 differs in three, so it stays with each operation.
    expect(answer.responseTexts).toEqual({ "429": "Too many requests." });
    expect(answer.operations[0]!.responses).toEqual({
      "200": "",
      "401": "Unauthorized: bad or expired token.",
      "429": SHARED_RESPONSE_TEXT,
    });
  });
});

describe("showOperation", () => {
  const base = operation("op", nested(0));
  it.each<[string, Partial<DescribedOperation>, Record<string, unknown>]>([
    [
      "a title the description begins with is not repeated",
      { title: "Do op", description: "Do op. More." },
      {},
    ],
    [
      "a title that is the operation's name in words is not repeated",
      { name: "GET_CreateSecurityGroup", title: "Get create security group", description: "Creates one." },
      {},
    ],
    [
      "a title the description does not begin with is kept, after the path",
      { title: "Pets", description: "Lists them." },
      { title: "Pets" },
    ],
    [
      "the user asked first is said; openWorldHint only when false",
      {
        needsConfirmation: true,
        annotations: { ...base.annotations, openWorldHint: false, destructiveHint: true },
      },
      {
        needsConfirmation: true,
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
    ],
    [
      "a success that is not JSON names its media types; an error's are left out",
      {
        responses: [
          { status: "200", description: "The file", mediaTypes: ["application/pdf"] },
          { status: "201", description: "", mediaTypes: ["text/xml"] },
          { status: "204", description: "Done", mediaTypes: ["application/json"] },
          { status: "404", description: "Not found", mediaTypes: ["text/html"] },
        ],
      },
      {
        responses: {
          "200": "The file (application/pdf)",
          "201": "(text/xml)",
          "204": "",
          "404": "Not found",
        },
      },
    ],
  ])("%s", (_label, change, want) => {
    const shown = showOperation({ ...base, tags: ["pets"], ...change });
    expect(shown).toMatchObject(want);
    expect(shown).not.toHaveProperty("tags");
    expect(Object.keys(shown).slice(0, 3)).toEqual(["name", "method", "path"]);
    if (!("title" in want)) expect(shown).not.toHaveProperty("title");
    if (!("needsConfirmation" in want)) expect(shown).not.toHaveProperty("needsConfirmation");
    expect(shown.annotations).not.toHaveProperty("title");
  });
});

describe("expandPointer", () => {
  const op = operation("big", nested(60));
  it.each([
    ["/inputSchema/$defs/Amount", { type: "object", required: ["value", "currency"] }],
    ["/inputSchema/properties/amount", { type: "object", required: ["value", "currency"] }],
    ["/inputSchema/properties/lines/items", { properties: { currency: { minLength: 3 } } }],
    ["/inputSchema/properties/group3", { properties: { a: { type: "string" } } }],
  ])("%s in full", (pointer, want) => {
    const part = expandPointer(op, pointer, 25_000);
    expect(part).toMatchObject({ summarized: false, schema: want });
  });

  it("summarises a part too large for the budget", () => {
    const part = expandPointer(op, "/inputSchema", 3000);
    expect(part).toMatchObject({ summarized: true });
    expect(size((part as { schema: unknown }).schema)).toBeLessThanOrEqual(3000);
  });

  it("turns $refs into pointers in a part shown in full", () => {
    const part = expandPointer(op, "/inputSchema/properties/lines", 25_000) as { schema: unknown };
    expect(part.schema).toEqual({ type: "array", items: { expand: "/inputSchema/$defs/Amount" } });
  });

  it.each([
    ["/description", /must start with "\/inputSchema"/],
    ["/inputSchema/properties/nope", /names nothing in big's description/],
    ["/outputSchema", /no output schema/],
    ["/returns", /no field names to show/],
  ])("%s: the problem", (pointer, problem) => {
    const part = expandPointer(op, pointer, 25_000);
    expect("problem" in part && part.problem).toMatch(problem);
  });

  describe("/returns: the names of a part of the answer", () => {
    const fieldNames = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field_${i}`, {}]));
    const issues = {
      ...operation("issues", AMOUNT),
      resultFields: {
        list: true as const,
        fields: { number: {}, user: { fields: { login: {}, id: {}, ...fieldNames }, links: ["html_url"] } },
      },
    };
    it.each([
      ["/returns", /^\[\]\{number, user\{login, id, field_0, .*field_29, html_url\}\}$/],
      ["/returns/user", /^\{login, id, field_0, .*field_29, html_url\}$/],
    ])("%s", (pointer, want) => {
      const part = expandPointer(issues, pointer, 25_000);
      expect("returns" in part && part.returns).toMatch(want);
    });

    it("within the budget", () => {
      const part = expandPointer(issues, "/returns/user", 100);
      expect("returns" in part && part.returns.length).toBeLessThanOrEqual(200);
    });

    it("names where it stops", () => {
      const part = expandPointer(issues, "/returns/user/login/x", 25_000);
      expect("problem" in part && part.problem).toMatch(
        /names no field of issues's answer \(it stops at \/returns\/user\/login\)/,
      );
    });
  });
});

describe("the API's options said once", () => {
  const ALT: JsonSchema = {
    type: "string",
    enum: ["json", "media"],
    description: "Data format for response.",
  };
  const withOptions = (name: string, extra: Record<string, JsonSchema> = {}): DescribedOperation => ({
    ...operation(name, {
      type: "object",
      properties: { q: { type: "string" }, alt: ALT, prettyPrint: { type: "boolean" }, ...extra },
    }),
    apiWide: ["alt", "prettyPrint", ...Object.keys(extra)],
  });

  it("takes them out of each input schema and gives their schemas once", () => {
    const answer = fitDescribed([withOptions("a"), withOptions("b")], Number.POSITIVE_INFINITY, "describe");
    expect(answer.apiOptions).toEqual({ alt: ALT, prettyPrint: { type: "boolean" } });
    for (const op of answer.operations) {
      expect(Object.keys((op.inputSchema as JsonSchema).properties as object)).toEqual(["q"]);
      expect(op).not.toHaveProperty("apiWide");
    }
  });

  it("leaves an option that refers to the operation's $defs, or differs between operations, in place", () => {
    const answer = fitDescribed(
      [
        withOptions("a", { fields: { $ref: "#/$defs/Fields" } }),
        { ...withOptions("b"), inputSchema: { type: "object", properties: { alt: { type: "string" } } } },
      ],
      Number.POSITIVE_INFINITY,
      "describe",
    );
    expect(answer.apiOptions).toEqual({ alt: ALT, prettyPrint: { type: "boolean" } });
    const [a, b] = answer.operations.map((op) =>
      Object.keys((op.inputSchema as JsonSchema).properties as object),
    );
    expect(a).toEqual(["q", "fields"]);
    expect(b).toEqual(["alt"]);
  });

  it("is absent when no operation has any", () => {
    expect(
      fitDescribed([operation("a", { type: "object" })], Number.POSITIVE_INFINITY, "describe"),
    ).not.toHaveProperty("apiOptions");
  });
});
