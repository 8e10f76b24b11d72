/**
 * Ranking behaviour, given a query and a small API, the order wanted: intent words, "my",
 * collections before their sub-resources, stems, fields; determinism and the saved index.
 */
import { describe, expect, it } from "vitest";
import type { SearchIndexNode, ToolNode } from "../../../../../src/model/types.js";
import {
  buildSearchIndex,
  createOperationSearch,
  startOperationSearch,
} from "../../../../../src/runtime/discovery/search.js";
import { planSpec } from "../../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };
const id = (name: string) => [{ name, in: "path", required: true, schema: { type: "string" } }];
const op = (operationId: string, summary: string, extra: Record<string, unknown> = {}) => ({
  operationId,
  summary,
  responses: ok,
  ...extra,
});

/** Shaped like Microsoft Graph: the user's own paths, everyone's, and deep navigation paths. */
const GRAPH_LIKE = planSpec({
  paths: {
    "/me": { get: op("me.GetUser", "Get user"), patch: op("me.UpdateUser", "Update user") },
    "/me/messages": {
      get: op("me.ListMessages", "List messages"),
      post: op("me.CreateMessages", "Create message"),
    },
    "/me/messages/{message-id}": {
      parameters: id("message-id"),
      get: op("me.GetMessages", "Get message"),
      patch: op("me.UpdateMessages", "Update message"),
      delete: op("me.DeleteMessages", "Delete message"),
    },
    "/me/messages/{message-id}/attachments": {
      parameters: id("message-id"),
      get: op("me.messages.ListAttachments", "List attachments"),
    },
    "/me/messages/$count": { get: op("me.messages.GetCount", "Get the number of the resource") },
    "/me/mailFolders/{mailFolder-id}/messages": {
      parameters: id("mailFolder-id"),
      get: op("me.mailFolders.ListMessages", "List messages"),
    },
    "/me/calendars/{calendar-id}/events": {
      parameters: id("calendar-id"),
      get: op("me.calendars.ListEvents", "List events"),
    },
    "/groups/{group-id}/events": { parameters: id("group-id"), get: op("groups.ListEvents", "List events") },
    "/me/events": { get: op("me.ListEvents", "List events"), post: op("me.CreateEvents", "Create event") },
    "/users": { get: op("users.ListUser", "List users"), post: op("users.CreateUser", "Create user") },
    "/users/{user-id}": {
      parameters: id("user-id"),
      get: op("users.GetUser", "Get user"),
      delete: op("users.DeleteUser", "Delete user"),
    },
    "/users/{user-id}/messages": {
      parameters: id("user-id"),
      get: op("users.ListMessages", "List messages"),
    },
  },
}).tools;

/** Shaped like GitHub: /user is the signed-in user's, /users/{username} anyone's. */
const GITHUB_LIKE = planSpec({
  paths: {
    "/users/{username}/repos": {
      parameters: id("username"),
      get: op("repos/list-for-user", "List repositories for a user"),
    },
    "/user/repos": {
      get: op("repos/list-for-authenticated-user", "List repositories for the authenticated user"),
      post: op("repos/create-for-authenticated-user", "Create a repository for the authenticated user"),
    },
    "/repos/{owner}/{repo}/issues": {
      parameters: [...id("owner"), ...id("repo")],
      get: op("issues/list-for-repo", "List repository issues", {
        description: "List issues in a repository. Only open issues will be listed.",
      }),
      post: op("issues/create", "Create an issue"),
    },
    "/repos/{owner}/{repo}/issues/{issue_number}/comments": {
      parameters: [...id("owner"), ...id("repo"), ...id("issue_number")],
      get: op("issues/list-comments", "List issue comments"),
    },
    "/search/issues": { get: op("search/issues-and-pull-requests", "Search issues and pull requests") },
  },
}).tools;

/** A JSON body of these string properties. */
const takes = (properties: string[]) => ({
  requestBody: {
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: Object.fromEntries(properties.map((p) => [p, { type: "string" }])),
        },
      },
    },
  },
});

const names = (tools: ToolNode[], query: string, limit = 3) =>
  createOperationSearch(tools)
    .search(query, { limit })
    .map((hit) => hit.name);

describe("ranking", () => {
  it.each<[string, ToolNode[], string, string[]]>([
    ["my: the user's own collection", GRAPH_LIKE, "my messages", ["me_ListMessages"]],
    [
      "a collection before its sub-resources and deeper copies",
      GRAPH_LIKE,
      "list messages",
      ["me_ListMessages"],
    ],
    ["the user named: everyone's paths", GRAPH_LIKE, "list the messages of a user", ["users_ListMessages"]],
    ["delete: the DELETE of the item", GRAPH_LIKE, "delete a message", ["me_DeleteMessages"]],
    ["remove: a synonym of delete", GRAPH_LIKE, "remove message", ["me_DeleteMessages"]],
    ["update: PATCH", GRAPH_LIKE, "change a message", ["me_UpdateMessages"]],
    ["create: POST", GRAPH_LIKE, "create an event", ["me_CreateEvents"]],
    ["add: POST", GRAPH_LIKE, "add a new user", ["users_CreateUser"]],
    ["plural: the collection's list", GRAPH_LIKE, "my events", ["me_ListEvents"]],
    ["the sub-resource named", GRAPH_LIKE, "attachments of my message", ["me_messages_ListAttachments"]],
    ["count", GRAPH_LIKE, "count my messages", ["me_messages_GetCount"]],
    ["users: stems meet", GRAPH_LIKE, "list all users", ["users_ListUser"]],
    [
      "GitHub's /user is the signed-in user's",
      GITHUB_LIKE,
      "list my repositories",
      ["repos_list-for-authenticated-user"],
    ],
    ["someone else's", GITHUB_LIKE, "repositories of a user", ["repos_list-for-user"]],
    ["create in my account", GITHUB_LIKE, "create a new repository", ["repos_create-for-authenticated-user"]],
    [
      "the collection before its comments",
      GITHUB_LIKE,
      "list open issues of a repository",
      ["issues_list-for-repo"],
    ],
    ["search", GITHUB_LIKE, "search issues", ["search_issues-and-pull-requests"]],
    ["the comments named", GITHUB_LIKE, "comments on an issue", ["issues_list-comments"]],
  ])("%s: %s", (_label, tools, query, want) => {
    const got = names(tools, query, want.length);
    expect(got, `${query} → ${got.join(", ")}`).toEqual(want);
  });

  it("says nothing when nothing matches", () => {
    expect(names(GRAPH_LIKE, "quantum flux capacitor")).toEqual([]);
  });

  it("keeps the operations' order between equal scores", () => {
    const twins = planSpec({
      paths: {
        "/widgets": { get: op("first", "List widgets") },
        "/aa/widgets": { get: op("second", "List widgets") },
        "/bb/widgets": { get: op("third", "List widgets") },
      },
    }).tools;
    const [, second, third] = twins;
    // second and third differ only in a segment the query does not name.
    expect(names([second!, third!], "widgets")).toEqual(["second", "third"]);
    expect(names([third!, second!], "widgets")).toEqual(["third", "second"]);
  });

  it.each([
    ["a name the ranker reads as noise", "op7f3a9c", ["op7f3a9c"]],
    ["a name in another case, after its own words' matches", "LIST OP7F3A9C", ["op7f3a9c", "listThings"]],
    ["two names, in the query's order", "listThings, op7f3a9c", ["listThings", "op7f3a9c"]],
  ])("an operation named in the query comes first: %s", (_label, query, want) => {
    const tools = planSpec({
      paths: {
        "/things": { get: op("listThings", "List things") },
        "/x/{id}": { parameters: id("id"), get: op("op7f3a9c", "Read an x") },
      },
    }).tools;
    expect(names(tools, query, want.length)).toEqual(want);
  });

  it("a named operation outside the filters is not returned", () => {
    const tools = planSpec({
      paths: { "/x/{id}": { parameters: id("id"), delete: op("op7f3a9c", "Drop") } },
    }).tools;
    expect(createOperationSearch(tools).search("op7f3a9c", { readOnly: true })).toEqual([]);
  });

  it("the task's words side by side in a summary count more than apart", () => {
    const tools = planSpec({
      paths: {
        "/one": { get: op("opOne", "Exchange offices rate list") },
        "/two": { get: op("opTwo", "Offices exchange rate list") },
      },
    }).tools;
    expect(names(tools, "exchange rate", 2)).toEqual(["opTwo", "opOne"]);
  });

  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    [
      "in a description",
      "domain names",
      { description: "Lists domain names of the pool." },
      { description: "Lists names of a domain pool." },
    ],
    [
      "in a parameter's name",
      "records by start date",
      takes(["startDate", "endLabel"]),
      takes(["dateStart", "endLabel"]),
    ],
  ])("the task's words side by side count more than apart: %s", (_label, query, near, far) => {
    const tools = planSpec({
      paths: {
        "/one": { post: op("opOne", "Records", far) },
        "/two": { post: op("opTwo", "Records", near) },
      },
    }).tools;
    expect(names(tools, query, 2)).toEqual(["opTwo", "opOne"]);
  });

  it('"me" is the user in a pair: "authenticate me" pairs with "Authenticate user"', () => {
    const tools = planSpec({
      paths: {
        "/one": { post: op("opOne", "User authenticate", { description: "Logs in with a password." }) },
        "/two": { post: op("opTwo", "Authenticate user", { description: "Logs in with a password." }) },
      },
    }).tools;
    expect(names(tools, "please authenticate me with my password", 2)).toEqual(["opTwo", "opOne"]);
  });

  it("a pair never spans two fields", () => {
    // "rate" ends the title and "exchange" begins the description: no pair "rate exchange".
    const tools = planSpec({
      paths: {
        "/one": { get: op("opOne", "Currency rate", { description: "Exchange offices listed." }) },
        "/two": { get: op("opTwo", "Currency offices", { description: "Exchange rate listed." }) },
      },
    }).tools;
    expect(names(tools, "rate exchange", 2)).toEqual(["opOne", "opTwo"]);
  });

  it("an API's prefix and version are no depth: /api/v2/entries is as shallow as /entries", () => {
    const tools = planSpec({
      paths: {
        "/dictionary/words/entries/{word}": { parameters: id("word"), get: op("deep", "Get entries") },
        "/api/v2/entries/{word}": { parameters: id("word"), get: op("prefixed", "Get entries") },
      },
    }).tools;
    expect(names(tools, "entries of a word", 2)).toEqual(["prefixed", "deep"]);
  });

  it("a phrase's verb done to an item (/volumes/{id}/actions/attach) is as deep as the item", () => {
    const body = { description: "Server to attach the volume to once it is created." };
    const tools = planSpec({
      paths: {
        "/volumes": { post: op("createVolume", "Create a Volume", body) },
        "/volumes/{id}/actions/attach": {
          parameters: id("id"),
          post: op("attachVolume", "Attach Volume to a Server"),
        },
      },
    }).tools;
    expect(names(tools, "attach volume", 2)).toEqual(["attachVolume", "createVolume"]);
    expect(names(tools, "create a volume", 2)).toEqual(["createVolume", "attachVolume"]);
  });

  it("a result's rank does not depend on the limit", () => {
    const search = createOperationSearch(GRAPH_LIKE);
    const all = search.search("list the messages of my mail folders", { limit: 20 });
    expect(search.search("list the messages of my mail folders", { limit: 3 })).toEqual(all.slice(0, 3));
  });

  it("is deterministic", () => {
    const search = createOperationSearch(GRAPH_LIKE);
    expect(search.search("list my messages", { limit: 20 })).toEqual(
      search.search("list my messages", { limit: 20 }),
    );
  });
});

describe("the saved index", () => {
  const queries = ["my messages", "delete a user", "create event", "count", "attachments", "users"];

  it("ranks exactly as the tools do, after a JSON round trip", () => {
    const index = JSON.parse(JSON.stringify(buildSearchIndex(GRAPH_LIKE)));
    const fromIndex = createOperationSearch(GRAPH_LIKE, index);
    const fromTools = createOperationSearch(GRAPH_LIKE);
    for (const query of queries) {
      expect(fromIndex.search(query, { limit: 50 }), query).toEqual(fromTools.search(query, { limit: 50 }));
    }
  });

  it("serves a selection of its tools: only those are found", () => {
    const index = buildSearchIndex(GRAPH_LIKE);
    const selected = GRAPH_LIKE.filter((tool) => tool.http.method === "get");
    const search = createOperationSearch(selected, index);
    for (const query of queries) {
      expect(search.search(query, { limit: 50 }), query).toEqual(
        createOperationSearch(selected).search(query, { limit: 50 }),
      );
    }
    expect(search.search("delete message", { limit: 50 }).every((hit) => hit.method === "GET")).toBe(true);
  });

  it("is ignored when of another version or malformed, and a tool it lacks is indexed afresh", () => {
    const want = createOperationSearch(GRAPH_LIKE).search("delete a message", { limit: 5 });
    const index = buildSearchIndex(GRAPH_LIKE);
    const partial = { ...index, docs: { me_GetUser: (index.docs as Record<string, string>).me_GetUser! } };
    for (const other of <SearchIndexNode[]>[
      { ...index, version: 1 },
      { version: index.version, terms: 7, docs: [] },
      { ...index, docs: { me_DeleteMessages: "zz|zz|zz|zz|zz|zz" } },
      partial,
    ]) {
      expect(createOperationSearch(GRAPH_LIKE, other).search("delete a message", { limit: 5 })).toEqual(want);
    }
  });

  it("is compact: a vocabulary, term numbers and a short hash per tool", () => {
    const index = buildSearchIndex(GRAPH_LIKE);
    expect(Object.keys(index).sort()).toEqual(["docs", "terms", "version"]);
    // Smaller than the texts it indexes (names, titles, descriptions, paths), none kept whole.
    const texts = GRAPH_LIKE.map((t) => `${t.name} ${t.title} ${t.description} ${t.http.path}`);
    expect(JSON.stringify(index).length).toBeLessThan(JSON.stringify(texts).length);
    for (const tool of GRAPH_LIKE) expect(JSON.stringify(index)).not.toContain(tool.description);
  });
});

describe("filters", () => {
  it.each<
    [
      string,
      Parameters<ReturnType<typeof createOperationSearch>["search"]>[1],
      (hit: { method: string; tags: string[]; readOnly: boolean }) => boolean,
    ]
  >([
    ["method", { method: "DELETE", limit: 50 }, (hit) => hit.method === "DELETE"],
    ["read-only", { readOnly: true, limit: 50 }, (hit) => hit.readOnly],
  ])("%s", (_label, options, check) => {
    const hits = createOperationSearch(GRAPH_LIKE).search("message user", options);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every(check)).toBe(true);
  });

  it("limit: between 1 and 50", () => {
    const search = createOperationSearch(GRAPH_LIKE);
    expect(search.search("message", { limit: 0 })).toHaveLength(1);
    expect(search.search("message", { limit: 2 })).toHaveLength(2);
    expect(search.search("message user event", { limit: 500 }).length).toBeLessThanOrEqual(50);
  });
});

describe("startOperationSearch", () => {
  /** 2,500 operations: the small API under many prefixes. */
  const many = Array.from({ length: 125 }, (_, i) =>
    GRAPH_LIKE.map((tool) => ({
      ...tool,
      name: `${tool.name}_${i}`,
      http: { ...tool.http, path: `/tenant${i}${tool.http.path}` },
    })),
  ).flat();

  it("builds the same search as createOperationSearch, letting other work run meanwhile", async () => {
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 1000) ticker = setImmediate(tick);
    };
    let ticker = setImmediate(tick);
    // Slices of 0 ms: the event loop gets a turn after every operation's step.
    const prepared = await startOperationSearch(many, buildSearchIndex(many), 0).done;
    clearImmediate(ticker);
    expect(turns).toBe(1000);
    const direct = createOperationSearch(many);
    for (const query of ["my messages", "delete a user", "create event"]) {
      expect(prepared.search(query, { limit: 20 }), query).toEqual(direct.search(query, { limit: 20 }));
    }
  });

  it("finishes a build its slices have begun, from where they are, with the same search", async () => {
    const build = startOperationSearch(many, undefined, 0);
    // Let some slices run (each a step), then ask for the search at once, as a first search does.
    let turns = 0;
    await new Promise<void>((resolve) => {
      const tick = () => (++turns < 50 ? setImmediate(tick) : resolve());
      setImmediate(tick);
    });
    const finished = build.finish();
    expect(build.finish()).toBe(finished);
    expect(await build.done).toBe(finished);
    const direct = createOperationSearch(many);
    for (const query of ["my messages", "delete a user", "create event"]) {
      expect(finished.search(query, { limit: 20 }), query).toEqual(direct.search(query, { limit: 20 }));
    }
  });

  it("reports a build that fails to both who wait for it", async () => {
    const broken = [{ ...many[0]!, tags: null as unknown as string[] }, ...many.slice(1, 10)];
    const build = startOperationSearch(broken, undefined, 0);
    expect(() => build.finish()).toThrow();
    await expect(build.done).rejects.toThrow();
  });
});
