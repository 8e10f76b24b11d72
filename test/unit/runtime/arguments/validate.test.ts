import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../../src/model/types.js";
import {
  type ArgumentIssue,
  createArgumentValidator,
  formatArgumentIssues,
} from "../../../../src/runtime/arguments/validate.js";

const STATUS = { type: "string", enum: ["available", "pending", "sold"] };

const schema: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1 },
    petId: { type: "integer", minimum: 1 },
    price: { type: "number" },
    active: { type: "boolean" },
    status: STATUS,
    tags: { type: "array", items: { type: "string" } },
    ids: { type: "array", items: { type: "integer" } },
    matrix: { type: "array", items: { type: "array", items: { type: "integer" } } },
    filter: {
      type: "object",
      properties: {
        status: STATUS,
        minAge: { type: "integer" },
        nested: { type: "object", properties: { flag: { type: "boolean" } } },
      },
      additionalProperties: false,
    },
    note: { type: ["string", "null"] },
    count: { type: ["integer", "null"] },
    idOrName: { type: ["string", "integer"] },
    born: { type: "string", format: "date-time" },
    email: { type: "string", format: "email" },
    uuid: { type: "string", format: "uuid" },
    custom: { type: "string", format: "x-made-up" },
    code: { type: "string", pattern: "^[A-Z]{3}$" },
    tree: { $ref: "#/$defs/Node" },
    pet: { oneOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] },
    size: { oneOf: [{ type: "integer" }, { type: "boolean" }] },
    amount: { oneOf: [{ type: "integer" }, { type: "number" }] },
    shape: {
      oneOf: [
        { type: "object", properties: { a: { type: "integer" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
      ],
    },
    owner: { anyOf: [{ $ref: "#/$defs/Owner" }, { type: "null" }] },
    secret: { type: "string", writeOnly: true },
    created: { type: "string", readOnly: true },
    uris: { type: "string", description: "A comma-separated list of Spotify URIs to add." },
    market: { type: "string", description: "A country code." },
    blocks: {
      type: "string",
      description: "A JSON-based array of structured blocks, presented as a URL-encoded string.",
    },
    kind: {
      type: "integer",
      enum: [1, 2, 3, 8],
      description:
        "Meeting Type: 1 - Instant meeting. 2 - Scheduled meeting. 3 - Recurring meeting. 8 - Fixed.",
    },
    level: { type: "integer", enum: [1, 2], description: "How deep: the first is 1." },
  },
  required: ["name"],
  additionalProperties: false,
  $defs: {
    Node: {
      type: "object",
      properties: {
        value: { type: "integer" },
        children: { type: "array", items: { $ref: "#/$defs/Node" } },
      },
      required: ["value"],
    },
    Cat: {
      type: "object",
      properties: { kind: { const: "cat" }, lives: { type: "integer" } },
      required: ["kind", "lives"],
    },
    Dog: {
      type: "object",
      properties: { kind: { const: "dog" }, goodBoy: { type: "boolean" } },
      required: ["kind"],
    },
    Owner: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  },
};

const validate = createArgumentValidator(schema);

function issuesOf(args: unknown): ArgumentIssue[] {
  const result = validate(args);
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  if ("unusable" in result) throw new Error(`expected issues, got an unusable schema: ${result.unusable}`);
  return result.issues;
}

function coercedValue(args: unknown): Record<string, unknown> {
  const result = validate(args);
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.value;
}

describe("coercion", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ["integer from string", { petId: "42" }, { petId: 42 }],
    ["integer from padded string", { petId: " 42 " }, { petId: 42 }],
    ["integer from 4.0", { petId: "4.0" }, { petId: 4 }],
    ["number from string", { price: "4.5" }, { price: 4.5 }],
    ["number from exponent", { price: "1e3" }, { price: 1000 }],
    ["boolean true", { active: "true" }, { active: true }],
    ["boolean false", { active: "false" }, { active: false }],
    ["object from JSON text", { filter: '{"status":"sold"}' }, { filter: { status: "sold" } }],
    ["JSON text then nested coercion", { filter: '{"minAge":"3"}' }, { filter: { minAge: 3 } }],
    [
      "nested object values",
      { filter: { nested: { flag: "false" } } },
      { filter: { nested: { flag: false } } },
    ],
    ["array from JSON text", { tags: '["a","b"]' }, { tags: ["a", "b"] }],
    ["single value wrapped", { tags: "a" }, { tags: ["a"] }],
    ["single string item coerced then wrapped", { ids: "7" }, { ids: [7] }],
    ["single number wrapped", { ids: 7 }, { ids: [7] }],
    ["array of integers from JSON text", { ids: "[1,2]" }, { ids: [1, 2] }],
    ["array items coerced", { ids: ["1", "2"] }, { ids: [1, 2] }],
    ["nested arrays from JSON text", { matrix: "[[1,2],[3]]" }, { matrix: [[1, 2], [3]] }],
    ["nested array items coerced", { matrix: [["1"], [2, "3"]] }, { matrix: [[1], [2, 3]] }],
    ["scalar wrapped twice", { matrix: 5 }, { matrix: [[5]] }],
    ['"null" to null where string is not allowed', { count: "null" }, { count: null }],
    ["nullable integer from string", { count: "5" }, { count: 5 }],
    [
      "recursive $defs",
      { tree: { value: "1", children: [{ value: "2", children: [{ value: "3" }] }] } },
      {
        tree: { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] },
      },
    ],
    [
      "oneOf: the one branch that fits",
      { pet: { kind: "cat", lives: "9" } },
      { pet: { kind: "cat", lives: 9 } },
    ],
    [
      "oneOf: JSON text for the one branch",
      { pet: '{"kind":"dog","goodBoy":"true"}' },
      {
        pet: { kind: "dog", goodBoy: true },
      },
    ],
    ["oneOf integer|boolean: numeric string", { size: "7" }, { size: 7 }],
    ["oneOf integer|boolean: boolean string", { size: "true" }, { size: true }],
    ["oneOf of objects: JSON text only one accepts", { shape: '{"a":"1"}' }, { shape: { a: 1 } }],
    ["anyOf $ref|null: JSON text", { owner: '{"id":"3"}' }, { owner: { id: 3 } }],
    ["anyOf $ref|null: null text", { owner: "null" }, { owner: null }],
    ["string from number (an id sent as a number)", { note: 12345 }, { note: "12345" }],
    ["string from boolean", { note: true }, { note: "true" }],
    ["single number wrapped into an array of strings", { tags: 7 }, { tags: ["7"] }],
    [
      "a list joined where a comma-separated string is asked for",
      { uris: ["a:1", "b:2"] },
      { uris: "a:1,b:2" },
    ],
    ["numbers joined too", { uris: [1, 2] }, { uris: "1,2" }],
    [
      "a list given where a string described as JSON is asked for: its JSON text",
      { blocks: [{ type: "section", text: { type: "mrkdwn", text: "hi" } }] },
      { blocks: '[{"type":"section","text":{"type":"mrkdwn","text":"hi"}}]' },
    ],
    ["an object too", { blocks: { type: "divider" } }, { blocks: '{"type":"divider"}' }],
  ])("%s", (_label, given, want) => {
    expect(coercedValue({ name: "Rex", ...given })).toEqual({ name: "Rex", ...want });
  });

  it.each<[string, Record<string, unknown>]>([
    ['string|null keeps "null"', { note: "null" }],
    ["string|integer keeps a numeric string", { idOrName: "42" }],
    ["string|integer keeps an integer", { idOrName: 42 }],
    ["already an array", { tags: ["x"] }],
    ["nullable null", { note: null, count: null, owner: null }],
    ["readOnly and writeOnly are accepted", { secret: "s3cret", created: "2024-01-01" }],
    [
      "formats that match",
      { born: "2024-01-31T09:30:00Z", email: "a@b.example", uuid: "123e4567-e89b-12d3-a456-426614174000" },
    ],
    ["unknown format ignored", { custom: "anything at all" }],
    ["a comma-separated list given as one string", { uris: "a:1,b:2" }],
    ["JSON already given as text", { blocks: '[{"type":"divider"}]' }],
  ])("no coercion: %s", (_label, given) => {
    expect(coercedValue({ name: "Rex", ...given })).toEqual({ name: "Rex", ...given });
  });

  it.each<[string, Record<string, unknown>, ArgumentIssue[]]>([
    [
      "a list for a string not described as comma-separated",
      { market: ["US", "GB"] },
      [{ argument: "market", message: "expected string, got array of 2 items" }],
    ],
    [
      "an object for a string not described as JSON",
      { market: { code: "US" } },
      [{ argument: "market", message: "expected string, got object" }],
    ],
    [
      "a list whose items hold commas is not joined",
      { uris: ["a,b", "c"] },
      [{ argument: "uris", message: "expected string, got array of 2 items" }],
    ],
    [
      "non-numeric string",
      { petId: "abc" },
      [{ argument: "petId", message: 'expected integer, got string "abc"' }],
    ],
    [
      "fraction for integer",
      { petId: "4.5" },
      [{ argument: "petId", message: 'expected integer, got string "4.5"' }],
    ],
    [
      "hex is not a number",
      { petId: "0x10" },
      [{ argument: "petId", message: 'expected integer, got string "0x10"' }],
    ],
    [
      "unsafe integer",
      { petId: "99999999999999999999" },
      [{ argument: "petId", message: 'expected integer, got string "99999999999999999999"' }],
    ],
    [
      "trailing garbage",
      { price: "12abc" },
      [{ argument: "price", message: 'expected number, got string "12abc"' }],
    ],
    [
      "yes is not a boolean",
      { active: "yes" },
      [{ argument: "active", message: 'expected boolean, got string "yes"' }],
    ],
    [
      "broken JSON text",
      { filter: "{not json" },
      [{ argument: "filter", message: 'expected object, got string "{not json"' }],
    ],
    [
      "JSON text of the wrong kind",
      { filter: "[1]" },
      [{ argument: "filter", message: 'expected object, got string "[1]"' }],
    ],
    [
      "oneOf integer|number is ambiguous",
      { amount: "5" },
      [{ argument: "amount", message: 'must match exactly one of: integer; number; got string "5"' }],
    ],
    [
      "oneOf of objects: JSON text both accept",
      { shape: '{"a":1,"b":"x"}' },
      [
        {
          argument: "shape",
          message:
            'must match exactly one of: object with required a; object with required b; got string "{\\"a\\":1,\\"b\\":\\"x\\"}"',
        },
      ],
    ],
    [
      "wrapping would not help",
      { ids: "abc" },
      [{ argument: "ids", message: 'expected array, got string "abc"' }],
    ],
  ])("refused: %s", (_label, given, want) => {
    expect(issuesOf({ name: "Rex", ...given })).toEqual(want);
  });
});

describe("validation issues", () => {
  it.each<[string, unknown, ArgumentIssue[]]>([
    ["required missing", {}, [{ argument: "name", message: "required argument missing" }]],
    [
      "undefined arguments mean none",
      undefined,
      [{ argument: "name", message: "required argument missing" }],
    ],
    [
      "enum",
      { name: "Rex", status: "gone" },
      [{ argument: "status", message: 'must be one of "available", "pending", "sold"' }],
    ],
    [
      "number codes the description explains: quoted",
      { name: "Rex", kind: 5 },
      [
        {
          argument: "kind",
          message:
            "must be one of 1, 2, 3, 8 (Meeting Type: 1 - Instant meeting. 2 - Scheduled meeting. 3 - Recurring meeting. 8 - Fixed.)",
        },
      ],
    ],
    [
      "number codes it does not explain: not",
      { name: "Rex", level: 5 },
      [{ argument: "level", message: "must be one of 1, 2" }],
    ],
    [
      "nested enum",
      { name: "Rex", filter: { status: "gone" } },
      [{ argument: "filter.status", message: 'must be one of "available", "pending", "sold"' }],
    ],
    [
      "unknown argument with suggestion",
      { name: "Rex", petid: 1 },
      [{ argument: "petid", message: 'unknown argument; did you mean "petId"?' }],
    ],
    [
      "unknown argument, separators ignored",
      { name: "Rex", pet_id: 1 },
      [{ argument: "pet_id", message: 'unknown argument; did you mean "petId"?' }],
    ],
    [
      "unknown nested property",
      { name: "Rex", filter: { statuz: "sold" } },
      [{ argument: "filter.statuz", message: 'unknown property; did you mean "status"?' }],
    ],
    [
      "array item",
      { name: "Rex", tags: ["a", "b", null] },
      [{ argument: "tags[2]", message: "expected string, got null" }],
    ],
    [
      "recursive item",
      { name: "Rex", tree: { value: 1, children: [{ value: "x" }] } },
      [{ argument: "tree.children[0].value", message: 'expected integer, got string "x"' }],
    ],
    [
      "recursive required",
      { name: "Rex", tree: { value: 1, children: [{ children: [] }] } },
      [{ argument: "tree.children[0].value", message: "required property missing" }],
    ],
    ["nullable still typed", { name: null }, [{ argument: "name", message: "expected string, got null" }]],
    ["minimum", { name: "Rex", petId: 0 }, [{ argument: "petId", message: "must be >= 1, got 0" }]],
    ["minLength", { name: "" }, [{ argument: "name", message: "must be at least 1 character long, got 0" }]],
    [
      "pattern",
      { name: "Rex", code: "ab" },
      [{ argument: "code", message: 'must match the pattern "^[A-Z]{3}$", got string "ab"' }],
    ],
    [
      "date-time",
      { name: "Rex", born: "yesterday" },
      [
        {
          argument: "born",
          message: 'expected a date-time (RFC 3339, e.g. "2024-01-31T09:30:00Z"), got string "yesterday"',
        },
      ],
    ],
    [
      "email",
      { name: "Rex", email: "nope" },
      [{ argument: "email", message: 'expected an email address, got string "nope"' }],
    ],
    [
      "uuid",
      { name: "Rex", uuid: "123" },
      [
        {
          argument: "uuid",
          message: 'expected a UUID (e.g. "123e4567-e89b-12d3-a456-426614174000"), got string "123"',
        },
      ],
    ],
    [
      "oneOf: the branch picked by its constant",
      { name: "Rex", pet: { kind: "cat" } },
      [{ argument: "pet.lives", message: "required property missing" }],
    ],
    [
      "oneOf: no branch fits",
      { name: "Rex", pet: { kind: "bird" } },
      [
        {
          argument: "pet",
          message:
            "must match exactly one of: Cat (object with required kind, lives); Dog (object with required kind); got object",
        },
      ],
    ],
    [
      "oneOf: more than one branch matches",
      { name: "Rex", amount: 5 },
      [
        {
          argument: "amount",
          message: "matches more than one alternative (integer; number); it must match exactly one",
        },
      ],
    ],
    [
      "anyOf: the branch picked by type",
      { name: "Rex", owner: { id: "x" } },
      [{ argument: "owner.id", message: 'expected integer, got string "x"' }],
    ],
    [
      "several issues",
      { petId: "abc", status: 1 },
      [
        { argument: "name", message: "required argument missing" },
        { argument: "petId", message: 'expected integer, got string "abc"' },
        { argument: "status", message: 'must be one of "available", "pending", "sold"' },
      ],
    ],
  ])("%s", (_label, args, want) => {
    expect(issuesOf(args)).toEqual(want);
  });

  it("lists the valid arguments when no name is close", () => {
    const small = createArgumentValidator({
      type: "object",
      properties: { limit: { type: "integer" }, offset: { type: "integer" } },
      additionalProperties: false,
    });
    expect(small({ zzzzzz: 1, "line\nbreak": 2 })).toEqual({
      ok: false,
      issues: [
        { argument: "zzzzzz", message: "unknown argument; valid arguments: limit, offset" },
        { argument: '"line\\nbreak"', message: "unknown argument; valid arguments: limit, offset" },
      ],
    });
  });

  it("says when a tool takes no arguments", () => {
    const none = createArgumentValidator({ type: "object", properties: {}, additionalProperties: false });
    expect(none({})).toEqual({ ok: true, value: {} });
    expect(none({ x: 1 })).toEqual({
      ok: false,
      issues: [{ argument: "x", message: "unknown argument; this tool takes no arguments" }],
    });
  });
});

describe("non-object arguments", () => {
  it.each<[string, unknown, string]>([
    ["null", null, "arguments must be an object, got null"],
    ["array", [1, 2], "arguments must be an object, got array of 2 items"],
    ["string", '{"name":"Rex"}', 'arguments must be an object, got string "{\\"name\\":\\"Rex\\"}"'],
    ["number", 3, "arguments must be an object, got number 3"],
  ])("%s", (_label, args, message) => {
    expect(validate(args)).toEqual({ ok: false, issues: [{ argument: "(root)", message }] });
  });
});

describe("prototype pollution", () => {
  it.each<[string, unknown, ArgumentIssue[]]>([
    [
      "top-level __proto__",
      JSON.parse('{"name":"Rex","__proto__":{"polluted":true}}'),
      [{ argument: "__proto__", message: 'property name "__proto__" is not allowed' }],
    ],
    [
      "nested constructor",
      JSON.parse('{"name":"Rex","filter":{"constructor":{"prototype":{"polluted":true}}}}'),
      [{ argument: "filter.constructor", message: 'property name "constructor" is not allowed' }],
    ],
    [
      "prototype inside an array",
      JSON.parse('{"name":"Rex","tree":{"value":1,"children":[{"value":2,"prototype":1}]}}'),
      [{ argument: "tree.children[0].prototype", message: 'property name "prototype" is not allowed' }],
    ],
    [
      "inside JSON text",
      { name: "Rex", filter: '{"__proto__":{"polluted":true}}' },
      [{ argument: "filter.__proto__", message: 'property name "__proto__" is not allowed' }],
    ],
  ])("%s", (_label, args, want) => {
    expect(issuesOf(args)).toEqual(want);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("input handling", () => {
  it("never mutates the caller's arguments", () => {
    const args = {
      name: "Rex",
      petId: "42",
      ids: ["1", "2"],
      filter: { minAge: "3", nested: { flag: "true" } },
      tree: { value: "1", children: [{ value: "2" }] },
      tags: "solo",
    };
    const before = structuredClone(args);
    const value = coercedValue(args);
    expect(args).toEqual(before);
    expect(value).toEqual({
      name: "Rex",
      petId: 42,
      ids: [1, 2],
      filter: { minAge: 3, nested: { flag: true } },
      tree: { value: 1, children: [{ value: 2 }] },
      tags: ["solo"],
    });
    expect(value.filter).not.toBe(args.filter);
  });

  it("returns a copy even when nothing needed coercion", () => {
    const args = { name: "Rex", filter: { status: "sold" } };
    const value = coercedValue(args);
    expect(value).toEqual(args);
    expect(value).not.toBe(args);
    expect(value.filter).not.toBe(args.filter);
  });

  it("drops undefined members like JSON would", () => {
    expect(coercedValue({ name: "Rex", petId: undefined })).toEqual({ name: "Rex" });
  });

  it("refuses cyclic in-process objects instead of recursing forever", () => {
    const open = createArgumentValidator({ type: "object" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = open(cyclic);
    expect(result.ok).toBe(false);
    expect(!result.ok && "issues" in result ? result.issues.map((i) => i.message) : []).toEqual([
      "nested more than 100 levels deep",
    ]);
  });
});

describe("schemas", () => {
  it("ignores patterns JavaScript cannot compile", () => {
    const lenient = createArgumentValidator({
      type: "object",
      properties: { q: { type: "string", pattern: "(?i)^abc$" } },
    });
    expect(lenient({ q: "anything" })).toEqual({ ok: true, value: { q: "anything" } });
  });

  it("handles a recursive oneOf through $defs", () => {
    const expr = createArgumentValidator({
      type: "object",
      properties: { expr: { $ref: "#/$defs/Expr" } },
      $defs: {
        Expr: { oneOf: [{ type: "integer" }, { $ref: "#/$defs/Sum" }] },
        Sum: {
          type: "object",
          properties: { op: { const: "+" }, args: { type: "array", items: { $ref: "#/$defs/Expr" } } },
          required: ["op", "args"],
          additionalProperties: false,
        },
      },
    });
    expect(expr({ expr: { op: "+", args: ["1", { op: "+", args: [2, "3"] }] } })).toEqual({
      ok: true,
      value: { expr: { op: "+", args: [1, { op: "+", args: [2, 3] }] } },
    });
    expect(expr({ expr: { op: "+", args: [1, { op: "+", args: ["x"] }] } })).toEqual({
      ok: false,
      issues: [
        {
          argument: "expr.args[1].args[0]",
          message: 'must match exactly one of: integer; Sum (object with required op, args); got string "x"',
        },
      ],
    });
  });

  it("serves many tools, each compiled once on first use", () => {
    const validators = Array.from({ length: 450 }, (_, i) =>
      createArgumentValidator({
        type: "object",
        properties: { [`p${i}`]: { type: "integer", maximum: i } },
        required: [`p${i}`],
        additionalProperties: false,
      }),
    );
    validators.forEach((check, i) => {
      expect(check({ [`p${i}`]: String(i) })).toEqual({ ok: true, value: { [`p${i}`]: i } });
    });
    expect(validators[449]!({ p449: 450 })).toEqual({
      ok: false,
      issues: [{ argument: "p449", message: "must be <= 449, got 450" }],
    });
    expect(validators[0]!({})).toEqual({
      ok: false,
      issues: [{ argument: "p0", message: "required argument missing" }],
    });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["an unknown type", { f: { type: "file" } }, /type/],
    ["a bound written as text", { limit: { type: "integer", maximum: "50" } }, /maximum/],
  ])(
    "says a schema it cannot compile (%s) is unusable, with the reason, and never throws",
    (_label, properties, why) => {
      const broken = createArgumentValidator({ type: "object", properties } as JsonSchema);
      for (const args of [{}, { limit: 5 }]) {
        const result = broken(args);
        expect(result.ok).toBe(false);
        const reason = "unusable" in result ? result.unusable : "";
        expect(reason).toMatch(/^Cannot compile the tool's input schema: /);
        expect(reason).toMatch(why);
      }
    },
  );
});

describe("formatArgumentIssues", () => {
  it("writes one line per argument and a closing instruction", () => {
    const text = formatArgumentIssues("getPet", [
      { argument: "petId", message: 'expected integer, got string "abc"' },
      { argument: "status", message: "expected string, got number 1" },
      { argument: "status", message: 'must be one of "available", "pending", "sold"' },
      { argument: "name", message: "required argument missing" },
      { argument: "nmae", message: 'unknown argument; did you mean "name"?' },
    ]);
    expect(text).toBe(
      [
        "Invalid arguments for tool getPet:",
        '- petId: expected integer, got string "abc"',
        '- status: expected string, got number 1; must be one of "available", "pending", "sold"',
        "- name: required argument missing",
        '- nmae: unknown argument; did you mean "name"?',
        "Fix the arguments listed above and call getPet again.",
      ].join("\n"),
    );
  });

  it("formats what the validator found", () => {
    expect(formatArgumentIssues("addPet", issuesOf({ nmae: "Rex" }))).toBe(
      [
        "Invalid arguments for tool addPet:",
        "- name: required argument missing",
        '- nmae: unknown argument; did you mean "name"?',
        "Fix the arguments listed above and call addPet again.",
      ].join("\n"),
    );
  });
});
