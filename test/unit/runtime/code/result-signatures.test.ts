/**
 * Code mode's one-line result types show what an agent reads an answer for: the fields that
 * identify the resource, and a page's list of items clipped rather than left out for its length.
 */
import { describe, expect, it } from "vitest";
import { isIdentityField } from "../../../../src/model/field-roles.js";
import { createSignatures } from "../../../../src/runtime/code/signatures.js";
import { planSpec } from "../../../e2e/safety-support.js";

/** `count` string fields named `f00`…, in alphabetical order as Google's specs list them. */
function manyFields(count: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...extra };
  for (let i = 0; i < count; i++) fields[`aField${String(i).padStart(2, "0")}`] = { type: "string" };
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const EVENT = {
  type: "object",
  properties: manyFields(30, { id: { type: "string" }, summary: { type: "string" } }),
};
const REMINDER = { type: "object", properties: { method: { type: "string" }, minutes: { type: "integer" } } };

function signatureOf(schema: unknown): string {
  const model = planSpec(
    {
      paths: {
        "/things": {
          get: {
            operationId: "listThings",
            responses: { "200": { description: "OK", content: { "application/json": { schema } } } },
          },
        },
      },
    },
    { resultSchemas: true },
  );
  return createSignatures().signatureOf(model.tools[0]!);
}

describe("one-line result types", () => {
  const cases: { label: string; schema: unknown; shows: RegExp[]; hides?: RegExp[] }[] = [
    {
      label: "a resource of many alphabetical fields shows its id and summary",
      schema: EVENT,
      shows: [/Promise<\{ id\?: string; summary\?: string;/],
    },
    {
      label: "a resource's name comes before its status (Calendar's event: status, then summary)",
      schema: {
        type: "object",
        properties: manyFields(30, {
          id: { type: "string" },
          status: { type: "string" },
          summary: { type: "string" },
        }),
      },
      shows: [/Promise<\{ id\?: string; summary\?: string; status\?: string;/],
    },
    {
      label: "a page with two lists shows the one named items, clipped, and names the fields left out",
      schema: {
        type: "object",
        properties: {
          accessRole: { type: "string" },
          defaultReminders: { type: "array", items: REMINDER },
          description: { type: "string" },
          etag: { type: "string" },
          items: { type: "array", items: EVENT },
          kind: { type: "string" },
          nextPageToken: { type: "string" },
          summary: { type: "string" },
          timeZone: { type: "string" },
        },
      },
      shows: [/items\?: \{ id\?: string; summary\?: string;[^}]*\}\[\]/, /more: accessRole/],
    },
    {
      label: "an envelope of one resource (Asana's data) shows the identity fields inside it",
      schema: {
        type: "object",
        properties: {
          data: {
            type: "object",
            properties: manyFields(14, { gid: { type: "string" }, name: { type: "string" } }),
          },
        },
      },
      shows: [/Promise<\{ data\?: \{ gid\?: string; name\?: string;/],
    },
    {
      label: "a success's problems (Square's errors) come after the data",
      schema: {
        type: "object",
        properties: {
          errors: {
            type: "array",
            items: { type: "object", properties: { category: { type: "string" }, code: { type: "string" } } },
          },
          customer: { type: "object", properties: manyFields(20, { id: { type: "string" } }) },
        },
      },
      shows: [/Promise<\{ customer\?: \{ id\?: string;/, /more: errors/],
    },
    {
      label: "a resource whose fields are all required (Vimeo's video) is clipped like any other",
      schema: {
        type: "object",
        required: ["uri", ...Object.keys(manyFields(30))],
        properties: manyFields(30, { uri: { type: "string" } }),
      },
      shows: [/^listThings\(args\?: \{\}\): Promise<\{ [^}]{0,160}\/\* \+\d+ more: /],
    },
    {
      label:
        "an answer of several long pages (Spotify's search) shows the first clipped, its list of items first",
      schema: {
        type: "object",
        properties: Object.fromEntries(
          ["albums", "artists", "episodes", "playlists", "shows", "tracks"].map((name) => [
            name,
            {
              type: "object",
              properties: {
                href: { type: "string" },
                limit: { type: "integer" },
                next: { type: "string" },
                offset: { type: "integer" },
                total: { type: "integer" },
                items: { type: "array", items: { allOf: [EVENT, REMINDER] } },
              },
            },
          ]),
        ),
      },
      shows: [/Promise<\{ albums\?: \{ items\?: \{ id\?: string;/, /\/\* \+5 more: artists/],
    },
  ];
  for (const { label, schema, shows } of cases) {
    it(label, () => {
      const line = signatureOf(schema);
      for (const pattern of shows) expect(line).toMatch(pattern);
      // Every field left out is still named or counted.
      expect(line).toMatch(/\/\* \+\d+ more: /);
    });
  }
});

describe("isIdentityField", () => {
  const cases: [string, boolean][] = [
    ["id", true],
    ["ID", true],
    ["gid", true],
    ["InvoiceID", true],
    ["userId", true],
    ["user_id", true],
    ["summary", true],
    ["uri", true],
    ["topic", true],
    ["subject", true],
    ["displayName", true],
    ["display_name", true],
    ["paid", false],
    ["valid", false],
    ["Idle", false],
    ["description", false],
  ];
  for (const [name, want] of cases) it(`${name} → ${want}`, () => expect(isIdentityField(name)).toBe(want));
});

describe("one-line argument lists", () => {
  it("show a list's query and page size before its other options", () => {
    const names = [
      "corpora",
      "corpus",
      "driveId",
      "includeLabels",
      "orderBy",
      "pageSize",
      "pageToken",
      "q",
      "spaces",
    ];
    const extra = Array.from({ length: 14 }, (_, i) => `supportsOption${i}`);
    const model = planSpec({
      paths: {
        "/files": {
          get: {
            operationId: "files_list",
            parameters: [...names, ...extra].map((name) => ({
              name,
              in: "query",
              description: `The ${name} option of the listing, as the API describes it.`,
              schema: name === "pageSize" ? { type: "integer" } : { type: "string" },
            })),
            responses: { "200": { description: "OK" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(model.tools[0]!);
    expect(line).toMatch(/^files_list\(args\?: \{ pageSize\?: number; q\?: string;/);
  });

  it.each([
    ["timeMax", true],
    ["timeMin", true],
    ["since", true],
    ["until", true],
    ["start_date", true],
    ["endTime", true],
    ["created_after", true],
    ["updatedSince", true],
    ["date_from", true],
    ["timeZone", false],
    ["startIndex", false],
    ["creator", false],
    ["afterword", false],
  ])("name a time window's bound %s first: %s", (name, first) => {
    // More options than a line holds, in the spec's alphabetical order.
    const options = [
      "alwaysIncludeEmail",
      "eventTypes",
      "iCalUID",
      "maxAttendees",
      "orderBy",
      "pageToken",
      ...Array.from({ length: 14 }, (_, i) => `showOption${i}`),
    ];
    const model = planSpec({
      paths: {
        "/events": {
          get: {
            operationId: "events_list",
            parameters: [...options, name].map((option) => ({
              name: option,
              in: "query",
              description: `The ${option} option of the listing, as the API describes it at some length.`,
              schema: { type: "string" },
            })),
            responses: { "200": { description: "OK" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(model.tools[0]!);
    expect(line.startsWith(`events_list(args?: { ${name}?: string;`)).toBe(first);
  });

  it("show annotations (Graph's @odata.type, filled from its default) after every other argument", () => {
    const names = ["@odata.type", "aboutMe", "accountEnabled", "ageGroup", "birthday", "city", "country"];
    const properties = Object.fromEntries(
      [...names, ...Array.from({ length: 10 }, (_, i) => `setting${i}`), "displayName"].map((name) => [
        name,
        { type: "string", description: `The user's ${name}, as the API describes it at some length.` },
      ]),
    );
    const model = planSpec({
      paths: {
        "/users": {
          post: {
            operationId: "createUser",
            requestBody: { content: { "application/json": { schema: { type: "object", properties } } } },
            responses: { "201": { description: "Created" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(model.tools[0]!);
    expect(line).toMatch(/^createUser\(args\?: \{ displayName\?: string; aboutMe\?: string;/);
    expect(line).not.toMatch(/@odata\.type.*\/\* \+/);
  });

  it("show what names the thing made right after the required arguments (Zoom's meeting topic)", () => {
    const options = ["agenda", "duration", "password", "pre_schedule", "recurrence", "schedule_for"];
    const properties = Object.fromEntries(
      [...options, ...Array.from({ length: 10 }, (_, i) => `setting${i}`), "topic"].map((name) => [
        name,
        { type: "string", description: `The meeting's ${name}, as the API describes it at some length.` },
      ]),
    );
    const model = planSpec({
      paths: {
        "/users/{userId}/meetings": {
          post: {
            operationId: "meetingCreate",
            parameters: [{ name: "userId", in: "path", required: true, schema: { type: "string" } }],
            requestBody: { content: { "application/json": { schema: { type: "object", properties } } } },
            responses: { "201": { description: "Created" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(model.tools[0]!);
    expect(line).toMatch(/^meetingCreate\(args: \{ userId: string; topic\?: string; agenda\?: string;/);
  });

  it.each([
    ["Creates a completion for the provided prompt and parameters", true],
    ["Creates a completion for the provided prompts", true],
    ["Creates a completion", false],
  ])("show an optional argument the title names early: %s → %s", (summary, early) => {
    const names = ["best_of", "echo", "frequency_penalty", "logit_bias", "logprobs", "max_tokens", "n"];
    const properties = Object.fromEntries(
      [...names, ...Array.from({ length: 8 }, (_, i) => `setting${i}`), "prompt"].map((name) => [
        name,
        {
          type: "string",
          description: `The ${name} of the completion, as the API describes it at some length.`,
        },
      ]),
    );
    const model = planSpec({
      paths: {
        "/completions": {
          post: {
            operationId: "createCompletion",
            summary,
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["model"],
                    properties: { model: { type: "string" }, ...properties },
                  },
                },
              },
            },
            responses: { "200": { description: "OK" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(model.tools[0]!);
    expect(line.startsWith("createCompletion(args: { model: string; prompt?: string;")).toBe(early);
  });
});

describe("a sole long argument of intersections (DigitalOcean's droplet create: one droplet or several)", () => {
  it("is clipped member by member as the objects they describe", () => {
    // Two bases that differ, so the planner writes them inline rather than as one shared type.
    const base = (prefix: string) => ({
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`${prefix}_setting_number_${i}`, { type: "string" }]),
      ),
    });
    const single = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
    const several = {
      type: "object",
      required: ["names"],
      properties: { names: { type: "array", items: { type: "string" } } },
    };
    const model = planSpec({
      paths: {
        "/droplets": {
          post: {
            operationId: "droplets_create",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: { anyOf: [{ allOf: [single, base("one")] }, { allOf: [several, base("many")] }] },
                },
              },
            },
            responses: { "202": { description: "Accepted" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(model.tools[0]!);
    expect(line.length).toBeLessThan(420);
    expect(line).toContain("name: string");
    expect(line).toContain("names: string[]");
    expect(line).toMatch(/\/\* \+\d+ more: /);
  });
});

describe("a union of pages (a tight share each)", () => {
  it("still names each page's list, shown or left out", () => {
    const page = (prefix: string) => ({
      type: "object",
      properties: {
        nextPageToken: { type: "string" },
        items: {
          type: "array",
          items: { type: "object", properties: manyFields(12, { [`${prefix}Id`]: { type: "string" } }) },
        },
        ...Object.fromEntries(
          Array.from({ length: 6 }, (_, i) => [`${prefix}_meta_${i}`, { type: "string" }]),
        ),
      },
    });
    const line = signatureOf({ anyOf: [page("one"), page("two")] });
    // Each member's fields are all accounted for: shown, or counted in its note.
    expect(line.match(/items/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });
});
