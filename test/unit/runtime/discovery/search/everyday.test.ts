/**
 * Everyday wording, one table per failure class (issue 29), each on a small synthetic API shaped
 * like a family of real ones: a query of one or two words is never answered with nothing; a
 * person's noun or verb finds the API's (mail → message, list → Describe); an API's idioms
 * ($count, $ref, $value, delta, JSON:API relationships, AWS query actions) are found by what
 * they do; the intent's verb picks the method; the collection asked for comes before the one it
 * lives in.
 */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../../src/model/types.js";
import {
  MAX_BODY_ACTIONS,
  readBodyActions,
} from "../../../../../src/runtime/discovery/search/body-actions.js";
import { readIdiomWords } from "../../../../../src/runtime/discovery/search/idioms.js";
import {
  hasFirstPerson,
  matchAction,
  readOperationShape,
  readQueryIntent,
  startsWithVerb,
} from "../../../../../src/runtime/discovery/search/intent.js";
import { weighShape } from "../../../../../src/runtime/discovery/search/rank.js";
import { stem } from "../../../../../src/runtime/discovery/search/stem.js";
import { findSynonyms } from "../../../../../src/runtime/discovery/search/synonyms.js";
import { splitWords } from "../../../../../src/runtime/discovery/search/tokenize.js";
import { createOperationSearch, MAX_QUERY_CHARS } from "../../../../../src/runtime/discovery/search.js";
import { planSpec } from "../../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const op = (operationId: string, summary: string, extra: Record<string, unknown> = {}) => ({
  operationId,
  summary,
  responses: ok,
  ...extra,
});
const withId = (...names: string[]) => ({ parameters: names.map(param) });

/** OData-shaped, as a directory and mail API might be (names opaque, as generated ones are). */
const ODATA_LIKE = planSpec({
  paths: {
    "/me": {
      get: op("op01", "Get the signed-in account"),
      patch: op("op02", "Update the signed-in account"),
    },
    "/me/messages": {
      get: op("op03", "List messages", { description: "The messages in a mailbox or folder." }),
      post: op("op04", "Create message"),
    },
    "/me/messages/{message-id}": {
      ...withId("message-id"),
      get: op("op05", "Get message"),
      delete: op("op06", "Delete message"),
    },
    "/me/messages/{message-id}/$value": { ...withId("message-id"), get: op("op07", "Get media content") },
    "/me/events": { get: op("op08", "List events"), post: op("op09", "Create event") },
    "/me/calendarView": { get: op("op10", "List calendarView") },
    "/users": { get: op("op11", "List user"), post: op("op12", "Create user") },
    "/users/$count": { get: op("op13", "Get the number of the resource") },
    "/users/delta()": { get: op("op14", "Invoke function delta") },
    "/users/{user-id}": {
      ...withId("user-id"),
      get: op("op15", "Get user"),
      delete: op("op16", "Delete user"),
    },
    "/organization": {
      get: op("op17", "List organization", {
        description: "The organization: its users, groups, domains and settings.",
      }),
    },
    "/groups": { get: op("op18", "List group") },
    "/groups/{group-id}/members": { ...withId("group-id"), get: op("op19", "Get members from groups") },
    "/groups/{group-id}/members/$ref": {
      ...withId("group-id"),
      post: op("op20", "Create new navigation property ref to members for groups"),
    },
    "/groups/{group-id}/members/{directoryObject-id}/$ref": {
      ...withId("group-id", "directoryObject-id"),
      delete: op("op21", "Delete ref of navigation property members for groups"),
    },
    "/groups/{group-id}/members/$count": {
      ...withId("group-id"),
      get: op("op22", "Get the number of the resource"),
    },
    "/drives/{drive-id}/items/{item-id}": {
      ...withId("drive-id", "item-id"),
      get: op("op23", "Get items from drives"),
    },
    "/drives/{drive-id}/items/{item-id}/content": {
      ...withId("drive-id", "item-id"),
      get: op("op24", "Get content for the navigation property items from drives"),
    },
    "/me/directReports": { get: op("op25", "Get directReports from me") },
    "/me/mailFolders/{mailFolder-id}/childFolders": {
      ...withId("mailFolder-id"),
      get: op("op26", "Get childFolders from me"),
    },
  },
}).tools;

/** GitHub-shaped: /user is the signed-in user's. */
const SIGNED_IN_USER = planSpec({
  paths: {
    "/user": { get: op("users/get-authenticated", "Get the authenticated user") },
    "/user/repos": {
      get: op("repos/list-for-authenticated-user", "List repositories for the authenticated user"),
    },
    "/users/{username}": { ...withId("username"), get: op("users/get-by-username", "Get a user") },
    "/repos/{owner}/{repo}": { ...withId("owner", "repo"), get: op("repos/get", "Get a repository") },
  },
}).tools;

/** Abbreviated paths and a workflow runner, as a code-hosting API has them. */
const ABBREVIATED = planSpec({
  paths: {
    "/user/repos": { get: op("listMine", "List yours") },
    "/user/keys": { get: op("listMyKeys", "List yours") },
    "/workflows/{id}": { ...withId("id"), get: op("getWorkflow", "A workflow") },
    "/workflows/{id}/dispatches": {
      ...withId("id"),
      post: op("dispatchWorkflow", "Workflow dispatch event"),
    },
    "/workflows/{id}/timing": { ...withId("id"), get: op("getWorkflowTiming", "Workflow usage") },
  },
}).tools;

/** An AWS query API: one path per action, `Describe*` for lists. */
const AWS_QUERY = planSpec({
  paths: Object.fromEntries(
    [
      ["DescribeInstances", "Describes the specified instances or all instances."],
      ["RunInstances", "Launches the specified number of instances using an AMI."],
      ["StartInstances", "Starts an Amazon EBS-backed instance that you've previously stopped."],
      ["DescribeInstanceAttribute", "Describes the specified attribute of the specified instance."],
      ["ListInstanceProfiles", "Lists the instance profiles that have the specified path prefix."],
      ["DescribeVolumes", "Describes the specified EBS volumes or all of your EBS volumes."],
      ["DeleteVolume", "Deletes the specified EBS volume."],
      ["ModifyInstanceAttribute", "Modifies the specified attribute of the specified instance."],
    ].map(([action, description]) => [
      `/#Action=${action}`,
      {
        get: op(`GET_${action}`, action!, { description }),
        post: op(`POST_${action}`, action!, { description }),
      },
    ]),
  ),
}).tools;

/** JSON:API: relationship links beside the resources. */
const JSON_API = planSpec({
  paths: {
    "/articles": { get: op("listArticles", "Articles") },
    "/articles/{id}": {
      ...withId("id"),
      get: op("getArticle", "An article"),
      patch: op("patchArticle", "Edit an article"),
    },
    "/articles/{id}/author": { ...withId("id"), get: op("getArticleAuthor", "The article's author") },
    "/articles/{id}/relationships/author": {
      ...withId("id"),
      patch: op("patchArticleAuthorRelationship", "Article author"),
    },
  },
}).tools;

/** A feed API where writes outnumber reads. */
const FEEDS = planSpec({
  paths: {
    "/feeds/{feed}/data": {
      ...withId("feed"),
      get: op("listData", "Data points of a feed"),
      post: op("createData", "Add a data point to a feed"),
    },
    "/feeds/{feed}/data/batch": {
      ...withId("feed"),
      post: op("batchData", "Add data points to a feed in bulk"),
    },
    "/feeds/{feed}/data/chart": { ...withId("feed"), post: op("chartData", "Chart data of a feed") },
  },
}).tools;

/** Round 5's shapes: compound words, the first person, a few more bridges, a container's synonym. */
const ROUND5 = planSpec({
  paths: {
    "/planner/tasks": { post: op("op01", "Create plannerTask") },
    "/me/todo/lists/{list-id}/tasks": { ...withId("list-id"), post: op("op02", "Create todoTask") },
    "/groups": { get: op("op03", "List group") },
    "/groups/{group-id}": {
      ...withId("group-id"),
      patch: op("op04", "Update group", { description: "Update the properties of a group object." }),
    },
    "/groups/{group-id}/sections/{section-id}/copyToSectionGroup": {
      ...withId("group-id", "section-id"),
      post: op("op05", "Invoke action copyToSectionGroup", {
        description: "Copies a section to a section group, renamed if renameAs is given.",
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { renameAs: { type: "string", description: "The name to rename the copy to." } },
              },
            },
          },
        },
      }),
    },
    "/users/{user-id}/memberOf": { ...withId("user-id"), get: op("op06", "Get memberOf from users") },
    "/me/memberOf": {
      get: op("op07", "Get memberOf from me", {
        description: "The groups and directory roles that the user is a member of.",
      }),
    },
    "/invoices": { get: op("op08", "List all invoices") },
    "/invoices/upcoming": { get: op("op09", "Retrieve an upcoming invoice") },
    "/jobs": { get: op("op10", "list or watch objects of kind Job") },
    "/cronjobs": { get: op("op11", "list or watch objects of kind CronJob") },
    "/subscriptions": {
      post: op("op12", "Create subscription", {
        description: "Subscribes a listener to receive notifications when a resource changes.",
      }),
    },
    "/users/delta()": { get: op("op13", "Invoke function delta") },
    "/me/mailFolders/{folder-id}/messages/{message-id}/attachments": {
      ...withId("folder-id", "message-id"),
      get: op("op14", "List attachments"),
    },
    "/me/messages/{message-id}/attachments": { ...withId("message-id"), get: op("op15", "List attachments") },
    "/me/events/{event-id}/attachments": { ...withId("event-id"), get: op("op16", "List attachments") },
  },
}).tools;

/** The signed-in user's path and what their profile has, OData- and GitHub-shaped. */
const ODATA_PROFILE = planSpec({
  paths: {
    "/me/photo": { get: op("op01", "Get profilePhoto", { description: "The user's profile photo." }) },
    "/me/settings": { get: op("op02", "Get settings", { description: "The user's profile settings." }) },
    "/me": { get: op("op03", "Get user") },
  },
}).tools;
const GITHUB_PROFILE = planSpec({
  paths: {
    "/user/emails": { get: op("op01", "List email addresses", { description: "Emails on your profile." }) },
    "/user/social_accounts": {
      get: op("op02", "List social accounts", { description: "Social accounts on your profile." }),
    },
    "/user": { get: op("op03", "Get the authenticated user") },
  },
}).tools;

/** The same collection, anyone's and the signed-in user's. */
const FIRST_PERSON = planSpec({
  paths: {
    "/users/{user-id}/messages": { ...withId("user-id"), get: op("op01", "List messages") },
    "/users/me/messages": { get: op("op02", "List messages") },
  },
}).tools;

/** Slack-shaped: administrators' methods beside everyone's. */
const WITH_ADMIN = planSpec({
  paths: {
    "/admin.usergroups.listChannels": {
      get: op(
        "admin_usergroups_listChannels",
        "List the channels linked to an org-level IDP group (user group).",
      ),
    },
    "/conversations.list": { get: op("conversations_list", "Lists all channels in a Slack team.") },
    "/admin.users.remove": { post: op("admin_users_remove", "Remove a user from a workspace.") },
  },
}).tools;

/** Stripe-shaped: a charge's refunds listed, and a refund made. */
const PAYMENTS = planSpec({
  paths: {
    "/v1/refunds": { get: op("GetRefunds", "List all refunds"), post: op("PostRefunds", "Create a refund") },
    "/v1/charges/{charge}/refunds": {
      ...withId("charge"),
      get: op("GetChargesChargeRefunds", "List all refunds of a charge"),
      post: op("PostChargesChargeRefunds", "Create a refund of a charge"),
    },
  },
}).tools;

/** GitHub-like: forks, stars and bookmarks, each read (GET) and made or applied (POST, PUT). */
const NOUN_VERBS = planSpec({
  paths: {
    "/repos/{owner}/{repo}": { ...withId("owner", "repo"), get: op("repos_get", "Get a repository") },
    "/repos/{owner}/{repo}/forks": {
      ...withId("owner", "repo"),
      get: op("repos_list-forks", "List forks"),
      post: op("repos_create-fork", "Create a fork"),
    },
    "/user/starred": { get: op("activity_list-starred", "List repositories starred by the user") },
    "/user/starred/{owner}/{repo}": {
      ...withId("owner", "repo"),
      get: op("activity_check-starred", "Check if a repository is starred"),
      put: op("activity_star-repo", "Star a repository"),
    },
    "/bookmarks": {
      get: op("listBookmarks", "List bookmarks"),
      post: op("createBookmark", "Create a bookmark"),
    },
  },
}).tools;

/**
 * DigitalOcean-like: a droplet's actions are one POST whose body's `type` says which (reboot,
 * power_off, resize), in variants that reference the field's schema.
 */
const DROPLET_ACTIONS = planSpec({
  paths: {
    "/v2/droplets": {
      get: op("droplets_list", "List all droplets"),
      post: op("droplets_create", "Create a new droplet"),
    },
    "/v2/droplets/{droplet_id}": {
      ...withId("droplet_id"),
      get: op("droplets_get", "Retrieve an existing droplet"),
      delete: op("droplets_destroy", "Delete an existing droplet"),
    },
    "/v2/droplets/{droplet_id}/actions": {
      ...withId("droplet_id"),
      get: op("dropletActions_list", "List actions for a droplet"),
      post: op("dropletActions_post", "Initiate a droplet action", {
        requestBody: {
          content: {
            "application/json": {
              schema: {
                anyOf: [
                  { $ref: "#/components/schemas/droplet_action" },
                  {
                    allOf: [
                      { $ref: "#/components/schemas/droplet_action" },
                      { type: "object", properties: { size: { type: "string" } } },
                    ],
                  },
                ],
              },
            },
          },
        },
      }),
    },
  },
  components: {
    schemas: {
      droplet_action: {
        type: "object",
        required: ["type"],
        properties: {
          type: { type: "string", enum: ["enable_backups", "reboot", "power_cycle", "power_off", "resize"] },
        },
      },
    },
  },
}).tools;

const top = (tools: ToolNode[], query: string, limit = 1) =>
  createOperationSearch(tools)
    .search(query, { limit })
    .map((hit) => hit.name);

describe("short queries are never answered with nothing", () => {
  it.each<[string, string, ToolNode[], string]>([
    ["'me' alone: the signed-in user", "me", ODATA_LIKE, "op01"],
    ["'me' where the signed-in user is /user", "me", SIGNED_IN_USER, "users_get-authenticated"],
    ["only verbs: the shallow collections that do them", "show all", ODATA_LIKE, "op11"],
    ["a word begun, not finished", "calend", ODATA_LIKE, "op10"],
    ["two words run together", "directreports", ODATA_LIKE, "op25"],
    ["'who am I': the signed-in user", "who am I", SIGNED_IN_USER, "users_get-authenticated"],
  ])("%s: %s", (_label, query, tools, want) => {
    const got = top(tools, query, 3);
    expect(got.length, query).toBeGreaterThan(0);
    expect(got, `${query} → ${got.join(", ")}`).toContain(want);
  });

  it("still says nothing when no operation has anything of the query", () => {
    expect(top(ODATA_LIKE, "quantum flux capacitor")).toEqual([]);
    expect(top(ODATA_LIKE, "zz")).toEqual([]);
  });
});

describe("a person's words find the API's", () => {
  it.each<[string, string, ToolNode[], string]>([
    ["mail → messages", "my mail", ODATA_LIKE, "op03"],
    ["meeting → events", "schedule a meeting", ODATA_LIKE, "op09"],
    ["list → Describe*", "list instances", AWS_QUERY, "GET_DescribeInstances"],
    ["list → Describe*, another noun", "list volumes", AWS_QUERY, "GET_DescribeVolumes"],
    ["remove → delete", "remove a user", ODATA_LIKE, "op16"],
    ["an API's abbreviation: repositories → repos", "my repositories", ABBREVIATED, "listMine"],
    ["two words the API writes as one: to do → todo", "add a to do task", ROUND5, "op02"],
    ["rename → update", "rename a group", ROUND5, "op04"],
    ["mark → update", "mark a group hidden", ROUND5, "op04"],
    ["toggle → update", "toggle a group", ROUND5, "op04"],
    ["belong → member, 'I' → the signed-in user", "groups I belong to", ROUND5, "op07"],
    ["'I' is the signed-in user", "messages I have", FIRST_PERSON, "op02"],
    ["'i' in lower case too", "messages i have", FIRST_PERSON, "op02"],
    ["next → upcoming", "next invoice", ROUND5, "op09"],
    ["scheduled → cron", "scheduled jobs", ROUND5, "op11"],
    ["notified → subscription", "get notified when something changes", ROUND5, "op12"],
  ])("%s: %s", (_label, query, tools, want) => {
    expect(top(tools, query), query).toEqual([want]);
  });
});

describe("an administrator's operation, unless the task is one", () => {
  it.each<[string, string, string]>([
    ["everyone's list first", "list channels", "conversations_list"],
    ["the admin's when only it fits", "remove a user from a workspace", "admin_users_remove"],
  ])("%s: %s", (_label, query, want) => {
    expect(top(WITH_ADMIN, query)).toEqual([want]);
  });
});

describe("bridges a short phrase crosses, and a long task does not", () => {
  it.each([
    ["sms", "message"],
    ["mail", "message"],
    ["meeting", "event"],
    // Mailchimp's list members are its subscribers.
    ["subscriber", "member"],
  ])("%s → %s", (everyday, api) => {
    expect(findSynonyms(stem(everyday))).toContain(stem(api));
    expect(findSynonyms(stem(everyday), false)).not.toContain(stem(api));
  });
});

describe("an API's idioms are found by what they do", () => {
  it.each<[string, string, ToolNode[], string]>([
    ["OData $count", "how many users are there", ODATA_LIKE, "op13"],
    ["OData $count, 'number of'", "number of users", ODATA_LIKE, "op13"],
    ["OData $count, 'number of' a sub-collection", "number of members in a group", ODATA_LIKE, "op22"],
    ["OData $ref: add a link", "add a member to a group", ODATA_LIKE, "op20"],
    ["OData $ref: remove a link", "remove a member from a group", ODATA_LIKE, "op21"],
    ["OData $value: raw content", "download a message", ODATA_LIKE, "op07"],
    ["OData delta: change tracking", "track changes to users", ODATA_LIKE, "op14"],
    ["the signed-in user's path is their profile: /me", "my profile", ODATA_PROFILE, "op03"],
    ["the signed-in user's path is their profile: /user", "my profile", GITHUB_PROFILE, "op03"],
    [
      "JSON:API relationship link",
      "link an author to an article",
      JSON_API,
      "patchArticleAuthorRelationship",
    ],
  ])("%s: %s", (_label, query, tools, want) => {
    const got = top(tools, query, 3);
    expect(got[0], `${query} → ${got.join(", ")}`).toBe(want);
  });
});

describe("an idiom's words go in its path field", () => {
  it.each<[string, string, string[], string[]]>([
    ["a drive item's content is the file", "/drives/{drive-id}/items/{item-id}/content", ["file"], []],
    ["GitHub's contents too", "/repos/{owner}/{repo}/contents/{path}", ["file"], []],
    ["OData $value downloads", "/me/messages/{message-id}/$value", ["download", "content"], ["file"]],
    ["the signed-in user's path is the profile", "/me", ["profile"], []],
    ["GitHub's signed-in user", "/user", ["profile"], []],
    ["anyone's user is not", "/users/{user-id}", [], ["profile"]],
    ["a path under the user's is not", "/me/photo", [], ["profile"]],
  ])("%s: %s", (_label, path, has, lacks) => {
    const words = readIdiomWords(path);
    for (const word of has) expect(words, path).toContain(word);
    for (const word of lacks) expect(words, path).not.toContain(word);
  });
});

describe("the intent's verb picks the method", () => {
  it.each<[string, string, ToolNode[], string]>([
    ["get: the GET among POSTs", "get the data of a feed", FEEDS, "listData"],
    ["add: the POST", "add data to a feed", FEEDS, "createData"],
    ["trigger: the POST that does it", "trigger a workflow", ABBREVIATED, "dispatchWorkflow"],
    ["a noun-verb first is the imperative: open → POST", "open a feed data point", FEEDS, "createData"],
    ["refund → POST", "refund a charge", PAYMENTS, "PostChargesChargeRefunds"],
    // A noun of the API as the verb ahead of its object: the POST that makes one, the PUT that
    // applies one (not a list kept in the word's list of imperatives).
    ["a noun of the API as the verb: the POST", "fork a repository", NOUN_VERBS, "repos_create-fork"],
    ["a noun of the API as the verb: the PUT", "star a repository", NOUN_VERBS, "activity_star-repo"],
    ["a noun of the API as the verb, any noun", "bookmark the page", NOUN_VERBS, "createBookmark"],
    // The body's action field's values are words of the operation (body-actions.ts).
    ["an action of the body's type field", "reboot a droplet", DROPLET_ACTIONS, "dropletActions_post"],
    ["an action of two words", "power off the droplet", DROPLET_ACTIONS, "dropletActions_post"],
  ])("%s: %s", (_label, query, tools, want) => {
    expect(top(tools, query), query).toEqual([want]);
  });

  it.each<[string, string, boolean]>([
    ["a noun of the API before its object", "fork a repository", true],
    ["any determiner", "bookmark the page", true],
    ["no determiner: the word may name the thing", "forks repository", false],
    ["a plural names things, not an act", "bookmarks this week", false],
    ["before a time word", "fork this week", false],
    ["a word the API does not have", "frobnicate a repository", false],
    ["a word the intent reads already", "list the forks", false],
    ["a reading verb", "search the bookmarks", false],
  ])("a word of the API as the verb, %s: %s", (_label, query, want) => {
    const terms = new Set(["fork", "repositori", "bookmark", "page", "search", "list"]);
    expect(
      startsWithVerb(
        query,
        (term) => terms.has(term),
        () => false,
      ),
    ).toBe(want);
  });

  it("a word the vocabulary bridges keeps its own meaning (download: content)", () => {
    expect(
      startsWithVerb(
        "download a file",
        () => true,
        () => false,
      ),
    ).toBe(false);
    expect(
      startsWithVerb(
        "rename a group",
        () => true,
        (term) => findSynonyms(term).length > 0,
      ),
    ).toBe(false);
  });

  it("the verb's POST or PUT is asked for, a DELETE not ruled out (cancel a subscription)", () => {
    const intent = { ...readQueryIntent(splitWords("cancel a subscription")) };
    intent.actions = new Set(["apply"]);
    const shape = (method: ToolNode["http"]["method"], path: string) =>
      readOperationShape({ ...NOUN_VERBS[0]!, http: { ...NOUN_VERBS[0]!.http, method, path } });
    const factor = (method: ToolNode["http"]["method"]) =>
      weighShape(intent, new Set(), shape(method, "/subscriptions/{id}"), true);
    expect(factor("post")).toBeGreaterThan(factor("delete"));
    expect(factor("put")).toBe(factor("post"));
    expect(factor("delete")).toBeGreaterThan(factor("get"));
  });
});

describe("the values of a body's action field", () => {
  it("are read through references and variants, in order, once each", () => {
    const tool = DROPLET_ACTIONS.find((t) => t.name === "dropletActions_post")!;
    expect(readBodyActions(tool)).toEqual(["enable_backups", "reboot", "power_cycle", "power_off", "resize"]);
  });

  it("are read from a body of arguments too (a form's `type`), and never from a query parameter", () => {
    const tools = planSpec({
      paths: {
        "/v1/accounts": {
          get: op("GetAccounts", "List accounts", {
            parameters: [{ name: "type", in: "query", schema: { type: "string", enum: ["a", "b"] } }],
          }),
          post: op("PostAccounts", "Create an account", {
            requestBody: {
              content: {
                "application/x-www-form-urlencoded": {
                  schema: {
                    type: "object",
                    properties: {
                      type: { type: "string", enum: ["custom", "express", "standard"] },
                      country: { type: "string", enum: ["US", "DE"] },
                    },
                  },
                },
              },
            },
          }),
        },
      },
    }).tools;
    const named = (name: string) => tools.find((t) => t.name === name)!;
    expect(readBodyActions(named("PostAccounts"))).toEqual(["custom", "express", "standard"]);
    expect(readBodyActions(named("GetAccounts"))).toEqual([]);
  });

  it(`are at most ${MAX_BODY_ACTIONS}`, () => {
    const values = Array.from({ length: 100 }, (_, i) => `kind_${i}`);
    const tools = planSpec({
      paths: {
        "/jobs": {
          post: op("createJob", "Create a job", {
            requestBody: {
              content: {
                "application/json": {
                  schema: { type: "object", properties: { kind: { type: "string", enum: values } } },
                },
              },
            },
          }),
        },
      },
    }).tools;
    expect(readBodyActions(tools[0]!)).toEqual(values.slice(0, MAX_BODY_ACTIONS));
  });
});

/** Trello-like: cards and lists on their own and under a board, its words only in its names. */
const BOARD_LIKE = planSpec({
  paths: {
    "/cards/{idCard}": { ...withId("idCard"), get: op("b1", "getCardsByIdCard") },
    "/boards/{idBoard}": { ...withId("idBoard"), get: op("b2", "getBoardsByIdBoard") },
    "/boards/{idBoard}/cards": { ...withId("idBoard"), get: op("b3", "getBoardsCardsByIdBoard") },
    "/boards/{idBoard}/lists": { ...withId("idBoard"), get: op("b4", "getBoardsListsByIdBoard") },
    "/lists/{idList}/cards": { ...withId("idList"), get: op("b5", "getListsCardsByIdList") },
  },
}).tools;

describe("the collection asked for before the one it lives in", () => {
  it.each<[string, string, ToolNode[], string]>([
    ["users in the organization", "all users in the organization", ODATA_LIKE, "op11"],
    ["groups of the organization", "list the groups of the organization", ODATA_LIKE, "op18"],
    ["a container's synonym says where too: email → mail", "attachments of an email", ROUND5, "op15"],
    // The place named is the path's parent: its own collection, though one level deeper.
    ["the board's cards before any card", "cards on a board", BOARD_LIKE, "b3"],
    ["and the board's lists", "lists of a board", BOARD_LIKE, "b4"],
  ])("%s: %s", (_label, query, tools, want) => {
    expect(top(tools, query), query).toEqual([want]);
  });
});

/** A calendar: events, and a view of them by a time span (Graph's calendarView), and a create. */
const CALENDAR_LIKE = planSpec({
  paths: {
    "/me/events": {
      get: op("c1", "List events", { description: "The events of the user's calendar." }),
      post: op("c2", "Create event", {
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { subject: { type: "string" }, startDateTime: { type: "string" } },
              },
            },
          },
        },
      }),
    },
    "/me/calendarView": {
      get: op("c3", "List calendarView", {
        description: "The occurrences of events in a calendar view defined by a time range.",
        parameters: ["startDateTime", "endDateTime"].map((name) => ({
          name,
          in: "query",
          required: true,
          schema: { type: "string" },
        })),
      }),
    },
  },
}).tools;

describe("a time span asks for the operation that reads within one", () => {
  it.each<[string, string]>([
    ["my events this week", "c3"],
    ["events since monday", "c3"],
    ["my events", "c1"],
  ])("%s → %s", (query, want) => {
    expect(top(CALENDAR_LIKE, query)).toEqual([want]);
  });

  it("weighs an operation reading within a span higher for a timed phrase, only then", () => {
    const shapes = CALENDAR_LIKE.map(readOperationShape);
    expect(shapes.map((shape) => shape.spans)).toEqual([false, false, true]);
    const view = shapes[2]!;
    const timed = readQueryIntent(splitWords("events this week"));
    const plain = readQueryIntent(splitWords("list events"));
    const none = new Set<string>();
    expect(weighShape(timed, none, view, true)).toBeGreaterThan(
      weighShape(timed, none, { ...view, spans: false }, true),
    );
    expect(weighShape(plain, none, view, true)).toBe(
      weighShape(plain, none, { ...view, spans: false }, true),
    );
  });

  it("reads a span from date and time bounds, since and until, not from a cursor's 'after'", () => {
    const shapeWith = (name: string) =>
      readOperationShape(
        planSpec({
          paths: {
            "/items": {
              get: op("i1", "List items", {
                parameters: [{ name, in: "query", schema: { type: "string" } }],
              }),
            },
          },
        }).tools[0]!,
      );
    expect(
      ["startDateTime", "end_date", "since", "until", "from_time", "after", "before", "to", "limit"].map(
        (name) => [name, shapeWith(name).spans],
      ),
    ).toEqual([
      ["startDateTime", true],
      ["end_date", true],
      ["since", true],
      ["until", true],
      ["from_time", true],
      ["after", false],
      ["before", false],
      ["to", false],
      ["limit", false],
    ]);
  });

  it("reads a timed phrase from a short phrase only", () => {
    const words = (query: string) => readQueryIntent(splitWords(query));
    expect(words("events this week").timed).toBe(true);
    expect(words("list events").timed).toBe(false);
    // A long task's days and weeks are as often values as spans.
    expect(words("book a table for four people at an italian place near the office this friday").timed).toBe(
      false,
    );
  });
});

describe("the first person is read from the query's text", () => {
  it.each<[string, boolean]>([
    ["groups I belong to", true],
    ["can i create pods", true],
    ["I'm looking for my files", true],
    ["what have I shared", true],
    ["who am I.", true],
    ["list iPhone apps", false],
    ["it is in the inbox", false],
    ["section i.e. the part", false],
  ])("%s: %s", (query, want) => {
    expect(hasFirstPerson(query)).toBe(want);
  });

  it.each([
    // After a preposition or a determiner an action word names a thing (Trello's lists).
    { query: "create a card on a list", actions: ["create"], containers: ["list"] },
    { query: "add the new member", actions: ["create"], containers: [] },
    { query: "list cards of the board", actions: ["list"], containers: ["board"] },
    { query: "list and delete old files", actions: ["list", "delete"], containers: [] },
  ])("$query: actions $actions", ({ query, actions, containers }) => {
    const intent = readQueryIntent(splitWords(query));
    expect([...intent.actions]).toEqual(actions);
    expect([...intent.containers]).toEqual(containers);
  });

  it("in a long task 'I' is the person asking, not the account", () => {
    const long = "I am going to Paris next week: read the messages about hotels, flights, trains and museums";
    expect(readQueryIntent(splitWords(long), false, hasFirstPerson(long)).self).toBe(false);
    expect(readQueryIntent(splitWords("messages I have"), false, true).self).toBe(true);
  });
});

/** A webinar API (Zoom-shaped: some operations named by one plain word) and an issue tracker's. */
const PLAIN_NAMES = planSpec({
  paths: {
    "/webinars/{webinarId}": { ...withId("webinarId"), get: op("webinar", "Get a webinar") },
    "/webinars/{webinarId}/registrants": {
      ...withId("webinarId"),
      get: op("webinarRegistrants", "List webinar registrants"),
      post: op("webinarRegistrantCreate", "Add a webinar registrant"),
    },
    "/rest/api/3/statuses/search": {
      get: op("search", "Search statuses paginated", {
        description: "Returns a page of statuses that match a search on name or project.",
      }),
    },
    "/rest/api/3/search": {
      get: op("searchForIssuesUsingJql", "Search for issues using JQL", {
        parameters: [{ name: "jql", in: "query", schema: { type: "string" } }],
      }),
    },
    "/rest/api/3/issue/{issueIdOrKey}": {
      ...withId("issueIdOrKey"),
      get: op("getIssue", "Get issue"),
    },
    "/rest/api/3/issue/{issueIdOrKey}/assignee": {
      ...withId("issueIdOrKey"),
      put: op("assignIssue", "Assign issue"),
    },
  },
}).tools;

/** Jira-like: the issues' search, the operations that assign, and users one may assign. */
const ASSIGNING = planSpec({
  paths: {
    "/rest/api/3/search": {
      get: op("searchForIssuesUsingJql", "Search for issues using JQL", {
        description: "Searches for issues using JQL.",
        parameters: [{ name: "jql", in: "query", schema: { type: "string" } }],
      }),
    },
    "/rest/api/3/issue/{issueIdOrKey}": { ...withId("issueIdOrKey"), get: op("getIssue", "Get issue") },
    "/rest/api/3/issue/{issueIdOrKey}/assignee": {
      ...withId("issueIdOrKey"),
      put: op("assignIssue", "Assign issue", { description: "Assigns an issue to a user." }),
    },
    "/rest/api/3/user/assignable/search": {
      get: op("findAssignableUsers", "Find users assignable to issues", {
        description: "Returns a list of users that can be assigned to an issue.",
      }),
    },
    "/rest/api/3/issuetypescheme/project": {
      put: op("assignIssueTypeSchemeToProject", "Assign issue type scheme to project"),
    },
  },
}).tools;

describe("a filtered phrase asks for the search of the things, not the act its participle names", () => {
  it.each<[string, string]>([
    ["find issues assigned to me", "searchForIssuesUsingJql"],
    ["search issues assigned to me", "searchForIssuesUsingJql"],
    ["issues assigned to me", "searchForIssuesUsingJql"],
    ["assign an issue", "assignIssue"],
  ])("%s: %s", (query, want) => {
    expect(top(ASSIGNING, query), query).toEqual([want]);
  });

  it("reads the participle that says which, in a short phrase only", () => {
    expect([...readQueryIntent(splitWords("issues assigned to me")).qualifiers]).toEqual(["assign"]);
    expect([...readQueryIntent(splitWords("assigned issues")).qualifiers]).toEqual([]);
    const long = "I need the issues assigned to our team for the release and the comments of each one today";
    expect([...readQueryIntent(splitWords(long)).qualifiers]).toEqual([]);
  });
});

/** Square's customers: a search by fields beside the list, the read by id and the create. */
const CUSTOMERS = planSpec({
  paths: {
    "/v2/customers": {
      get: op("ListCustomers", "Lists customer profiles associated with a Square account."),
      post: op("CreateCustomer", "Creates a new customer for a business."),
    },
    "/v2/customers/{customer_id}": {
      ...withId("customer_id"),
      get: op("RetrieveCustomer", "Returns details for a single customer."),
    },
    "/v2/customers/search": {
      post: op(
        "SearchCustomers",
        "Searches the customer profiles associated with a Square account using a supported query filter.",
      ),
    },
  },
}).tools;

describe("a thing found by one of its fields is a search's", () => {
  it.each<[string, string]>([
    ["find a customer by email", "SearchCustomers"],
    ["look up a customer by phone number", "SearchCustomers"],
    ["get a customer by id", "RetrieveCustomer"],
  ])("%s: %s", (query, want) => {
    expect(top(CUSTOMERS, query), query).toEqual([want]);
  });
});

describe("an operation named by a plain word is named only by the whole query", () => {
  it.each<[string, string, string]>([
    [
      "the person's word, not the name: the registrants",
      "add a registrant to a webinar",
      "webinarRegistrantCreate",
    ],
    [
      "the issues searched, not the statuses' search named 'search'",
      "search issues",
      "searchForIssuesUsingJql",
    ],
    ["the name alone is the operation", "webinar", "webinar"],
    ["the name alone, another case", "Search", "search"],
  ])("%s: %s", (_label, query, want) => {
    expect(top(PLAIN_NAMES, query), query).toEqual([want]);
  });

  it("an identifier-like name is named anywhere in the query", () => {
    expect(top(PLAIN_NAMES, "call webinarRegistrants now")).toEqual(["webinarRegistrants"]);
  });
});

describe("what a short phrase says of the thing it asks for", () => {
  it.each([
    // After the thing a phrase of adding or sending names, "to" says where it goes.
    { query: "add a registrant to a webinar", containers: ["webinar"], filtered: false },
    { query: "send a message to a channel", containers: ["channel"], filtered: false },
    // Elsewhere "to" starts a verb as often.
    { query: "ask someone to review a pull request", containers: [], filtered: false },
    { query: "track changes to users", containers: [], filtered: false },
    { query: "how to add a user", containers: [], filtered: false },
    { query: "add a to do task", containers: [], filtered: false },
    // A participle right after it says which of them: a search's job.
    { query: "issues assigned to me", containers: ["assign"], filtered: true },
    { query: "files shared with me", containers: ["share"], filtered: true },
    { query: "assigned issues", containers: [], filtered: false },
    { query: "list users", containers: [], filtered: false },
    // Found by one of its fields (not its id): a search's job too.
    { query: "find a customer by email", containers: ["email"], filtered: true },
    { query: "find files by name", containers: ["name"], filtered: true },
    { query: "get a customer by id", containers: ["id"], filtered: false },
    { query: "get a customer", containers: [], filtered: false },
    // A first word that "for" follows is the verb, and what follows "for" the thing asked for.
    { query: "search for tracks", containers: [], filtered: false },
    { query: "look for a user by name", containers: ["name"], filtered: true },
    { query: "lists on a board", containers: ["board"], filtered: false },
    {
      query: "I need the issues assigned to our team for the release and the comments of each one today",
      containers: [],
      filtered: false,
    },
  ])("$query: containers $containers, filtered $filtered", ({ query, containers, filtered }) => {
    const intent = readQueryIntent(splitWords(query));
    expect([...intent.containers]).toEqual(containers);
    expect(intent.filtered).toBe(filtered);
  });

  it("a filtered phrase weighs a search higher, and the participle less than the thing", () => {
    const got = top(PLAIN_NAMES, "find issues assigned to me", 6);
    expect(got.indexOf("searchForIssuesUsingJql"), got.join(", ")).toBeLessThan(got.indexOf("assignIssue"));
    const search = readOperationShape(PLAIN_NAMES.find((tool) => tool.name === "searchForIssuesUsingJql")!);
    const terms = new Set(["issu", "assign"]);
    const filtered = readQueryIntent(splitWords("issues assigned to me"));
    const plain = readQueryIntent(splitWords("issues of me"));
    expect(weighShape(filtered, terms, search, true)).toBeGreaterThan(weighShape(plain, terms, search, true));
  });
});

describe("hostile queries stay bounded", () => {
  it("a query of thousands of distinct words ranks as its first part does", () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}x`).join(" ");
    const search = createOperationSearch(ODATA_LIKE);
    expect(() => search.search(`list users ${words}`, { limit: 5 })).not.toThrow();
    expect(search.search(`list users ${words}`.slice(0, MAX_QUERY_CHARS * 50), { limit: 1 })[0]?.name).toBe(
      "op11",
    );
  });

  it("a short prefix that begins thousands of words stands for a few of them", () => {
    const many = planSpec({
      paths: Object.fromEntries(
        Array.from({ length: 2_000 }, (_, i) => [
          `/cal${i.toString(36)}x`,
          { get: op(`op${i}`, "Read one") },
        ]),
      ),
    }).tools;
    const hits = createOperationSearch(many).search("cal", { limit: 50 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(50);
  });
});

/** A flags API (LaunchDarkly-shaped: the collection keyed by a project) with an archive action. */
const FLAGS = planSpec({
  paths: {
    "/flags/{projectKey}": {
      ...withId("projectKey"),
      get: op("getFlags", "Get a list of all features in the given project"),
      post: op("postFlag", "Creates a new feature flag"),
    },
    "/flags/{projectKey}/{flagKey}": {
      ...withId("projectKey", "flagKey"),
      get: op("getFlag", "Get a single feature flag by key"),
      patch: op("patchFlag", "Perform a partial update to a feature"),
      delete: op("deleteFlag", "Delete a feature flag"),
    },
    "/projects/{id}": { ...withId("id"), put: op("putProject", "Update a project") },
    "/projects/{id}/archive": { ...withId("id"), post: op("archiveProject", "Archive a project") },
  },
}).tools;

describe("a state change is an update of the thing, or its action", () => {
  it.each<[string, string, string]>([
    ["a phrasal verb: the PATCH, not the POST that creates", "turn on a feature flag", "patchFlag"],
    ["its opposite", "switch off the flag", "patchFlag"],
    ["a verb the API has no word for", "disable a flag", "patchFlag"],
    ["a verb the API has an action for", "archive a project", "archiveProject"],
  ])("%s: %s", (_label, query, want) => {
    expect(top(FLAGS, query), query).toEqual([want]);
  });

  it.each<[string, string, boolean, string]>([
    ["the particle is the verb's, not a place", "turn on a feature flag", true, "featur"],
    ["a state verb first", "pause an automation", true, "autom"],
    ["a state word after a determiner names a thing", "get the archive", false, "archiv"],
    ["a verb the list does not have", "turn a page", false, "turn"],
  ])("%s: %s", (_label, query, change, target) => {
    const intent = readQueryIntent(splitWords(query));
    expect(intent.actions.has("change")).toBe(change);
    expect([...intent.targets]).toEqual([stem(target)]);
  });
});

/** Box-shaped: sharing is a collaboration; a shared link is the API's own word. */
const SHARING = planSpec({
  paths: {
    "/collaborations": { post: op("post_collaborations", "Create collaboration") },
    "/folders/{folder_id}": { ...withId("folder_id"), put: op("put_folders_id", "Update folder") },
    "/files/{file_id}/shared_link": {
      ...withId("file_id"),
      get: op("get_files_id_shared_link", "Get shared link for file"),
    },
  },
}).tools;

describe("a verb's bridge is crossed only by the verb that starts the phrase", () => {
  it.each<[string, string]>([
    ["share a folder with a user", "post_collaborations"],
    ["get a shared link for a file", "get_files_id_shared_link"],
  ])("%s", (query, want) => {
    expect(top(SHARING, query), query).toEqual([want]);
  });

  it("the bridge is the lead's only", () => {
    expect(findSynonyms(stem("share"), true, true)).toContain(stem("collaboration"));
    expect(findSynonyms(stem("share"), true, false)).not.toContain(stem("collaboration"));
  });

  it("a person the task names vaguely may be the API's member or user", () => {
    expect(findSynonyms(stem("someone"))).toEqual([stem("member"), stem("user")]);
    expect(findSynonyms(stem("someone"), false)).toEqual([]);
  });
});

describe("adding a thing to a place may be a PUT into the place's set", () => {
  const shape = (method: ToolNode["http"]["method"], path: string) =>
    readOperationShape({ ...NOUN_VERBS[0]!, http: { ...NOUN_VERBS[0]!.http, method, path } });
  it.each<[string, string, ToolNode["http"]["method"], string, number]>([
    ["the PUT of the thing under the place", "add a member to a board", "put", "/boards/{id}/members", 1],
    ["the POST as ever", "add a member to a board", "post", "/boards/{id}/members", 1],
    ["a PUT of another thing under the place", "add a member to a board", "put", "/boards/{id}/labels", 0],
    [
      "a PUT of the thing under no place the task names",
      "add a member to a board",
      "put",
      "/cards/{id}/members",
      0,
    ],
    ["no place named", "add a member", "put", "/boards/{id}/members", 0],
  ])("%s: %s, %s %s", (_label, query, method, path, want) => {
    expect(matchAction(readQueryIntent(splitWords(query)), shape(method, path))).toBe(want);
  });
});
