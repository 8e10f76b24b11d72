import { describe, expect, it } from "vitest";
import { DEFAULT_DESCRIPTION_BUDGET } from "../../../src/generator/compile/budgets.js";
import { describeResourceAction } from "../../../src/generator/compile/describe.js";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import { cleanProse, compactDescription, fitText } from "../../../src/generator/compile/text.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";

function toolFor(operation: Record<string, unknown>, path = "/pets/{petId}", method = "get") {
  const loaded = {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { [path]: { [method]: { responses: { "200": { description: "ok" } }, ...operation } } },
    },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded).tools[0]!;
}

describe("cleanProse", () => {
  it.each([
    { given: "<p>Hello <b>world</b></p>", want: "Hello world" },
    { given: "Use [the filter](https://x.example/g) to narrow", want: "Use the filter to narrow" },
    { given: "Use `per_page` and **page**.", want: "Use per_page and page." },
    { given: 'Lists pets. For more information, see "[Paging](https://x/p)."', want: "Lists pets." },
    { given: "Line one<br/>Line two", want: "Line one\nLine two" },
    { given: "A &amp; B &lt;tag&gt;", want: "A & B <tag>" },
    { given: "# Heading\n\nBody\n\n\n\nMore", want: "Heading\n\nBody\n\nMore" },
    { given: "![logo](x.png)Text", want: "Text" },
    { given: undefined, want: "" },
  ])("$given", ({ given, want }) => {
    expect(cleanProse(given)).toBe(want);
  });
});

describe("fitText and compactDescription", () => {
  it("keeps text within the budget, cutting at a sentence or a word", () => {
    const text = "First sentence here. Second sentence is longer than the budget allows for sure.";
    expect(fitText(text, 200)).toBe(text);
    expect(fitText(text, 30)).toBe("First sentence here.");
    expect(fitText("word ".repeat(40), 20)).toBe("word word word…");
    expect(fitText("x".repeat(50), 10)).toHaveLength(10);
  });
  it.each([
    {
      text: "Searches places (e.g. Paris. Or London) nearby. More words here.",
      budget: 60,
      want: "Searches places (e.g. Paris. Or London) nearby.",
    },
    {
      text: "Searches places, e.g. Paris or London and other big cities too.",
      budget: 40,
      want: "Searches places, e.g. Paris or London…",
    },
  ])("never cuts at an abbreviation or inside parentheses: $want", ({ text, budget, want }) => {
    expect(fitText(text, budget)).toBe(want);
  });
  it.each([
    // Fits the budget and is short: kept whole.
    {
      given: "The account owner of the repository. The name is not case sensitive.",
      want: "The account owner of the repository. The name is not case sensitive.",
    },
    // Too long to keep whole: the first sentence.
    {
      given: `The account owner of the repository. ${"The name is not case sensitive. ".repeat(3)}`,
      want: "The account owner of the repository.",
    },
    // No sentence ends at an abbreviation or inside parentheses.
    {
      given: `The location to search around (e.g. Paris. Or a postcode). ${"Later caveats here. ".repeat(4)}`,
      want: "The location to search around (e.g. Paris. Or a postcode).",
    },
    {
      given: `Filter by name, i.e. The display name. ${"Later caveats here. ".repeat(4)}`,
      want: "Filter by name, i.e. The display name.",
    },
    {
      given: `Works with Zapier, Slack, etc. Not with IFTTT vs. Others. ${"Later caveats here. ".repeat(4)}`,
      want: "Works with Zapier, Slack, etc. Not with IFTTT vs. Others.",
    },
    {
      given: `Sort by house No. 5 first. ${"Later caveats here. ".repeat(4)}`,
      want: "Sort by house No. 5 first.",
    },
    // A lead that announces a list keeps the list when it fits.
    {
      given: `You can filter the results:\n- by name\n- by date. ${"Later caveats here. ".repeat(4)}`,
      want: "You can filter the results: - by name - by date.",
    },
    // A stray parenthesis does not swallow every sentence end.
    {
      given: `Lists items (see below. Then more words follow here. ${"Later caveats here. ".repeat(4)}`,
      want: "Lists items (see below. Then more words follow here.",
    },
    {
      given: "The org name. The name is not case sensitive.",
      want: "The org name. The name is not case sensitive.",
    },
    {
      given: "Page size (max 100). For more information, see [Paging](https://x).",
      want: "Page size (max 100).",
    },
  ])("$given → $want", ({ given, want }) => {
    expect(compactDescription(given, 100)).toBe(want);
  });
});

describe("tool descriptions", () => {
  it("never reads undefined: no summary or description gives a sentence about the resource", () => {
    const tool = toolFor({ tags: ["pets"] });
    // A 200 with no content documented is an undocumented answer: nothing said of it.
    expect(tool.description).toBe("Read one pet by petId.");
    expect(toolFor({ tags: ["pets"], responses: { "204": { description: "gone" } } }).description).toBe(
      "Read one pet by petId.\nReturns no content.",
    );
    expect(tool.title).toBe("GET /pets/{petId}");
  });

  it.each([
    {
      // Zoom: the description's first sentence goes on from the summary.
      summary: "Create a meeting",
      description: "[Create a meeting](https://x/m) for a user. \nThis API has a daily rate limit.",
      want: "Create a meeting for a user.\nThis API has a daily rate limit.",
    },
    {
      summary: "Create a meeting",
      description: "Create a meeting. It starts at once.",
      want: "Create a meeting.\nIt starts at once.",
    },
    {
      summary: "List pets",
      description: "List pets\nPaged by cursor.",
      want: "List pets.\nPaged by cursor.",
    },
  ])("a description that begins with the summary: $want", ({ summary, description, want }) => {
    const tool = toolFor({ summary, description }, "/meetings", "post");
    expect(tool.description).toBe(want);
  });

  it("leads with the summary, then the cleaned description; no list of error statuses", () => {
    const tool = toolFor({
      summary: "Get a pet",
      description: "<p>Returns one pet.</p> See [docs](https://x).",
      responses: {
        "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        "404": { description: "missing" },
      },
    });
    // "See docs." only points elsewhere: dropped. A failed call's result gives its status and
    // what to do, so the documented 404 is not listed.
    expect(tool.description).toBe("Get a pet.\nReturns one pet.");
  });

  it("says what a tool without an output schema returns", () => {
    const tool = toolFor({
      summary: "Download",
      responses: { "200": { description: "ok", content: { "text/csv": {} } } },
    });
    expect(tool.description).toBe("Download.\nReturns text/csv.");
  });

  it("marks deprecated operations and uses the first sentence when there is no summary", () => {
    const tool = toolFor({ deprecated: true, description: "Fetches a pet. Slowly and with care." });
    expect(tool.description.startsWith("Deprecated. Fetches a pet.")).toBe(true);
  });

  it("gives the result's shorter form, not the prose, the room when the fields do not fit", () => {
    const loaded = {
      document: {
        openapi: "3.0.3",
        info: { title: "T", version: "1" },
        paths: {
          "/pets": {
            get: {
              summary: "List pets",
              description: "Every pet in the store, oldest first, including the ones already sold.",
              responses: {
                "200": {
                  description: "ok",
                  content: {
                    "application/json": {
                      schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } },
                    },
                  },
                },
              },
            },
          },
        },
        components: { schemas: { Pet: petSchema } },
      },
      specVersion: "3.0",
      source: "spec.yaml",
      diagnostics: [],
    } as unknown as LoadedSpec;
    const tool = planModel(loaded, { descriptionBudget: 60 }).tools[0]!;
    expect(tool.description).toBe("List pets.\nReturns a list of Pet.");
  });

  it("keeps a huge description within the budget: the summary, the prose, what is left for the rest", () => {
    const tool = toolFor({
      summary: "Big",
      description: "Lorem ipsum dolor sit amet. ".repeat(500),
      responses: { "204": { description: "ok" }, "404": { description: "missing" } },
    });
    expect(tool.description.length).toBeLessThanOrEqual(DEFAULT_DESCRIPTION_BUDGET);
    expect(tool.description).toMatch(/^Big\. Read-only\.\nLorem ipsum/);
    expect(tool.description.endsWith(" amet.\nReturns no content.")).toBe(true);
  });
});

const petSchema = {
  type: "object",
  required: ["name"],
  properties: {
    id: { type: "integer" },
    name: { type: "string", example: "doggie" },
    status: { type: "string" },
    self_url: { type: "string" },
    tag: { type: "string" },
    owner: { type: "string" },
    age: { type: "integer" },
    color: { type: "string" },
  },
};

function toolWith(
  paths: Record<string, unknown>,
  components: Record<string, unknown> = {},
  outputSchemas = false,
  descriptionBudget?: number,
) {
  const loaded = {
    document: { openapi: "3.0.3", info: { title: "T", version: "1" }, paths, components },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded, {
    outputSchemas,
    ...(descriptionBudget !== undefined ? { descriptionBudget } : {}),
  }).tools[0]!;
}

describe("the spec's words before the bridge's", () => {
  // Spotify's `search`: the human text was cut after 7 words while "Errors: 401, 403, 429." stayed.
  it("a long description keeps its first sentence; field lists take what is left", () => {
    const prose =
      "Get Spotify catalog information about albums, artists, playlists, tracks, shows, episodes or audiobooks that match a keyword string. Audiobooks are only available within the US, UK, Canada, Ireland, New Zealand and Australia markets.";
    const fields = Object.fromEntries(
      ["albums", "artists", "audiobooks", "episodes", "playlists", "shows", "tracks"].map((name) => [
        name,
        { type: "object" },
      ]),
    );
    const tool = toolWith(
      {
        "/search": {
          get: {
            summary: "Search for Item",
            description: prose,
            parameters: [
              { name: "q", in: "query", required: true, schema: { type: "string" } },
              { name: "limit", in: "query", schema: { type: "integer" } },
              { name: "offset", in: "query", schema: { type: "integer" } },
            ],
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { type: "object", properties: fields } } },
              },
              "401": { description: "no" },
              "403": { description: "no" },
              "429": { description: "no" },
            },
          },
        },
      },
      {},
      false,
      200,
    );
    expect(tool.description).toBe(
      "Search for Item.\nGet Spotify catalog information about albums, artists, playlists, tracks, shows, episodes or audiobooks that match a keyword string.\nReturns an object; pages: limit, offset.",
    );
    expect(tool.description.length).toBeLessThanOrEqual(200);
  });
});

describe("operations with no words: a sentence about the resource", () => {
  it.each([
    { method: "get", path: "/2010-04-01/Accounts/{AccountSid}/Addresses.json", want: "List addresses" },
    { method: "post", path: "/2010-04-01/Accounts/{AccountSid}/Addresses.json", want: "Create an address" },
    { method: "get", path: "/pets/{petId}", want: "Read one pet by petId" },
    { method: "delete", path: "/policies/{id}", want: "Delete one policy by id" },
    { method: "put", path: "/boxes/{id}", want: "Replace one box by id" },
    { method: "patch", path: "/user", want: "Update user" },
    { method: "get", path: "/health", want: "Read health" },
    { method: "post", path: "/search", want: "Run search" },
    { method: "post", path: "/pets/{id}", want: "Send to one pet by id" },
    { method: "get", path: "/", want: "Read the API root" },
    { method: "get", path: "/user-repos", want: "List user repos" },
  ])("$method $path → $want", ({ method, path, want }) => {
    expect(describeResourceAction(method, path)).toBe(want);
  });

  it.each([
    { operationId: "CreateAddress", want: "Create address." },
    { operationId: "pets.list", want: "Pets list." },
    // An id that only spells out the method and path says nothing the route does not.
    { operationId: "post_v2_accounts_json", want: "Create an account." },
  ])("operationId $operationId → $want", ({ operationId, want }) => {
    const tool = toolWith({
      "/v2/accounts.json": { post: { operationId, responses: { "204": { description: "ok" } } } },
    });
    expect(tool.description.split("\n")[0]).toBe(want);
  });
});

describe("a summary that is only the operationId as code", () => {
  const trelloKey = { name: "key", in: "query", required: true, schema: { type: "string" } };
  it.each([
    // Trello writes each operationId as a call: it says nothing, so the route's words lead.
    {
      summary: "getCardsListByIdCard()",
      title: "Get cards list by id card",
      lead: "Get cards list by id card.",
    },
    {
      summary: "getCardsListByIdCard",
      title: "Get cards list by id card",
      lead: "Get cards list by id card.",
    },
    // A one-word summary of prose is kept ("Read-only." is added as before).
    { summary: "Cards", title: "Cards", lead: "Cards. Read-only." },
    { summary: "getOtherThing()", title: "getOtherThing()", lead: "getOtherThing(). Read-only." },
  ])("$summary → $lead", ({ summary, title, lead }) => {
    const tool = toolWith({
      "/cards/{idCard}/list": {
        get: {
          operationId: "getCardsListByIdCard",
          summary,
          parameters: [{ name: "idCard", in: "path", required: true, schema: { type: "string" } }, trelloKey],
          responses: { "200": { description: "ok" } },
        },
      },
    });
    expect(tool.title).toBe(title);
    expect(tool.description.split("\n")[0]).toBe(lead);
  });

  it.each([
    // Netlify's listSites has no summary; its description opens with a note.
    {
      description: "Note: Environment variable keys and values will soon be moved. Lists the sites.",
      lead: "List sites.",
      next: "Note: Environment variable keys and values will soon be moved. Lists the sites.",
    },
    {
      description: "Warning: slow on large accounts.",
      lead: "List sites.",
      next: "Warning: slow",
    },
    {
      description: "Lists the sites. Note: paged.",
      lead: "Lists the sites.",
      next: "Note: paged.",
    },
    {
      description: "Notes on the sites are listed.",
      lead: "Notes on the sites are listed. Read-only.",
      next: "",
    },
  ])("a description that opens with a note: $lead", ({ description, lead, next }) => {
    const tool = toolWith({
      "/sites": {
        get: { operationId: "listSites", description, responses: { "200": { description: "ok" } } },
      },
    });
    const [first, second = ""] = tool.description.split("\n");
    expect(first).toBe(lead);
    expect(second.startsWith(next)).toBe(true);
  });

  it("never lists an apiKey scheme's parameter or a credential among the required arguments", () => {
    const tool = toolWith(
      {
        "/cards": {
          post: {
            operationId: "addCards",
            summary: "addCards()",
            parameters: [
              trelloKey,
              { name: "token", in: "query", required: true, schema: { type: "string" } },
              { name: "idList", in: "query", required: true, schema: { type: "string" } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
      { securitySchemes: { api_key: { type: "apiKey", in: "query", name: "key" } } },
    );
    expect(tool.description).toContain("Required: idList.");
  });
});

describe("description synthesis (table)", () => {
  const json = (schema: unknown) => ({ description: "ok", content: { "application/json": { schema } } });
  it.each([
    {
      name: "no words at all: method, path, body schema name and tag",
      paths: {
        "/pets": {
          post: {
            tags: ["pets"],
            requestBody: {
              required: true,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
            },
            responses: { "201": json({ $ref: "#/components/schemas/Pet" }) },
          },
        },
      },
      outputSchemas: true,
      want: 'Create a pet.\nRequired: name. Example: name="doggie".',
    },
    {
      name: "a list, with its item schema and pagination arguments",
      paths: {
        "/pets": {
          get: {
            summary: "List pets",
            parameters: [
              { name: "limit", in: "query", schema: { type: "integer" } },
              { name: "cursor", in: "query", schema: { type: "string" } },
            ],
            responses: { "200": json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }) },
          },
        },
      },
      outputSchemas: true,
      want: "List pets.\nReturns a list of Pet; pages: limit, cursor.",
    },
    {
      name: "paging arguments the input schema describes are not named again",
      paths: {
        "/pets": {
          get: {
            summary: "List pets",
            parameters: [
              {
                name: "per_page",
                in: "query",
                description: "Results per page.",
                schema: { type: "integer" },
              },
              { name: "page", in: "query", schema: { type: "integer", description: "Page to fetch." } },
            ],
            responses: { "200": json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }) },
          },
        },
      },
      outputSchemas: true,
      want: "List pets.\nReturns a list of Pet.",
    },
    {
      name: "paging arguments named when one has no description of its own",
      paths: {
        "/pets": {
          get: {
            summary: "List pets",
            parameters: [
              {
                name: "per_page",
                in: "query",
                description: "Results per page.",
                schema: { type: "integer" },
              },
              // "The page." says nothing its name does not: the schema leaves it out.
              { name: "page", in: "query", description: "The page.", schema: { type: "integer" } },
            ],
            responses: { "200": json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }) },
          },
        },
      },
      outputSchemas: true,
      want: "List pets.\nReturns a list of Pet; pages: per_page, page.",
    },
    {
      name: "no output schema: the result's fields, links last, at most six",
      paths: {
        "/pets/{id}": {
          get: {
            summary: "Get a pet",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" }, example: 7 }],
            responses: { "200": json({ $ref: "#/components/schemas/Pet" }) },
          },
        },
      },
      outputSchemas: false,
      want: "Get a pet.\nReturns an object: id, name, status, tag, owner, age +2 more.\nExample: id=7.".replace(
        "\nExample",
        " Example",
      ),
    },
    {
      name: "a GET whose words do not say it reads",
      paths: {
        "/health": { get: { summary: "Health of the service", responses: { "204": { description: "ok" } } } },
      },
      want: "Health of the service. Read-only.\nReturns no content.",
    },
    {
      name: "a DELETE whose words do not say it deletes",
      paths: {
        "/m/{id}": { delete: { summary: "Membership", responses: { "204": { description: "ok" } } } },
      },
      want: "Membership. Deletes data.\nReturns no content.",
    },
    {
      name: "without an output schema (the default) the item fields are named",
      paths: {
        "/pets": {
          get: {
            summary: "List pets",
            parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
            responses: { "200": json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }) },
          },
        },
      },
      want: "List pets.\nReturns a list of Pet (id, name, status, tag, owner, age +2 more); pages: limit.",
    },
    {
      name: "no 2xx: a `default` that reads like a success is the answer",
      paths: {
        "/users": {
          post: {
            summary: "Create user",
            responses: { default: { description: "successful operation" } },
          },
        },
      },
      want: "Create user.",
    },
    {
      name: "no 2xx: a `default` that reads like an error says nothing about the result",
      paths: {
        "/users": {
          post: {
            summary: "Create user",
            responses: {
              default: {
                description: "Unexpected error",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Owner" } } },
              },
            },
          },
        },
      },
      want: "Create user.",
    },
    {
      name: "a oneOf of named schemas: one of them",
      paths: {
        "/who": {
          get: {
            summary: "Get a user",
            responses: {
              "200": json({
                oneOf: [{ $ref: "#/components/schemas/Pet" }, { $ref: "#/components/schemas/Owner" }],
              }),
            },
          },
        },
      },
      want: "Get a user.\nReturns one of: Pet, Owner.",
    },
    {
      name: "a first sentence that says the summary again is left out",
      paths: {
        "/repos/{owner}/{repo}/issues": {
          get: {
            summary: "List repository issues",
            description: "List issues in a repository. Only open issues will be listed.",
            responses: { "204": { description: "ok" } },
          },
        },
      },
      want: "List repository issues.\nOnly open issues will be listed.\nReturns no content.",
    },
    {
      name: "prose wrapped at a width is one paragraph; list items and HTML breaks keep their lines",
      paths: {
        "/w": {
          post: {
            summary: "Send a message",
            description:
              "Sends the message to every\nmember of the channel.<br>Needs admin.\n- once\n- twice",
            responses: { "204": { description: "ok" } },
          },
        },
      },
      want: "Send a message.\nSends the message to every member of the channel.\nNeeds admin.\n- once\n- twice\nReturns no content.",
    },
    {
      name: "HTML and markdown noise",
      paths: {
        "/x": {
          put: {
            summary: "<b>Replace</b> the **thing**",
            description:
              "<p>Replaces _every_ field.</p>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n* one\n* two\n\nSee [the docs](https://x).",
            responses: { "204": { description: "ok" } },
          },
        },
      },
      want: "Replace the thing.\nReplaces every field.\n\na; b\n1; 2\n\n- one\n- two\nReturns no content.",
    },
    {
      name: "deprecated, non-JSON answer; the error statuses are not listed",
      paths: {
        "/r": {
          get: {
            deprecated: true,
            summary: "Get report",
            responses: {
              "200": { description: "ok", content: { "text/csv": {} } },
              "401": { description: "no" },
              "500": { description: "bad" },
            },
          },
        },
      },
      want: "Deprecated. Get report.\nReturns text/csv.",
    },
    {
      name: "an XML answer: read as JSON, its fields by element name (xml.name)",
      paths: {
        "/#Action=DescribeVolumes": {
          post: {
            summary: "Describe volumes",
            responses: {
              "200": {
                description: "ok",
                content: {
                  "text/xml": {
                    schema: {
                      type: "object",
                      properties: {
                        Volumes: {
                          type: "array",
                          items: { type: "string" },
                          xml: { name: "volumeSet", wrapped: true },
                        },
                        NextToken: { type: "string", xml: { name: "nextToken" } },
                        requestId: { type: "string" },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      want: "Describe volumes.\nReturns XML, read as JSON: volumeSet, nextToken, requestId.",
    },
    {
      name: "an XML answer without a schema",
      paths: {
        "/feed": {
          get: {
            summary: "Read the feed",
            responses: { "200": { description: "ok", content: { "application/atom+xml": {} } } },
          },
        },
      },
      want: "Read the feed.\nReturns XML, read as JSON.",
    },
    {
      name: "XML beside JSON: the JSON answer is described (the bridge asks for it first)",
      paths: {
        "/pets/{id}": {
          get: {
            summary: "Get a pet",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/xml": { schema: { $ref: "#/components/schemas/Pet" } },
                  "application/json": { schema: { $ref: "#/components/schemas/Pet" } },
                },
              },
            },
          },
        },
      },
      // with XML beside it, no output schema is advertised: the fields are named
      outputSchemas: true,
      want: "Get a pet.\nReturns an object: id, name, status, tag, owner, age +2 more.",
    },
  ])("$name", ({ paths, outputSchemas, want }) => {
    const tool = toolWith(
      paths,
      { schemas: { Pet: petSchema, Owner: { type: "object" } } },
      outputSchemas ?? false,
    );
    expect(tool.description).toBe(want);
    expect(tool.description).not.toMatch(/undefined|null/);
  });
});

describe("parameter descriptions", () => {
  it.each([
    {
      given: "The name of the repository without the `.git` extension. Not case sensitive.",
      want: "The name of the repository without the .git extension. Not case sensitive.",
    },
    {
      given: `The name of the repository without the \`.git\` extension. ${"Not case sensitive. ".repeat(4)}`,
      want: "The name of the repository without the .git extension.",
    },
    { given: "Use e.g. a tag. More text here.", want: "Use e.g. a tag. More text here." },
    { given: "Caf&#233; &#x2014; bar", want: "Café — bar" },
  ])("$given", ({ given, want }) => {
    expect(compactDescription(given, 100)).toBe(want);
  });
});
