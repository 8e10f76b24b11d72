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

/** `count` option names `prefix0`…: more options than a one-line signature holds. */
function fillers(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

/**
 * The one-line signature of a POST whose JSON body has these documented string properties, in
 * this order (`required` among them), with the operation's other fields (`summary`, parameters).
 */
function bodySignatureOf(
  path: string,
  operation: Record<string, unknown>,
  names: string[],
  required: string[] = [],
): string {
  const properties = Object.fromEntries(
    names.map((name) => [
      name,
      { type: "string", description: `The ${name}, as the API describes it at some length.` },
    ]),
  );
  const schema = { type: "object", ...(required.length > 0 ? { required } : {}), properties };
  return schemaBodySignatureOf(path, operation, schema);
}

/**
 * The one-line signature of an operation whose JSON body has `schema` (a POST answering 201
 * unless `method` and `responses` say otherwise), with the document's `components`.
 */
function schemaBodySignatureOf(
  path: string,
  operation: Record<string, unknown>,
  schema: Record<string, unknown>,
  {
    method = "post",
    responses = { "201": { description: "Created" } },
    components,
  }: { method?: string; responses?: Record<string, unknown>; components?: Record<string, unknown> } = {},
): string {
  const model = planSpec({
    paths: {
      [path]: {
        [method]: { ...operation, requestBody: { content: { "application/json": { schema } } }, responses },
      },
    },
    ...(components !== undefined ? { components } : {}),
  });
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
    ["label", true],
    ["labels", false],
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
    ["startDateTime", true],
    ["end", true],
    ["start_at", true],
    ["startup", false],
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
      ...fillers("showOption", 14),
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
    const line = bodySignatureOf("/users", { operationId: "createUser" }, [
      ...names,
      ...fillers("setting", 10),
      "displayName",
    ]);
    expect(line).toMatch(/^createUser\(args\?: \{ displayName\?: string; aboutMe\?: string;/);
    expect(line).not.toMatch(/@odata\.type.*\/\* \+/);
  });

  it("show what names the thing made right after the required arguments (Zoom's meeting topic)", () => {
    const options = ["agenda", "duration", "password", "pre_schedule", "recurrence", "schedule_for"];
    const line = bodySignatureOf(
      "/users/{userId}/meetings",
      {
        operationId: "meetingCreate",
        parameters: [{ name: "userId", in: "path", required: true, schema: { type: "string" } }],
      },
      [...options, ...fillers("setting", 10), "topic"],
    );
    expect(line).toMatch(/^meetingCreate\(args: \{ userId: string; topic\?: string; agenda\?: string;/);
  });

  it.each([
    ["Creates a completion for the provided prompt and parameters", true],
    ["Creates a completion for the provided prompts", true],
    ["Creates a completion", false],
  ])("show an optional argument the title names early: %s → %s", (summary, early) => {
    const names = ["best_of", "echo", "frequency_penalty", "logit_bias", "logprobs", "max_tokens", "n"];
    const line = bodySignatureOf(
      "/completions",
      { operationId: "createCompletion", summary },
      ["model", ...names, ...fillers("setting", 8), "prompt"],
      ["model"],
    );
    expect(line.startsWith("createCompletion(args: { model: string; prompt?: string;")).toBe(early);
  });
});

describe("one-line argument lists of a thing made, with the times the API stamps", () => {
  it("show those stamps after the other documented options (Graph's event)", () => {
    const options = ["categories", "createdDateTime", "lastModifiedDateTime", "updated_at", "importance"];
    const line = bodySignatureOf("/me/events", { operationId: "createEvent" }, [
      ...options,
      ...fillers("setting", 10),
    ]);
    expect(line).toMatch(
      /^createEvent\(args\?: \{ categories\?: string; importance\?: string; setting0\?: string;/,
    );
  });
});

describe("one-line argument lists of Graph's nullable references", () => {
  it("name the type without an object of any properties beside it", () => {
    const schema = {
      type: "object",
      properties: {
        body: { anyOf: [{ $ref: "#/components/schemas/ItemBody" }, { type: "object", nullable: true }] },
        extra: { type: "object" },
      },
    };
    const components = {
      schemas: {
        ItemBody: {
          type: "object",
          properties: { content: { type: "string" }, contentType: { type: "string" } },
        },
      },
    };
    const line = schemaBodySignatureOf("/me/events", { operationId: "createEvent" }, schema, { components });
    expect(line).toContain("body?: ItemBody | null; extra?: Record<string, unknown>");
  });
});

describe("one-line argument lists of a message", () => {
  it("show who it is from right after what is required (Twilio's CreateMessage)", () => {
    const options = [
      "AddressRetention",
      "ApplicationSid",
      "Attempt",
      "ContentRetention",
      ...fillers("Setting", 10),
      "From",
    ];
    const line = bodySignatureOf(
      "/Messages.json",
      { operationId: "CreateMessage" },
      ["To", "Body", ...options],
      ["To"],
    );
    expect(line).toMatch(/^CreateMessage\(args: \{ To: string; From\?: string; Body\?: string;/);
  });
});

describe("one-line argument lists that fit whole", () => {
  it("still put the required arguments first", () => {
    const line = bodySignatureOf(
      "/users",
      { operationId: "createUser" },
      ["avatar", "email", "name"],
      ["email"],
    );
    expect(line).toMatch(/^createUser\(args: \{ email: string; avatar\?: string; name\?: string \}\)/);
  });
});

describe("one-line argument lists of a thing made", () => {
  it.each([
    ["description", true],
    ["body", true],
    ["text", true],
    ["milestone_id", false],
  ])("show what it says early (GitLab's issue description): %s → %s", (name, early) => {
    const options = [
      "created_at",
      "merge_request_for_resolving_discussions",
      "assignee_id",
      ...fillers("setting", 8),
    ];
    const line = bodySignatureOf(
      "/projects/{id}/issues",
      { operationId: "createIssue" },
      ["title", ...options, name],
      ["title"],
    );
    expect(line.startsWith(`createIssue(args: { id: string; title: string; ${name}?: string;`)).toBe(early);
  });
});

describe("one-line argument lists with an option too long to show", () => {
  it("name it and still show the shorter options after it (Linode's updateLinodeInstance)", () => {
    const long = {
      type: "object",
      description: "Alert thresholds.",
      properties: Object.fromEntries(
        fillers("threshold_of_an_alert_", 12).map((name) => [name, { type: "number" }]),
      ),
    };
    const schema = {
      type: "object",
      properties: {
        alerts: long,
        backups: long,
        group: { type: "string", description: "A group." },
        label: { type: "string", description: "Its label." },
        tags: { type: "array", items: { type: "string" }, description: "Its tags." },
      },
    };
    const line = schemaBodySignatureOf(
      "/instances/{id}",
      {
        operationId: "updateInstance",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      },
      schema,
      { method: "put", responses: { "200": { description: "OK" } } },
    );
    expect(line).toMatch(
      /^updateInstance\(args: \{ id: number; label\?: string; group\?: string; tags\?: string\[\]; \/\* \+2 more: alerts, backups \*\/ \}\)/,
    );
  });

  it("show the one left out clipped when it is an object and there is room (Box's add shared link)", () => {
    const schema = {
      type: "object",
      properties: {
        fields: { type: "string", description: "Fields to return." },
        shared_link: {
          type: "object",
          properties: {
            access: { type: "string", enum: ["open", "company", "collaborators"] },
            ...Object.fromEntries(
              fillers("permission_setting_", 12).map((name) => [name, { type: "boolean" }]),
            ),
          },
        },
      },
    };
    const line = schemaBodySignatureOf(
      "/folders/{id}",
      {
        operationId: "addSharedLink",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      },
      schema,
      { method: "put", responses: { "200": { description: "OK" } } },
    );
    expect(line).toMatch(
      /^addSharedLink\(args: \{ id: string; fields\?: string; shared_link\?: \{ access\?: "open" \| "company" \| "collaborators";/,
    );
    expect(line).not.toContain("more: shared_link");
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
