/**
 * Which parameters a runtime serves without (request/filled-parameters.ts), table-driven: the
 * configuration's `--header`, a configured apiKey scheme naming the parameter, a credential
 * withheld unless allowed; and that the request then carries the configured value only.
 */
import { describe, expect, it } from "vitest";
import type { BridgeModel, ParameterBindingNode, ToolNode } from "../../../../src/model/types.js";
import { IR_VERSION } from "../../../../src/model/types.js";
import { buildRequest } from "../../../../src/runtime/request/build-request.js";
import {
  type FillSource,
  fillServedParameters,
  type ParameterSources,
} from "../../../../src/runtime/request/filled-parameters.js";

function binding(
  name: string,
  location: ParameterBindingNode["in"],
  extra: Partial<ParameterBindingNode> = {},
) {
  return {
    argument: name,
    name,
    in: location,
    required: true,
    style: location === "query" || location === "cookie" ? "form" : "simple",
    explode: location === "query" || location === "cookie",
    allowReserved: false,
    shape: "primitive",
    ...extra,
  } satisfies ParameterBindingNode;
}

/** A Discourse-like tool: a credential header, a plain header, a query key of a scheme, a path id. */
function model(): BridgeModel {
  const parameters = [
    binding("Api-Key", "header", { credential: "secret" }),
    binding("Api-Username", "header"),
    binding("key", "query", { required: false }),
    binding("id", "path"),
  ];
  const tool: ToolNode = {
    name: "getTopic",
    title: "Get topic",
    description: "",
    inputSchema: {
      type: "object",
      properties: {
        "Api-Key": { type: "string" },
        "Api-Username": { type: "string" },
        key: { type: "string" },
        id: { type: "string" },
      },
      required: ["Api-Key", "Api-Username", "id"],
      additionalProperties: false,
    },
    annotations: {
      title: "Get topic",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: {
      method: "get",
      path: "/t/{id}.json",
      parameters,
      security: [{ query_key: [] }, {}],
      responses: [],
      accept: ["application/json"],
    },
    source: { pointer: "/paths/~1t~1{id}.json/get" },
    tags: [],
    deprecated: false,
  };
  return {
    irVersion: IR_VERSION,
    info: { title: "Forum", version: "1", specVersion: "3.1" },
    servers: [{ url: "https://forum.example", variables: {} }],
    securitySchemes: { query_key: { type: "apiKey", in: "query", name: "key" } },
    tools: [tool],
    diagnostics: [],
  };
}

function sources(given: { headers?: string[]; schemes?: string[]; allowed?: string[] }): ParameterSources {
  return {
    headers: new Set(given.headers ?? []),
    schemes: new Set(given.schemes ?? []),
    allowed: new Set(given.allowed ?? []),
  };
}

describe("fillServedParameters", () => {
  it.each([
    {
      title: "nothing configured: the credential header and the scheme's query key are withheld",
      given: {},
      want: [
        ["Api-Key", "withheld"],
        ["key", "withheld"],
      ],
      arguments: ["Api-Username", "id"],
    },
    {
      title: "--header Api-Key and --auth query_key: both filled",
      given: { headers: ["api-key"], schemes: ["query_key"] },
      want: [
        ["Api-Key", "header"],
        ["key", "scheme"],
      ],
      arguments: ["Api-Username", "id"],
    },
    {
      title: "--header Api-Username (no credential): filled too, so the model does not give it",
      given: { headers: ["api-key", "api-username"] },
      want: [
        ["Api-Key", "header"],
        ["Api-Username", "header"],
        ["key", "withheld"],
      ],
      arguments: ["id"],
    },
    {
      title: "--allow-credential-arguments api-key,KEY (any case): both stay arguments",
      given: { allowed: ["api-key", "key"] },
      want: [],
      arguments: ["Api-Key", "Api-Username", "key", "id"],
    },
    {
      title: "allowed but configured: the configuration still wins",
      given: { headers: ["api-key"], allowed: ["api-key", "key"] },
      want: [["Api-Key", "header"]],
      arguments: ["Api-Username", "key", "id"],
    },
  ] satisfies {
    title: string;
    given: Parameters<typeof sources>[0];
    want: [string, FillSource][];
    arguments: string[];
  }[])("$title", ({ given, want, arguments: kept }) => {
    const original = model();
    const served = fillServedParameters(original, sources(given));
    expect(served.filled.map((entry) => [entry.name, entry.by])).toEqual(want);
    const tool = served.model.tools[0]!;
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(kept);
    expect(tool.inputSchema.required).toEqual(
      ["Api-Key", "Api-Username", "id"].filter((n) => kept.includes(n)),
    );
    expect(tool.http.parameters.map((p) => p.name)).toEqual(
      ["Api-Key", "Api-Username", "key", "id"].filter((n) => kept.includes(n)),
    );
    // The model given is left as it was (a reload or another API may share it).
    expect(original).toEqual(model());
  });

  it("returns the very model when no tool has such a parameter (tools/list unchanged)", () => {
    const plain = model();
    plain.tools[0]!.http.parameters = [binding("id", "path")];
    plain.tools[0]!.http.security = [];
    expect(fillServedParameters(plain, sources({})).model).toBe(plain);
  });

  it("drops the names from dependentRequired and x-omb-optional too", () => {
    const given = model();
    given.tools[0]!.inputSchema = {
      ...given.tools[0]!.inputSchema,
      dependentRequired: { "Api-Username": ["Api-Key"], id: ["Api-Username", "Api-Key"] },
      "x-omb-optional": ["Api-Key"],
    };
    const tool = fillServedParameters(given, sources({ headers: ["api-key"], allowed: ["key"] })).model
      .tools[0]!;
    expect(tool.inputSchema.dependentRequired).toEqual({ id: ["Api-Username"] });
    expect(tool.inputSchema).not.toHaveProperty("x-omb-optional");
  });
});

describe("the request of a served tool", () => {
  it("carries the configured header and query key, never a value the model gave for them", () => {
    const served = fillServedParameters(model(), sources({ headers: ["api-key"], schemes: ["query_key"] }));
    const request = buildRequest(
      served.model.tools[0]!,
      // What a model might try: validation refuses these, and even past it they are not read.
      { id: "7", "Api-Username": "alice", "Api-Key": "from-model", key: "from-model" },
      {
        baseUrl: "https://forum.example",
        securitySchemes: served.model.securitySchemes,
        credentials: new Map([["query_key", "configured-query-key"]]),
        headers: { "api-key": "configured-header-key" },
      },
    );
    expect(request.path).toBe("/t/7.json?key=configured-query-key");
    expect(request.headers["api-key"]).toBe("configured-header-key");
    expect(request.headers["api-username"]).toBe("alice");
  });

  it("sends a withheld credential not at all", () => {
    const served = fillServedParameters(model(), sources({}));
    const request = buildRequest(
      served.model.tools[0]!,
      { id: "7", "Api-Username": "alice", "Api-Key": "from-model", key: "from-model" },
      { baseUrl: "https://forum.example", securitySchemes: {}, credentials: new Map(), headers: {} },
    );
    expect(request.path).toBe("/t/7.json");
    expect(request.headers).not.toHaveProperty("api-key");
  });
});

describe("parameters filled by schemes of different security alternatives", () => {
  /** Trello: `key` and `token` both required query parameters, security `[{api_key}, {api_token}]`. */
  function trello(): BridgeModel {
    const base = model();
    const tool = base.tools[0]!;
    tool.http.parameters = [binding("key", "query"), binding("token", "query"), binding("id", "path")];
    tool.http.security = [{ api_key: [] }, { api_token: [] }];
    tool.inputSchema = {
      type: "object",
      properties: { key: { type: "string" }, token: { type: "string" }, id: { type: "string" } },
      required: ["key", "token", "id"],
    };
    base.securitySchemes = {
      api_key: { type: "apiKey", in: "query", name: "key" },
      api_token: { type: "apiKey", in: "query", name: "token" },
    };
    return base;
  }

  const send = (served: BridgeModel, credentials: [string, string][]) =>
    buildRequest(
      served.tools[0]!,
      { id: "7" },
      {
        baseUrl: "https://forum.example",
        securitySchemes: served.securitySchemes,
        credentials: new Map(credentials),
        headers: {},
      },
    );

  it.each([
    {
      title: "both configured: both sent, though each alternative names one",
      schemes: ["api_key", "api_token"],
      credentials: [
        ["api_key", "K"],
        ["api_token", "T"],
      ] as [string, string][],
      path: "/t/7.json?key=K&token=T",
    },
    {
      title: "only the key configured: the key alone (the token is withheld, not invented)",
      schemes: ["api_key"],
      credentials: [["api_key", "K"]] as [string, string][],
      path: "/t/7.json?key=K",
    },
    {
      title: "only the token configured: the token alone",
      schemes: ["api_token"],
      credentials: [["api_token", "T"]] as [string, string][],
      path: "/t/7.json?token=T",
    },
  ])("$title", ({ schemes, credentials, path }) => {
    const served = fillServedParameters(trello(), sources({ schemes })).model;
    expect(send(served, credentials).path).toBe(path);
  });

  it("adds no alternative when one alternative already holds every filling scheme", () => {
    const given = trello();
    given.tools[0]!.http.security = [{ api_key: [], api_token: [] }];
    const served = fillServedParameters(given, sources({ schemes: ["api_key", "api_token"] })).model;
    expect(served.tools[0]!.http.security).toEqual([{ api_key: [], api_token: [] }]);
  });
});

describe("an operation that declares the API's key but no security", () => {
  it("is filled from the API's scheme of that name and sends it, anonymous access kept after", () => {
    const given = model();
    const tool = given.tools[0]!;
    tool.http.security = [];
    const served = fillServedParameters(given, sources({ schemes: ["query_key"] })).model;
    expect(Object.keys(served.tools[0]!.inputSchema.properties as object)).not.toContain("key");
    expect(served.tools[0]!.http.security).toEqual([{ query_key: [] }, {}]);
    const request = buildRequest(
      served.tools[0]!,
      { id: "7", "Api-Username": "alice" },
      {
        baseUrl: "https://forum.example",
        securitySchemes: served.securitySchemes,
        credentials: new Map([["query_key", "K"]]),
        headers: {},
      },
    );
    expect(request.path).toBe("/t/7.json?key=K");
  });

  it("withholds it when the scheme is not configured, instead of asking the model", () => {
    const given = model();
    given.tools[0]!.http.security = [];
    const served = fillServedParameters(given, sources({}));
    expect(served.filled.map((entry) => [entry.name, entry.by])).toContainEqual(["key", "withheld"]);
  });

  it("leaves a parameter of that name alone on an operation asking for another scheme", () => {
    const given = model();
    given.tools[0]!.http.security = [{ other: [] }];
    given.securitySchemes.other = { type: "http", scheme: "bearer" };
    const served = fillServedParameters(given, sources({ schemes: ["query_key", "other"] }));
    expect(served.filled.map((entry) => entry.name)).not.toContain("key");
  });
});
