/**
 * OAuth2 client credentials against a real loopback token endpoint (a second server standing in
 * for the identity provider): tokens fetched, cached, refreshed once on 401; client secret in
 * the Basic header or the body; OpenID Connect discovery; failures that send nothing to the API;
 * per-request pass-through credentials; and no secret in any result.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { BridgeModel } from "../../src/model/types.js";
import { createTokenSource } from "../../src/runtime/auth/oauth.js";
import type { BridgeOptions } from "../../src/runtime/engine/bridge-options.js";
import { type RecordedRequest, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, errorMeta, planSpec, textOf } from "./safety-support.js";

const SECRET = "client-secret-XYZ-123";
let api: Upstream;
let idp: Upstream;
let issued = 0;
let tokenLifetime: number | undefined = 3600;
let idpFailure: { status: number; body: unknown } | undefined;
let apiAnswer: (req: RecordedRequest) => number = () => 200;
/** When set, the identity provider holds its next token request and reports its connection closing. */
let holdToken: ((held: { closed: Promise<unknown> }) => void) | undefined;
let model: BridgeModel;

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

beforeAll(async () => {
  api = await startUpstream((req, res) => {
    // The API's own token endpoint, on its origin: a token URL no one needs to confirm.
    if (req.rawPath === "/oauth/token") {
      issued++;
      return sendJson(res, 200, { access_token: `tok-${issued}`, token_type: "Bearer", expires_in: 3600 });
    }
    sendJson(res, apiAnswer(req), { auth: req.header("authorization") ?? null });
  });
  idp = await startUpstream((req, res, incoming) => {
    if (holdToken && req.rawPath === "/token") {
      holdToken({ closed: new Promise((resolve) => incoming.socket.once("close", resolve)) });
      holdToken = undefined;
      return;
    }
    if (req.rawPath === "/.well-known/openid-configuration") {
      return sendJson(res, 200, {
        issuer: idp.url,
        token_endpoint: `${idp.url}/oidc/token`,
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      });
    }
    if (idpFailure) return sendJson(res, idpFailure.status, idpFailure.body);
    issued++;
    sendJson(res, 200, {
      access_token: `tok-${issued}`,
      token_type: "Bearer",
      ...(tokenLifetime === undefined ? {} : { expires_in: tokenLifetime }),
    });
  });
  model = planSpec({
    servers: [{ url: "https://unused.example.test" }],
    paths: {
      "/secure": { get: { operationId: "secure", security: [{ cc: ["read"] }], responses: ok } },
      "/things": { post: { operationId: "createThing", security: [{ cc: [] }], responses: ok } },
      "/oidc": { get: { operationId: "viaOidc", security: [{ oidc: [] }], responses: ok } },
      "/public": { get: { operationId: "public", responses: ok } },
      "/key": { get: { operationId: "withKey", security: [{ key: [] }], responses: ok } },
      "/either": { get: { operationId: "either", security: [{ key: [] }, { cc: [] }], responses: ok } },
    },
    components: {
      securitySchemes: {
        cc: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: `${idp.url}/token`, scopes: { read: "read" } } },
        },
        oidc: { type: "openIdConnect", openIdConnectUrl: `${idp.url}/.well-known/openid-configuration` },
        key: { type: "apiKey", in: "header", name: "X-Key" },
      },
    },
  });
});
afterAll(async () => {
  await api.close();
  await idp.close();
});
beforeEach(() => {
  api.reset();
  idp.reset();
  issued = 0;
  tokenLifetime = 3600;
  idpFailure = undefined;
  apiAnswer = () => 200;
  holdToken = undefined;
});

function connect(options: BridgeOptions = {}) {
  return connectRuntime(model, {
    baseUrl: api.url,
    env: {},
    // The identity provider listens on another port, so another site: the operator confirms it.
    oauth: {
      cc: { clientId: "my client", clientSecret: SECRET, scopes: ["read", "write"], trustSpecTokenUrl: true },
    },
    ...options,
  });
}

function form(req: RecordedRequest): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(req.text()));
}

function expectNoSecretAt(server: Upstream): void {
  for (const req of server.requests) {
    expect(JSON.stringify(req.rawHeaders)).not.toContain(SECRET);
    expect(req.rawUrl).not.toContain(SECRET);
    expect(req.text()).not.toContain(SECRET);
  }
}

describe("client credentials", () => {
  it("stops a call cancelled while it waits for its token: the fetch is aborted, nothing reaches the API", async () => {
    const bridge = await connect();
    try {
      const held = new Promise<{ closed: Promise<unknown> }>((resolve) => {
        holdToken = resolve;
      });
      const cancel = new AbortController();
      const call = bridge.client.callTool({ name: "secure", arguments: {} }, undefined, {
        signal: cancel.signal,
      });
      const { closed } = await held;
      cancel.abort("not needed");
      await expect(call).rejects.toThrow();
      await closed;
      expect(api.requests).toHaveLength(0);
      // The next call fetches a token of its own and goes through.
      expect((await bridge.call("secure")).structuredContent).toEqual({ auth: "Bearer [REDACTED]" });
    } finally {
      await bridge.close();
    }
  });

  it("fetches a token once (secret in the Basic header), caches it, and sends it only where security asks", async () => {
    const bridge = await connect();
    try {
      // The API echoes the Authorization header: the token is redacted from what the model sees.
      expect((await bridge.call("secure")).structuredContent).toEqual({ auth: "Bearer [REDACTED]" });
      await bridge.call("createThing");
      expect((await bridge.call("public")).structuredContent).toEqual({ auth: null });
      expect(api.requests.map((r) => r.header("authorization") ?? null)).toEqual([
        "Bearer tok-1",
        "Bearer tok-1",
        null,
      ]);
      expect(idp.requests).toHaveLength(1);
      const token = idp.requests[0]!;
      expect([token.method, token.rawPath, token.header("content-type")]).toEqual([
        "POST",
        "/token",
        "application/x-www-form-urlencoded",
      ]);
      expect(token.header("authorization")).toBe(
        `Basic ${Buffer.from(`my+client:${SECRET}`).toString("base64")}`,
      );
      expect(form(token)).toEqual({ grant_type: "client_credentials", scope: "read write" });
      expectNoSecretAt(api);
    } finally {
      await bridge.close();
    }
  });

  it("can send the client secret in the body instead", async () => {
    const bridge = await connect({
      oauth: {
        cc: {
          clientId: "id-1",
          clientSecret: SECRET,
          trustSpecTokenUrl: true,
          clientAuth: "body",
          extraParams: { audience: "https://api" },
        },
      },
    });
    try {
      await bridge.call("secure");
      const token = idp.requests[0]!;
      expect(token.header("authorization")).toBeUndefined();
      expect(form(token)).toEqual({
        grant_type: "client_credentials",
        audience: "https://api",
        client_id: "id-1",
        client_secret: SECRET,
      });
    } finally {
      await bridge.close();
    }
  });

  it("reads the client from OPENAPI_MCP_CLIENT_ID_<SCHEME> and OPENAPI_MCP_CLIENT_SECRET_<SCHEME>", async () => {
    // Nothing to confirm in the environment alone: the token URL is on the API's own origin.
    const onSite = planSpec({
      servers: [{ url: api.url }],
      paths: { "/secure": { get: { operationId: "secure", security: [{ cc: [] }], responses: ok } } },
      components: {
        securitySchemes: {
          cc: {
            type: "oauth2",
            flows: { clientCredentials: { tokenUrl: `${api.url}/oauth/token`, scopes: {} } },
          },
        },
      },
    });
    const bridge = await connectRuntime(onSite, {
      env: { OPENAPI_MCP_CLIENT_ID_CC: "env-client", OPENAPI_MCP_CLIENT_SECRET_CC: SECRET },
    });
    try {
      await bridge.call("secure");
      expect(api.requests.map((r) => r.rawPath)).toEqual(["/oauth/token", "/secure"]);
      expect(api.requests[0]!.header("authorization")).toBe(
        `Basic ${Buffer.from(`env-client:${SECRET}`).toString("base64")}`,
      );
      expect(api.requests[1]!.header("authorization")).toBe("Bearer tok-1");
    } finally {
      await bridge.close();
    }
  });

  it("gets a new token once when the API answers 401, then succeeds (POST too)", async () => {
    apiAnswer = (req) => (req.header("authorization") === "Bearer tok-1" ? 401 : 200);
    const bridge = await connect();
    try {
      expect((await bridge.call("createThing")).isError ?? false).toBe(false);
      expect(api.requests.map((r) => r.header("authorization"))).toEqual(["Bearer tok-1", "Bearer tok-2"]);
      expect(idp.requests).toHaveLength(2);
      await bridge.call("secure");
      expect(idp.requests).toHaveLength(2); // the new token is cached
    } finally {
      await bridge.close();
    }
  });

  it("refreshes only once: an API that keeps answering 401 gives an authentication error", async () => {
    apiAnswer = () => 401;
    const bridge = await connect();
    try {
      const result = await bridge.call("secure");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Authentication failed: HTTP 401/);
      expect(api.requests).toHaveLength(2);
      expect(idp.requests).toHaveLength(2);
    } finally {
      await bridge.close();
    }
  });

  it("a 401 with a static credential is not retried", async () => {
    apiAnswer = () => 401;
    const bridge = await connect({ auth: { key: "static-key-1" } });
    try {
      await bridge.call("withKey");
      expect(api.requests).toHaveLength(1);
      expect(idp.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });

  it("prefers a configured alternative that needs no token fetch only when it comes first", async () => {
    const bridge = await connect({ auth: { key: "static-key-1" } });
    try {
      await bridge.call("either");
      expect(api.requests[0]!.header("x-key")).toBe("static-key-1");
      expect(idp.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });

  it("a token endpoint that refuses the client gives an authentication error, sends nothing to the API, shows no secret", async () => {
    idpFailure = {
      status: 401,
      body: { error: "invalid_client", error_description: `bad secret ${SECRET}` },
    };
    const bridge = await connect();
    try {
      const result = await bridge.call("secure");
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(
        /^Authentication failed: the bridge could not get an OAuth2 access token for secure: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token answered HTTP 401 \(invalid_client: bad secret \[REDACTED\]\)/,
      );
      expect(text).not.toContain(SECRET);
      expect(errorMeta(result)?.category).toBe("authentication");
      expect(api.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });

  it.each([
    [{ access_token: "a\r\nX-Evil: 1", token_type: "Bearer" }, "no usable access_token"],
    [{ token_type: "Bearer" }, "no usable access_token"],
    [{ access_token: "t", token_type: "mac" }, "only bearer tokens are supported"],
  ])("a token response %j is refused", async (body, message) => {
    idpFailure = { status: 200, body };
    const bridge = await connect();
    try {
      expect(textOf(await bridge.call("secure"))).toContain(message);
      expect(api.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });

  it("never sends the client secret to a token URL that is not https (except loopback)", async () => {
    const bridge = await connect({
      oauth: { cc: { clientId: "c", clientSecret: SECRET, tokenUrl: "http://idp.example.test/token" } },
    });
    try {
      const text = textOf(await bridge.call("secure"));
      expect(text).toContain(
        "the token URL http://idp.example.test is not https; client secrets are only sent over https",
      );
      expect(api.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });

  it("finds the token endpoint by OpenID Connect discovery and uses the auth method it supports", async () => {
    const bridge = await connect({
      oauth: { oidc: { clientId: "oidc-client", clientSecret: SECRET, trustSpecTokenUrl: true } },
    });
    try {
      await bridge.call("viaOidc");
      await bridge.call("viaOidc");
      expect(api.requests.map((r) => r.header("authorization"))).toEqual(["Bearer tok-1", "Bearer tok-1"]);
      expect(idp.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual([
        "GET /.well-known/openid-configuration",
        "POST /oidc/token",
      ]);
      expect(form(idp.requests[1]!)).toMatchObject({ client_id: "oidc-client", client_secret: SECRET });
      expectNoSecretAt(api);
    } finally {
      await bridge.close();
    }
  });

  it("refuses configuration for a scheme that is not oauth2 or openIdConnect", async () => {
    await expect(connect({ oauth: { key: { clientId: "a", clientSecret: "b" } } })).rejects.toThrow(
      /configured for "key", which is not an oauth2 or openIdConnect scheme/,
    );
  });
});

describe("token URLs the spec names", () => {
  // The API answers on 127.0.0.1; "localhost" is another host name, so another site.
  const offSite = () => `http://localhost:${new URL(idp.url).port}`;

  it.each([
    ["oauth2 tokenUrl", "cc", "secure", "token URL"],
    ["openIdConnect discovery URL", "oidc", "viaOidc", "OpenID Connect discovery URL"],
  ])(
    "a spec's %s off the API's site gets no client secret until the operator confirms it",
    async (_, scheme, tool, what) => {
      const hostile = planSpec({
        servers: [{ url: api.url }],
        paths: {
          "/secure": { get: { operationId: "secure", security: [{ cc: [] }], responses: ok } },
          "/oidc": { get: { operationId: "viaOidc", security: [{ oidc: [] }], responses: ok } },
        },
        components: {
          securitySchemes: {
            cc: {
              type: "oauth2",
              flows: { clientCredentials: { tokenUrl: `${offSite()}/steal`, scopes: {} } },
            },
            oidc: {
              type: "openIdConnect",
              openIdConnectUrl: `${offSite()}/.well-known/openid-configuration`,
            },
          },
        },
      });
      const bridge = await connectRuntime(hostile, {
        baseUrl: api.url,
        env: {},
        oauth: { [scheme]: { clientId: "c", clientSecret: SECRET } },
      });
      try {
        const result = await bridge.call(tool);
        expect(result.isError).toBe(true);
        const text = textOf(result);
        expect(text).toContain(`the spec's ${what} ${offSite()}/`);
        expect(text).toContain(`is not on the API's site (127.0.0.1:${api.port})`);
        expect(text).toContain(`oauth2.${scheme}.tokenUrl`);
        expect(text).not.toContain(SECRET);
        expect(idp.requests).toHaveLength(0);
        expect(api.requests).toHaveLength(0);
      } finally {
        await bridge.close();
      }
    },
  );

  it("uses an off-site token URL the operator pinned or trusted, and an on-site one by default", async () => {
    const { Agent } = await import("undici");
    const agent = new Agent();
    const sourceFor = (tokenUrl: string, config: Record<string, unknown>, apiUrl: string) =>
      createTokenSource({
        schemeName: "cc",
        scheme: { type: "oauth2", flows: { clientCredentials: { tokenUrl, scopes: {} } } } as never,
        config: { clientId: "c", clientSecret: SECRET, ...config },
        baseUrl: () => apiUrl,
        getDispatcher: async () => agent,
        http: { timeoutMs: 5000, connectTimeoutMs: 5000, maxResponseBytes: 1 << 20 },
      });
    try {
      const elsewhere = "https://api.other-site.example";
      // The spec's token URL is off the API's site: refused, then trusted, then pinned.
      await expect(sourceFor(`${idp.url}/token`, {}, elsewhere).getToken()).rejects.toThrow(
        /not on the API's site \(api\.other-site\.example\)/,
      );
      expect(idp.requests).toHaveLength(0);
      expect(await sourceFor(`${idp.url}/token`, { trustSpecTokenUrl: true }, elsewhere).getToken()).toBe(
        "tok-1",
      );
      expect(
        await sourceFor("https://evil.example/token", { tokenUrl: `${idp.url}/token` }, elsewhere).getToken(),
      ).toBe("tok-2");
      // Same host and port: no confirmation needed; another port of the same host is another site.
      expect(await sourceFor(`${idp.url}/token`, {}, `${idp.url}/v1`).getToken()).toBe("tok-3");
      await expect(sourceFor(`${idp.url}/token`, {}, api.url).getToken()).rejects.toThrow(
        `is not on the API's site (127.0.0.1:${api.port})`,
      );
      expect(idp.requests.map((r) => r.rawPath)).toEqual(["/token", "/token", "/token"]);
    } finally {
      await agent.close();
    }
  });
});

describe("token source", () => {
  it("refreshes ahead of expiry (a minute early, or at half-life), with one fetch for concurrent callers", async () => {
    tokenLifetime = 100;
    let now = 0;
    const { Agent } = await import("undici");
    const agent = new Agent();
    const source = createTokenSource({
      schemeName: "cc",
      scheme: model.securitySchemes["cc"]!,
      config: { clientId: "c", clientSecret: SECRET },
      baseUrl: () => idp.url,
      getDispatcher: async () => agent,
      http: { timeoutMs: 5000, connectTimeoutMs: 5000, maxResponseBytes: 1 << 20 },
      now: () => now,
    });
    try {
      expect(await Promise.all([source.getToken(), source.getToken(), source.getToken()])).toEqual([
        "tok-1",
        "tok-1",
        "tok-1",
      ]);
      now = 49_999;
      expect(await source.getToken()).toBe("tok-1");
      now = 50_000; // 100 s lifetime: refreshed 50 s early
      expect(await source.getToken()).toBe("tok-2");
      source.invalidate("tok-1"); // an old token: nothing happens
      expect(await source.getToken()).toBe("tok-2");
      source.invalidate("tok-2");
      expect(await source.getToken()).toBe("tok-3");
      tokenLifetime = 3600;
      source.invalidate("tok-3");
      expect(await source.getToken()).toBe("tok-4");
      now += 3_539_999;
      expect(await source.getToken()).toBe("tok-4");
      now += 1; // an hour's token: refreshed a minute early
      expect(await source.getToken()).toBe("tok-5");
      expect(source.secrets()).toEqual(
        expect.arrayContaining([SECRET, "tok-1", "tok-2", "tok-3", "tok-4", "tok-5"]),
      );
    } finally {
      await agent.close();
    }
  });
});

describe("pass-through credentials", () => {
  it("uses a configured incoming header as that request's credential, and nothing else of the MCP request", async () => {
    const bridge = await connect({
      auth: { key: "static-key" },
      passThroughHeaders: { "X-User-Key": "key" },
    });
    try {
      const { runtime } = bridge;
      await runtime.callTool(
        "withKey",
        {},
        { headers: { "x-user-key": "alice-key", authorization: "Bearer mcp-token" } },
      );
      await runtime.callTool("withKey", {}, { headers: { authorization: "Bearer mcp-token" } });
      await runtime.callTool(
        "public",
        {},
        { headers: { "x-user-key": "alice-key", authorization: "Bearer mcp-token" } },
      );
      expect(
        api.requests.map((r) => [
          r.header("x-key") ?? null,
          r.header("authorization") ?? null,
          r.header("x-user-key") ?? null,
        ]),
      ).toEqual([
        ["alice-key", null, null],
        ["static-key", null, null],
        [null, null, null],
      ]);
    } finally {
      await bridge.close();
    }
  });

  it("maps a Bearer header onto an oauth2 scheme, and redacts the passed value from results", async () => {
    apiAnswer = () => 500;
    const bridge = await connect({ passThroughHeaders: { "x-upstream-authorization": "cc" } });
    try {
      const result = await bridge.runtime.callTool(
        "secure",
        {},
        { headers: { "x-upstream-authorization": "Bearer user-token-77" } },
      );
      expect(api.requests[0]!.header("authorization")).toBe("Bearer user-token-77");
      expect(idp.requests).toHaveLength(0);
      expect(textOf(result)).toContain("[REDACTED]");
      expect(textOf(result)).not.toContain("user-token-77");
    } finally {
      await bridge.close();
    }
  });

  it("refuses a pass-through header for an unknown scheme", async () => {
    await expect(connect({ passThroughHeaders: { "x-k": "nope" } })).rejects.toThrow(
      /no security scheme "nope"/,
    );
  });
});
