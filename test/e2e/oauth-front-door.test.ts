/**
 * The bridge as an OAuth 2.1 protected resource (issue 27), end to end: the built CLI serving
 * `--transport http --auth-issuer ...` in front of a recording upstream, a real authorization
 * server (oidc-provider on 127.0.0.1, test/helpers/authorization-server.ts) and the v2 SDK
 * client's own OAuth flow (client credentials, discovered from the 401). A token's scopes
 * decide what it lists and may call (the spec's own scopes, and an operator rule for a tag); a
 * call outside them is answered 403 `insufficient_scope` so the client can step up; tokens for
 * another audience, expired, of another issuer, with a bad signature, `alg: none` or HMAC are
 * refused; an opaque token is checked by introspection; the MCP token never goes upstream, and
 * the audit line names the token's subject.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Client,
  ClientCredentialsProvider,
  InsufficientScopeError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  startAuthorizationServer,
  type TestClient,
} from "../helpers/authorization-server.js";
import { fixture, freePort, type HttpBridge, runCli, startHttpBridge } from "../helpers/bridge.js";
import { readJsonRpcAnswer } from "../helpers/json-rpc-answer.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";

const SPEC = fixture("security", "front-door.openapi31.yaml");
const UPSTREAM_TOKEN = "upstream-static-token-5f2c";
const SCOPES = ["notes:read", "notes:write", "notes:admin"];
const READER: TestClient = { id: "reader", secret: "reader-secret-0123456789", scope: "notes:read" };
const WRITER: TestClient = {
  id: "writer",
  secret: "writer-secret-0123456789",
  scope: "notes:read notes:write",
};
const OPAQUE: TestClient = { id: "opaque-reader", secret: "opaque-secret-0123456789", scope: "notes:read" };
const INTROSPECTOR: TestClient = { id: "bridge", secret: "bridge-secret-0123456789", scope: "" };
const ADMIN_SCOPE = "notes:read notes:write notes:admin";
const ADMIN: TestClient = { id: "admin", secret: "admin-secret-0123456789", scope: ADMIN_SCOPE };
const OTHER_ADMIN: TestClient = {
  id: "other-admin",
  secret: "other-admin-secret-012345",
  scope: ADMIN_SCOPE,
};

let upstream: Upstream;
let as: AuthorizationServer;
let bridge: HttpBridge;
let resource: string;
let dir: string;
let auditFile: string;

beforeAll(async () => {
  upstream = await startUpstream((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  as = await startAuthorizationServer({
    clients: [READER, WRITER, OPAQUE, INTROSPECTOR, ADMIN, OTHER_ADMIN],
    scopes: SCOPES,
    opaqueClients: [OPAQUE.id],
  });
  dir = mkdtempSync(join(tmpdir(), "omb-front-door-"));
  auditFile = join(dir, "audit.jsonl");
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  bridge = await startHttpBridge(
    SPEC,
    [
      "--base-url",
      upstream.url,
      "--auth",
      `notesOAuth=${UPSTREAM_TOKEN}`,
      "--auth-issuer",
      as.issuer,
      "--auth-resource",
      resource,
      "--auth-scopes",
      "notes:read",
      "--auth-spec-scopes",
      "--auth-scope-map",
      "tag:admin=notes:admin",
      "--auth-introspection-client",
      INTROSPECTOR.id,
      "--audit-log",
      auditFile,
    ],
    { OPENAPI_MCP_AUTH_INTROSPECTION_SECRET: INTROSPECTOR.secret },
    port,
  );
});

afterAll(async () => {
  await bridge?.stop();
  await as?.close();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => upstream.reset());

const ERAS = [
  ["2025-11-25", {}],
  ["2026-07-28", { versionNegotiation: { mode: { pin: "2026-07-28" } } }],
] as const;

/** A v2 SDK client that finds the authorization server from the bridge's 401 and gets its own token. */
async function connectAs(
  client: TestClient,
  era: (typeof ERAS)[number][1],
  onInsufficientScope: "throw" | "reauthorize" = "throw",
): Promise<Client> {
  const authProvider = new ClientCredentialsProvider({
    clientId: client.id,
    clientSecret: client.secret,
    scope: client.scope,
    expectedIssuer: as.issuer,
  });
  const mcp = new Client({ name: "front-door-e2e", version: "1.0.0" }, era);
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(resource), { authProvider, onInsufficientScope }),
  );
  return mcp;
}

function postInitialize(token?: string): Promise<Response> {
  return fetch(resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

describe("discovery", () => {
  it("serves the protected resource metadata at the path-suffixed and the root well-known URLs", async () => {
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const response = await fetch(new URL(path, resource));
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const metadata = (await response.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        resource,
        authorization_servers: [as.issuer],
        bearer_methods_supported: ["header"],
      });
      expect([...(metadata.scopes_supported as string[])].sort()).toEqual([...SCOPES].sort());
    }
  });

  it("answers a request without a token with 401 naming the metadata and the scopes to ask for first", async () => {
    const response = await postInitialize();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="http://127.0.0.1:${bridge.port}/.well-known/oauth-protected-resource/mcp", scope="notes:read"`,
    );
  });

  it("keeps the health check open", async () => {
    expect((await fetch(new URL("/healthz", resource))).status).toBe(200);
  });
});

describe.each(ERAS)("an SDK client with its own token, %s", (_era, options) => {
  it("lists only the tools its scopes allow and calls them; the API never sees the MCP token", async () => {
    const reader = await connectAs(READER, options);
    try {
      const names = (await reader.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(["getNote", "health", "listNotes"]);
      const result = await reader.callTool({ name: "listNotes", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]!.header("authorization")).toBe(`Bearer ${UPSTREAM_TOKEN}`);
      // No header the API received carries a JWT (the MCP token, or any part of it).
      expect(JSON.stringify(upstream.requests[0]!.rawHeaders)).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
    } finally {
      await reader.close();
    }
  });

  it("steps up: a client allowed more scopes signs in again for the one asked, the call goes through, and it lists more", async () => {
    // The 401 names notes:read, so the writer starts with that; the 403 names notes:write, which it may get.
    const writer = await connectAs(WRITER, options, "reauthorize");
    try {
      expect((await writer.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        "getNote",
        "health",
        "listNotes",
      ]);
      const result = await writer.callTool({ name: "createNote", arguments: { text: "stepped up" } });
      expect(result.isError).toBeFalsy();
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]!.json()).toEqual({ text: "stepped up" });
      // A 2026-07-28 client keeps the list it was given (ttlMs); after a new sign-in it asks again.
      expect(
        (await writer.listTools(undefined, { cacheMode: "refresh" })).tools.map((tool) => tool.name).sort(),
      ).toEqual(["createNote", "getNote", "health", "listNotes"]);
    } finally {
      await writer.close();
    }
  });

  it("is answered 403 insufficient_scope, with the scope to step up to, outside its scopes", async () => {
    const reader = await connectAs(READER, options);
    try {
      const refused = await reader.callTool({ name: "createNote", arguments: { text: "x" } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(InsufficientScopeError);
      expect((refused as InsufficientScopeError).requiredScope).toBe("notes:write");
      expect(String((refused as InsufficientScopeError).resourceMetadataUrl)).toBe(
        `http://127.0.0.1:${bridge.port}/.well-known/oauth-protected-resource/mcp`,
      );
      const admin = await reader.callTool({ name: "deleteNote", arguments: { id: "1" } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((admin as InsufficientScopeError).requiredScope).toBe("notes:admin");
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await reader.close();
    }
  });
});

describe("step-up", () => {
  it("the raw 403 carries error, scope and resource_metadata (RFC 6750 §3.1)", async () => {
    const token = await as.token(READER, { resource });
    const response = await fetch(resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "deleteNote", arguments: { id: "1" } },
      }),
    });
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
    expect(challenge).toContain('scope="notes:admin"');
    expect(challenge).toContain(
      `resource_metadata="http://127.0.0.1:${bridge.port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe("refused tokens", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ scope: "notes:read notes:write notes:admin", client_id: "reader", sub: "mallory" });
  const signed = (payload: Record<string, unknown>, key = as.signingKey, kid = as.signingKid) =>
    new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" }).sign(key);

  it("accepts a well-made token (the control for the cases below)", async () => {
    const token = await signed({ ...claims(), iss: as.issuer, aud: resource, iat: now(), exp: now() + 120 });
    expect((await postInitialize(token)).status).toBe(200);
  });

  const cases: [string, () => Promise<string>, RegExp][] = [
    [
      "for another audience (a real token of the server)",
      () => as.token(READER, { resource: "http://127.0.0.1:1/other" }),
      /not issued for this resource/,
    ],
    [
      "for another audience (crafted)",
      () => signed({ ...claims(), iss: as.issuer, aud: "https://api.example.com", exp: now() + 120 }),
      /not issued for this resource/,
    ],
    [
      "expired (beyond the clock skew)",
      () => signed({ ...claims(), iss: as.issuer, aud: resource, iat: now() - 600, exp: now() - 120 }),
      /expired/,
    ],
    [
      "of another issuer (signed with the real key)",
      () => signed({ ...claims(), iss: "https://evil.example.com", aud: resource, exp: now() + 120 }),
      /issuer this resource does not accept/,
    ],
    [
      "with a bad signature (another key, the real key id)",
      async () => {
        const other = await generateKeyPair("ES256");
        return signed({ ...claims(), iss: as.issuer, aud: resource, exp: now() + 120 }, other.privateKey);
      },
      /signature is not valid/,
    ],
    [
      "with alg none",
      async () => new UnsecuredJWT({ ...claims(), iss: as.issuer, aud: resource, exp: now() + 120 }).encode(),
      /alg none, which this resource does not accept/,
    ],
    [
      "with HMAC over a guessable secret",
      () =>
        new SignJWT({ ...claims(), iss: as.issuer, aud: resource, exp: now() + 120 })
          .setProtectedHeader({ alg: "HS256", kid: as.signingKid })
          .sign(new TextEncoder().encode("the issuer's public key, as text")),
      /alg HS256, which this resource does not accept/,
    ],
    ["opaque and unknown", async () => "not-a-jwt-9f8e7d6c5b4a", /not active/],
  ];

  it.each(cases)("refuses a token %s with 401 invalid_token", async (_name, make, description) => {
    const response = await postInitialize(await make());
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toMatch(description);
    expect(challenge).toContain("resource_metadata=");
    expect(upstream.requests).toHaveLength(0);
  });

  it("accepts an opaque token of the issuer, checked by introspection", async () => {
    const token = await as.token(OPAQUE, { resource });
    expect(token.split(".")).toHaveLength(1);
    expect((await postInitialize(token)).status).toBe(200);
  });
});

describe("identity", () => {
  it("a session is its opener's: another user's token does not reach it", async () => {
    const response = await postInitialize(await as.token(READER, { resource }));
    const session = response.headers.get("mcp-session-id");
    expect(session).toBeTruthy();
    const other = await fetch(resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${await as.token(WRITER, { resource })}`,
        "mcp-session-id": session!,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    expect(other.status).toBe(404);
  });

  it("the audit line names the token's subject, never the token", async () => {
    const reader = await connectAs(READER, {});
    await reader.callTool({ name: "health", arguments: {} });
    await reader.close();
    const lines = readFileSync(auditFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const health = lines.filter((line) => line.tool === "health");
    expect(health.at(-1)).toMatchObject({ tool: "health", outcome: "ok", subject: READER.id });
    expect(readFileSync(auditFile, "utf8")).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
    expect(bridge.stderr()).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  });
});

describe("discovery mode", () => {
  let discovery: HttpBridge;
  let endpoint: string;

  beforeAll(async () => {
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}/mcp`;
    discovery = await startHttpBridge(
      SPEC,
      [
        "--mode",
        "discovery",
        "--base-url",
        upstream.url,
        "--auth",
        `notesOAuth=${UPSTREAM_TOKEN}`,
        "--auth-issuer",
        as.issuer,
        "--auth-resource",
        endpoint,
        "--auth-scopes",
        "notes:read",
        "--auth-spec-scopes",
      ],
      {},
      port,
    );
  });

  afterAll(async () => {
    await discovery?.stop();
  });

  it("search finds only what the token may call; call_operation outside its scopes gets the step-up 403", async () => {
    const authProvider = new ClientCredentialsProvider({
      clientId: READER.id,
      clientSecret: READER.secret,
      scope: READER.scope,
      expectedIssuer: as.issuer,
    });
    const mcp = new Client({ name: "front-door-e2e", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), { authProvider, onInsufficientScope: "throw" }),
    );
    try {
      const search = await mcp.callTool({ name: "search_operations", arguments: { query: "notes" } });
      const found = JSON.stringify(search.structuredContent ?? search.content);
      expect(found).toContain("listNotes");
      expect(found).not.toContain("createNote");
      // A near miss is never answered with the name of an operation the token may not call.
      const described = await mcp.callTool({
        name: "describe_operations",
        arguments: { names: ["createNotez"] },
      });
      const unknown = await mcp.callTool({
        name: "call_operation",
        arguments: { name: "createNotez", arguments: {} },
      });
      for (const answer of [described, unknown]) {
        expect(answer.isError).toBe(true);
        expect(JSON.stringify(answer.content)).not.toMatch(/createNote(?!z)/);
      }
      const refused = await mcp
        .callTool({ name: "call_operation", arguments: { name: "createNote", arguments: { text: "x" } } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect((refused as InsufficientScopeError).requiredScope).toBe("notes:write");
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await mcp.close();
    }
  });
});

describe("confirmation on the 2026-07-28 wire", () => {
  let confirming: HttpBridge;
  let endpoint: string;
  const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

  beforeAll(async () => {
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}/mcp`;
    confirming = await startHttpBridge(
      SPEC,
      [
        "--destructive",
        "confirm",
        "--base-url",
        upstream.url,
        "--auth",
        `notesOAuth=${UPSTREAM_TOKEN}`,
        "--auth-issuer",
        as.issuer,
        "--auth-resource",
        endpoint,
        "--auth-spec-scopes",
        "--auth-scope-map",
        "tag:admin=notes:admin",
      ],
      {},
      port,
    );
  });

  afterAll(async () => {
    await confirming?.stop();
  });

  /** One round of a raw 2026-07-28 tools/call of deleteNote with `token`. */
  async function deleteNote(
    token: string,
    retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {},
  ): Promise<Record<string, unknown>> {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "deleteNote",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "deleteNote",
          arguments: { id: "n1" },
          ...retry,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
          },
        },
      }),
    });
    const { text, answer } = await readJsonRpcAnswer(response);
    const body = (answer ?? {}) as { result?: Record<string, unknown> };
    if (!body.result) throw new Error(`no result: ${text}`);
    return body.result;
  }

  it("a question asked of one user is not answered by another's token; its own user's answer runs the call", async () => {
    const mine = await as.token(ADMIN, { resource: endpoint });
    const asked = await deleteNote(mine);
    expect(asked["resultType"]).toBe("input_required");
    const requestState = asked["requestState"] as string;
    const theirs = await as.token(OTHER_ADMIN, { resource: endpoint });
    const refused = await deleteNote(theirs, { requestState, inputResponses: ACCEPT });
    expect(refused["isError"]).toBe(true);
    expect(JSON.stringify(refused["content"])).toContain("asked of another user");
    expect(upstream.requests).toHaveLength(0);
    const done = await deleteNote(mine, { requestState, inputResponses: ACCEPT });
    expect(done["isError"]).toBeFalsy();
    expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(["DELETE /notes/n1"]);
  });
});

describe("start-up", () => {
  it("refuses --http-token with --auth-issuer", async () => {
    const run = await runCli([
      "serve",
      SPEC,
      "--transport",
      "http",
      "--port",
      "0",
      "--http-token",
      "t0ken-for-both",
      "--auth-issuer",
      as.issuer,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("OMB_OAUTH_RESOURCE_CONFLICT");
  });

  it("refuses an http issuer off loopback and an HMAC algorithm", async () => {
    const run = await runCli([
      "serve",
      SPEC,
      "--transport",
      "http",
      "--port",
      "0",
      "--auth-issuer",
      "http://login.example.com",
      "--auth-algorithms",
      "RS256,HS256",
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("OMB_OAUTH_RESOURCE_INVALID");
    expect(run.stderr).toContain("http://login.example.com");
    expect(run.stderr).toContain("HS256");
  });
});
