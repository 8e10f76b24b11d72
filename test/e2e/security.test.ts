/**
 * Credentials reach the upstream only where an operation's `security` asks for them, in the form
 * the scheme says: bearer token, basic user:password, API key in a header, query or cookie.
 * Values come from the `auth` option or from OPENAPI_MCP_AUTH_<SCHEME> in `env`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type BridgeOptions,
  type Connected,
  connectModel,
  connectSpec,
  fixture,
  textOf,
} from "../helpers/bridge.js";
import {
  type RecordedRequest,
  sendJson,
  startUpstream,
  type Upstream,
  type UpstreamHandler,
} from "../helpers/upstream.js";
import { planSpec } from "./safety-support.js";
import { WIRE_SPECS, wireResponder } from "./wire-cases.js";

const AUTH = {
  bearerAuth: "tok-123",
  basicAuth: "alice:s3cret",
  apiKeyHeader: "hk-1",
  apiKeyQuery: "qk-1",
  apiKeyCookie: "ck-1",
};
const BASIC = `Basic ${Buffer.from("alice:s3cret").toString("base64")}`;

/** The wire API's answers, except for the petstore operations, which get bodies their response schemas accept. */
const responder: UpstreamHandler = (req, res, incoming) => {
  if (req.rawPath.startsWith("/pet/findBy")) return sendJson(res, 200, [{ name: "Rex", photoUrls: [] }]);
  if (/^\/pet\/\d+$/.test(req.rawPath)) return sendJson(res, 200, { id: 5, name: "Rex", photoUrls: [] });
  if (req.rawPath === "/user/login") return sendJson(res, 200, "session-token");
  return wireResponder(req, res, incoming);
};

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream(responder);
});

afterAll(async () => {
  await upstream.close();
});

beforeEach(() => {
  upstream.reset();
});

interface Seen {
  authorization: string | undefined;
  apiKeyHeader: string | undefined;
  query: [string, string][];
  cookies: [string, string][];
}

function seen(req: RecordedRequest): Seen {
  return {
    authorization: req.header("authorization"),
    apiKeyHeader: req.header("x-api-key"),
    query: req.queryPairs().sort(),
    cookies: req.cookies().sort(),
  };
}

async function callOnce(bridge: Connected, tool: string, args: Record<string, unknown> = {}): Promise<Seen> {
  upstream.reset();
  const result = await bridge.call(tool, args);
  expect(result.isError ?? false, textOf(result)).toBe(false);
  expect(upstream.requests).toHaveLength(1);
  return seen(upstream.requests[0]!);
}

const NOTHING: Seen = { authorization: undefined, apiKeyHeader: undefined, query: [], cookies: [] };

describe.each([
  ["auth option", { auth: AUTH }],
  [
    "OPENAPI_MCP_AUTH_* env",
    {
      env: {
        OPENAPI_MCP_AUTH_BEARERAUTH: AUTH.bearerAuth,
        OPENAPI_MCP_AUTH_BASICAUTH: AUTH.basicAuth,
        OPENAPI_MCP_AUTH_APIKEYHEADER: AUTH.apiKeyHeader,
        OPENAPI_MCP_AUTH_APIKEYQUERY: AUTH.apiKeyQuery,
        OPENAPI_MCP_AUTH_APIKEYCOOKIE: AUTH.apiKeyCookie,
      },
    },
  ],
] as const)("credentials from %s (OpenAPI 3.1)", (_label, options: BridgeOptions) => {
  let bridge: Connected;

  beforeAll(async () => {
    bridge = await connectSpec(fixture(WIRE_SPECS["3.1"]), { baseUrl: upstream.url, ...options });
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("sends a bearer token only to the bearer operation", async () => {
    expect(await callOnce(bridge, "secureBearer")).toEqual({ ...NOTHING, authorization: "Bearer tok-123" });
  });

  it("sends basic credentials", async () => {
    expect(await callOnce(bridge, "secureBasic")).toEqual({ ...NOTHING, authorization: BASIC });
  });

  it("sends an API key in its header", async () => {
    expect(await callOnce(bridge, "secureHeaderKey")).toEqual({ ...NOTHING, apiKeyHeader: "hk-1" });
  });

  it("sends an API key in the query, next to the operation's own parameters", async () => {
    expect(await callOnce(bridge, "secureQueryKey", { q: "x y" })).toEqual({
      ...NOTHING,
      query: [
        ["api_key", "qk-1"],
        ["q", "x y"],
      ],
    });
  });

  it("sends an API key in a cookie, next to the operation's own cookies", async () => {
    expect(await callOnce(bridge, "secureCookieKey", { theme: "dark" })).toEqual({
      ...NOTHING,
      cookies: [
        ["api_session", "ck-1"],
        ["theme", "dark"],
      ],
    });
  });

  it("sends no credentials to operations without security", async () => {
    expect(await callOnce(bridge, "getPet", { petId: 1 })).toEqual(NOTHING);
    expect(await callOnce(bridge, "createPet", { name: "Rex" })).toEqual(NOTHING);
  });
});

describe("credentials, Swagger 2.0", () => {
  let bridge: Connected;

  beforeAll(async () => {
    // Swagger 2.0 has no bearer or cookie scheme: a credential for one would be refused at start.
    const { bearerAuth: _bearer, apiKeyCookie: _cookie, ...auth } = AUTH;
    bridge = await connectSpec(fixture(WIRE_SPECS["2.0"]), { baseUrl: upstream.url, auth });
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("maps basic and apiKey securityDefinitions", async () => {
    expect(await callOnce(bridge, "secureBasic")).toEqual({ ...NOTHING, authorization: BASIC });
    expect(await callOnce(bridge, "secureHeaderKey")).toEqual({ ...NOTHING, apiKeyHeader: "hk-1" });
    expect(await callOnce(bridge, "secureQueryKey")).toEqual({ ...NOTHING, query: [["api_key", "qk-1"]] });
    expect(await callOnce(bridge, "getPet", { petId: 1 })).toEqual(NOTHING);
  });
});

describe("credentials, classic petstore (scheme names with underscores, oauth2)", () => {
  let bridge: Connected;

  beforeAll(async () => {
    bridge = await connectSpec(fixture("petstore/petstore.openapi30.yaml"), {
      baseUrl: upstream.url,
      env: { OPENAPI_MCP_AUTH_API_KEY: "pk-9", OPENAPI_MCP_AUTH_PETSTORE_AUTH: "oauth-tok" },
    });
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("sends the api_key scheme's header to getPetById", async () => {
    upstream.reset();
    const result = await bridge.call("getPetById", { petId: 5 });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const req = upstream.requests[0]!;
    expect(`${req.method} ${req.rawUrl}`).toBe("GET /pet/5");
    expect(req.header("api_key")).toBe("pk-9");
    expect(req.header("authorization")).toBeUndefined();
  });

  it("sends the oauth2 token as a bearer token to findPetsByStatus", async () => {
    upstream.reset();
    const result = await bridge.call("findPetsByStatus", { status: ["available", "sold"] });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const req = upstream.requests[0]!;
    expect(`${req.method} ${req.rawUrl}`).toBe("GET /pet/findByStatus?status=available&status=sold");
    expect(req.header("authorization")).toBe("Bearer oauth-tok");
    expect(req.header("api_key")).toBeUndefined();
  });

  it("sends nothing to the unsecured loginUser (whose password the model may not give)", async () => {
    upstream.reset();
    const result = await bridge.call("loginUser", { username: "bob" });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const req = upstream.requests[0]!;
    expect(`${req.method} ${req.rawUrl}`).toBe("GET /user/login?username=bob");
    expect(req.header("authorization")).toBeUndefined();
    expect(req.header("api_key")).toBeUndefined();
  });
});

describe("credentials stay with the API's origin", () => {
  it("a redirect to another origin does not carry the credentials along", async () => {
    const elsewhere = await startUpstream();
    const bridge = await connectSpec(fixture(WIRE_SPECS["3.1"]), { baseUrl: upstream.url, auth: AUTH });
    try {
      upstream.setHandler((_req, res) => {
        res.writeHead(307, { location: `${elsewhere.url}/secure/bearer` });
        res.end();
      });
      await bridge.call("secureBearer");
      await bridge.call("secureHeaderKey");
      for (const req of elsewhere.requests) {
        expect(req.header("authorization")).toBeUndefined();
        expect(req.header("x-api-key")).toBeUndefined();
      }
    } finally {
      upstream.setHandler(responder);
      await bridge.close();
      await elsewhere.close();
    }
  });
});

describe("security requirements: inheritance, opt-out, OR, AND, scheme-name mapping", () => {
  const SPEC = fixture("security/requirements.openapi31.yaml");
  let all: Connected;
  let onlyQueryKey: Connected;
  let byOption: Connected;

  beforeAll(async () => {
    all = await connectSpec(SPEC, {
      baseUrl: upstream.url,
      env: {
        OPENAPI_MCP_AUTH_MY_KEY_V2: "mk",
        OPENAPI_MCP_AUTH_QUERYKEY: "qk",
        OPENAPI_MCP_AUTH_OAUTH2: "oa",
        OPENAPI_MCP_AUTH_OIDC: "oi",
      },
    });
    onlyQueryKey = await connectSpec(SPEC, { baseUrl: upstream.url, auth: { queryKey: "qk" } });
    byOption = await connectSpec(SPEC, { baseUrl: upstream.url, auth: { "my-key.v2": "mk2" } });
  });

  afterAll(async () => {
    await all?.close();
    await onlyQueryKey?.close();
    await byOption?.close();
  });

  async function creds(bridge: Connected, tool: string) {
    upstream.reset();
    const result = await bridge.call(tool);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const req = upstream.requests[0]!;
    return { xKey: req.header("x-key"), authorization: req.header("authorization"), query: req.queryPairs() };
  }

  it("document-level security applies to operations that say nothing", async () => {
    expect(await creds(all, "inherited")).toEqual({ xKey: "mk", authorization: undefined, query: [] });
  });

  it("`security: []` opts an operation out", async () => {
    expect(await creds(all, "public")).toEqual({ xKey: undefined, authorization: undefined, query: [] });
  });

  it("a requirement naming two schemes sends both", async () => {
    expect(await creds(all, "both")).toEqual({
      xKey: "mk",
      authorization: undefined,
      query: [["key", "qk"]],
    });
  });

  it("oauth2 and openIdConnect tokens are sent as bearer tokens", async () => {
    expect((await creds(all, "oauth")).authorization).toBe("Bearer oa");
    expect((await creds(all, "oidc")).authorization).toBe("Bearer oi");
  });

  it("of alternatives, the one that is configured is used", async () => {
    expect(await creds(onlyQueryKey, "either")).toEqual({
      xKey: undefined,
      authorization: undefined,
      query: [["key", "qk"]],
    });
  });

  it("the auth option takes scheme names as written in the spec", async () => {
    expect((await creds(byOption, "inherited")).xKey).toBe("mk2");
  });
});

describe("an Authorization header parameter in a spec without security schemes", () => {
  const spec = (url: string) =>
    planSpec({
      servers: [{ url }],
      paths: {
        "/me": {
          get: {
            operationId: "getMe",
            parameters: [{ name: "Authorization", in: "header", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok", content: { "application/json": { schema: {} } } } },
          },
        },
      },
    });

  it("is a credential from the environment, sent as the header, never an argument or in a result", async () => {
    const model = spec(upstream.url);
    expect(model.tools[0]!.inputSchema.properties).toEqual({});
    const bridge = await connectModel(model, {
      env: { OPENAPI_MCP_AUTH_AUTHORIZATIONHEADER: "Token abc-123" },
    });
    try {
      const refused = await bridge.call("getMe", { Authorization: "Token from-the-model" });
      expect(refused.isError).toBe(true);
      expect(upstream.requests).toHaveLength(0);
      const result = await bridge.call("getMe", {});
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => r.header("authorization"))).toEqual(["Token abc-123"]);
    } finally {
      await bridge.close();
    }
  });
});
