/**
 * Each MCP user's own login to the API (issue 27), end to end through the built CLI: the bridge
 * behind its OAuth front door, a real authorization server (oidc-provider on 127.0.0.1) both
 * for the MCP users' tokens and as the API's own provider (authorization code with PKCE and
 * refresh tokens, its login and consent pages driven over HTTP), and a recording upstream.
 * Two users sign in through the bridge, one on each protocol era; each one's calls carry their
 * own upstream token, never the other's and never the MCP token; a 401 makes the bridge
 * refresh; no token reaches a result, the audit log or stderr. The replicas' part needs
 * redis-server (Debian's package, installed by .ci/run) and skips, saying why, without it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  signIn,
  startAuthorizationServer,
  type TestClient,
} from "../helpers/authorization-server.js";
import { freePort, type HttpBridge, startHttpBridge, textOf } from "../helpers/bridge.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const ALICE: TestClient = { id: "alice-agent", secret: "alice-agent-secret-0123456789", scope: "notes:read" };
const BOB: TestClient = { id: "bob-agent", secret: "bob-agent-secret-0123456789", scope: "notes:read" };
const CAROL: TestClient = { id: "carol-agent", secret: "carol-agent-secret-0123456789", scope: "notes:read" };
const DAVE: TestClient = { id: "dave-agent", secret: "dave-agent-secret-0123456789", scope: "notes:read" };
const ERIN: TestClient = { id: "erin-agent", secret: "erin-agent-secret-0123456789", scope: "notes:read" };
const STORE_KEY = "s".repeat(48);
/** Replicas on one Redis: their ports and the store's, known before the provider starts. */
const replicas = { a: 0, b: 0, redis: 0 };
const APP_SECRET = "bridge-app-secret-0123456789";

let upstream: Upstream;
let as: AuthorizationServer;
let bridge: HttpBridge;
let resource: string;
let dir: string;
let auditFile: string;
let specFile: string;
/** Upstream tokens the API refuses (401), to make the bridge refresh. */
const refused = new Set<string>();

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.header("authorization") ?? "")?.[1];
    if (token === undefined || refused.has(token)) return sendJson(res, 401, { message: "bad token" });
    // The API echoes the credential it got: the bridge must never let it through to a result.
    sendJson(res, 200, { notes: [{ id: "n1" }], seenAuthorization: req.header("authorization") });
  });
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  const callback = `http://127.0.0.1:${port}/oauth/callback`;
  replicas.a = await freePort();
  replicas.b = await freePort();
  replicas.redis = await freePort();
  as = await startAuthorizationServer({
    clients: [
      ALICE,
      BOB,
      CAROL,
      DAVE,
      ERIN,
      { id: "bridge-app", secret: APP_SECRET, scope: "openid", redirectUris: [callback] },
      // The replicas' app: the provider sends users back to replica A (the load balancer's URL).
      {
        id: "replica-app",
        secret: APP_SECRET,
        scope: "openid",
        redirectUris: [`http://127.0.0.1:${replicas.a}/oauth/callback`],
      },
    ],
    scopes: ["notes:read", "openid"],
  });
  dir = mkdtempSync(join(tmpdir(), "omb-user-login-"));
  auditFile = join(dir, "audit.jsonl");
  specFile = join(dir, "notes.json");
  writeFileSync(
    specFile,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Notes", version: "1" },
      servers: [{ url: upstream.url }],
      security: [{ userAuth: [] }],
      paths: {
        "/notes": {
          get: {
            operationId: "listNotes",
            responses: {
              "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
            },
          },
        },
      },
      components: {
        securitySchemes: {
          userAuth: {
            type: "oauth2",
            flows: {
              authorizationCode: {
                authorizationUrl: `${as.issuer}/auth`,
                tokenUrl: `${as.issuer}/token`,
                scopes: {},
              },
            },
          },
        },
      },
    }),
  );
  const authConfig = join(dir, "auth.json");
  writeFileSync(
    authConfig,
    JSON.stringify({
      oauth2: {
        userAuth: {
          flow: "authorizationCode",
          clientId: "bridge-app",
          clientSecret: { env: "APP_SECRET" },
          // The provider is on another port than the API: the operator confirms it.
          tokenUrl: `${as.issuer}/token`,
          redirectUrl: callback,
          revocationUrl: `${as.issuer}/token/revocation`,
          scopes: ["openid"],
        },
      },
    }),
  );
  bridge = await startHttpBridge(
    specFile,
    [
      "--auth-config",
      authConfig,
      "--auth-issuer",
      as.issuer,
      "--auth-resource",
      resource,
      "--auth-scopes",
      "notes:read",
      "--audit-log",
      auditFile,
    ],
    { APP_SECRET, OPENAPI_MCP_TOKEN_STORE_KEY: "k".repeat(48) },
    port,
  );
}, 30_000);

afterAll(async () => {
  await bridge?.stop();
  await as?.close();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => upstream.reset());

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

/** A v2 SDK client of `agent` (front door token by client credentials) that can open URLs for its user. */
async function connectAs(
  agent: TestClient,
  options: { era?: typeof MODERN; openUrl?: (url: string) => Promise<void>; endpoint?: string } = {},
): Promise<Client> {
  const authProvider = new ClientCredentialsProvider({
    clientId: agent.id,
    clientSecret: agent.secret,
    scope: agent.scope,
    expectedIssuer: as.issuer,
  });
  const mcp = new Client(
    { name: "user-login-e2e", version: "1.0.0" },
    {
      ...(options.era ?? {}),
      ...(options.openUrl ? { capabilities: { elicitation: { url: {} } } } : {}),
    },
  );
  const openUrl = options.openUrl;
  if (openUrl) {
    mcp.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { mode?: string; url?: string };
      if (params.mode !== "url" || params.url === undefined) return { action: "decline" };
      await openUrl(params.url);
      return { action: "accept" };
    });
  }
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(options.endpoint ?? resource), { authProvider }),
  );
  return mcp;
}

/** The user's browser: signs in at the provider and lands on the bridge's callback page. */
async function signInAs(login: string, url: string): Promise<string> {
  const back = await signIn(url, login);
  expect(back.origin + back.pathname).toBe(`${new URL(resource).origin}/oauth/callback`);
  const page = await fetch(back);
  const text = await page.text();
  expect(page.status, text).toBe(200);
  return text;
}

/** Every upstream token seen by the tests, for the check that none is ever shown. */
const seenTokens = new Set<string>();

function upstreamTokens(): string[] {
  const tokens = upstream.requests.map((r) => r.header("authorization") ?? "");
  for (const token of tokens) seenTokens.add(token);
  return tokens;
}

describe("each user's own login to the API", () => {
  let aliceToken = "";
  /** Alice's token after the refresh, which sign-out revokes (with its grant). */
  let lastAliceToken = "";

  it("2025 era: the first call asks the user to sign in (URL elicitation); then calls carry the user's own token", async () => {
    const alice = await connectAs(ALICE, { openUrl: async () => {} });
    try {
      const asked = await alice.callTool({ name: "listNotes", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(asked).toBeInstanceOf(UrlElicitationRequiredError);
      const [elicitation] = (asked as UrlElicitationRequiredError).elicitations;
      expect(elicitation?.mode).toBe("url");
      expect(elicitation?.url).toContain(`${as.issuer}/auth?`);
      expect(elicitation?.url).toContain("code_challenge_method=S256");
      expect(upstream.requests).toHaveLength(0);
      expect(await signInAs("alice", elicitation!.url)).toContain("You are signed in to userAuth");
      const result = await alice.callTool({ name: "listNotes", arguments: {} });
      expect(result.isError ?? false, textOf(result as never)).toBe(false);
      aliceToken = upstreamTokens()[0]!;
      expect(aliceToken).toMatch(/^Bearer \S+$/);
      // The echoed token is redacted in the result, in its text and structured content.
      const shown = JSON.stringify(result);
      expect(shown).not.toContain(aliceToken.slice("Bearer ".length));
      expect(shown).toContain("[REDACTED]");
      // Never the MCP token: the front door's tokens are JWTs of the agent.
      expect(aliceToken).not.toContain("eyJ");
    } finally {
      await alice.close();
    }
  });

  it("2026 era: an input-required sign-in, answered by the client, then the call goes through as that user", async () => {
    const opened: string[] = [];
    const bob = await connectAs(BOB, {
      era: MODERN,
      openUrl: async (url) => {
        opened.push(url);
        await signInAs("bob", url);
      },
    });
    try {
      const result = await bob.callTool({ name: "listNotes", arguments: {} });
      expect(result.isError ?? false, textOf(result as never)).toBe(false);
      expect(opened).toHaveLength(1);
      const [bobToken] = upstreamTokens();
      expect(bobToken).toMatch(/^Bearer \S+$/);
      expect(bobToken).not.toBe(aliceToken);
    } finally {
      await bob.close();
    }
  });

  it("a sign-in link is good once, and a changed one is refused", async () => {
    const carol = await connectAs(CAROL, { openUrl: async () => {} });
    try {
      const asked = (await carol.callTool({ name: "listNotes", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      )) as UrlElicitationRequiredError;
      const back = await signIn(asked.elicitations[0]!.url, "carol");
      expect((await fetch(back)).status).toBe(200);
      const again = await fetch(back);
      expect(again.status).toBe(400);
      expect(await again.text()).toContain("already used");
      const changed = new URL(back);
      const state = changed.searchParams.get("state")!;
      changed.searchParams.set("state", `${state.slice(0, -4)}AAAA`);
      const tampered = await fetch(changed);
      expect(tampered.status).toBe(400);
      expect(await tampered.text()).toContain("not one this bridge issued");
    } finally {
      await carol.close();
    }
  });

  it("refreshes the user's token when the API refuses it, and keeps users apart", async () => {
    refused.add(aliceToken.slice("Bearer ".length));
    const alice = await connectAs(ALICE, { openUrl: async () => {} });
    try {
      const result = await alice.callTool({ name: "listNotes", arguments: {} });
      expect(result.isError ?? false, textOf(result as never)).toBe(false);
      const [first, second] = upstreamTokens();
      expect(first).toBe(aliceToken);
      expect(second).toMatch(/^Bearer \S+$/);
      expect(second).not.toBe(aliceToken);
      lastAliceToken = second!;
    } finally {
      await alice.close();
    }
  });

  it("a client that cannot open links gets a result that hands the link to the user; nothing is sent", async () => {
    const dave = await connectAs(DAVE);
    try {
      const result = await dave.callTool({ name: "listNotes", arguments: {} });
      expect(result.isError).toBe(true);
      const text = textOf(result as never);
      expect(text).toContain("Sign-in needed");
      expect(text).toContain(`${as.issuer}/auth?`);
      // A 2025-era client reads the facts under the old key (server/meta-keys.ts).
      const facts = result._meta?.["openapi-mcp-bridge/error"] as { category?: string } | undefined;
      expect(facts?.category).toBe("login_required");
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await dave.close();
    }
  });

  it("signs a user out on request: tokens forgotten and revoked at the provider, the next call asks again", async () => {
    const token = await as.token(ALICE, { resource });
    const signOut = (bearer?: string) =>
      fetch(`${new URL(resource).origin}/oauth/callback/sign-out`, {
        method: "POST",
        ...(bearer !== undefined ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
      });
    expect((await signOut()).status).toBe(401);
    const answer = await signOut(token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ signedOut: ["userAuth"] });
    // The provider forgot the refresh token too: the API's access token Alice had is no longer introspectable as active.
    const introspected = await fetch(`${as.issuer}/token/introspection`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`bridge-app:${APP_SECRET}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token: lastAliceToken.slice("Bearer ".length) }).toString(),
    });
    expect(await introspected.json()).toMatchObject({ active: false });
    expect(await (await signOut(token)).json()).toEqual({ signedOut: [] });
    const alice = await connectAs(ALICE, { openUrl: async () => {} });
    try {
      const asked = await alice.callTool({ name: "listNotes", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(asked).toBeInstanceOf(UrlElicitationRequiredError);
    } finally {
      await alice.close();
    }
  });

  it("never shows a token: not in the audit log, not on stderr", () => {
    const tokens = [aliceToken, ...seenTokens];
    const audit = readFileSync(auditFile, "utf8");
    for (const token of tokens) {
      const bare = token.slice("Bearer ".length);
      expect(bare.length).toBeGreaterThan(10);
      expect(audit).not.toContain(bare);
      expect(bridge.stderr()).not.toContain(bare);
    }
    expect(bridge.stderr()).not.toContain(APP_SECRET);
  });
});

const haveRedis = hasRedisServer("user-login e2e: two replicas on one Redis");

describe.skipIf(!haveRedis)("two replicas on one Redis", () => {
  let redis: RedisServer | undefined;
  let a: HttpBridge;
  let b: HttpBridge;

  beforeAll(async () => {
    redis = await startRedisServer(replicas.redis);
    const authConfig = join(dir, "replicas.json");
    writeFileSync(
      authConfig,
      JSON.stringify({
        oauth2: {
          userAuth: {
            flow: "authorizationCode",
            clientId: "replica-app",
            clientSecret: { env: "APP_SECRET" },
            tokenUrl: `${as.issuer}/token`,
            redirectUrl: `http://127.0.0.1:${replicas.a}/oauth/callback`,
            scopes: ["openid"],
          },
        },
      }),
    );
    const start = (port: number) =>
      startHttpBridge(
        specFile,
        [
          "--auth-config",
          authConfig,
          "--auth-issuer",
          as.issuer,
          "--auth-resource",
          `http://127.0.0.1:${port}/mcp`,
          "--token-store",
          `redis://127.0.0.1:${replicas.redis}/0`,
        ],
        { APP_SECRET, OPENAPI_MCP_TOKEN_STORE_KEY: STORE_KEY },
        port,
      );
    [a, b] = await Promise.all([start(replicas.a), start(replicas.b)]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    redis?.stop();
  });

  it("a user asked by one replica and signed in through the other is served by both, with the same token", async () => {
    const viaB = await connectAs(ERIN, { endpoint: b.endpoint, openUrl: async () => {} });
    const viaA = await connectAs(ERIN, { endpoint: a.endpoint });
    try {
      const asked = (await viaB.callTool({ name: "listNotes", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      )) as UrlElicitationRequiredError;
      expect(asked).toBeInstanceOf(UrlElicitationRequiredError);
      // The provider sends the browser to replica A's callback; B asked.
      const back = await signIn(asked.elicitations[0]!.url, "erin");
      expect(back.port).toBe(String(replicas.a));
      expect((await fetch(back)).status).toBe(200);
      upstream.reset();
      const fromB = await viaB.callTool({ name: "listNotes", arguments: {} });
      const fromA = await viaA.callTool({ name: "listNotes", arguments: {} });
      expect(fromB.isError ?? false, textOf(fromB as never)).toBe(false);
      expect(fromA.isError ?? false, textOf(fromA as never)).toBe(false);
      const [tokenB, tokenA] = upstreamTokens();
      expect(tokenB).toMatch(/^Bearer \S+$/);
      expect(tokenA).toBe(tokenB);
      // Redis holds sealed values under digests: neither the token nor the user in the clear.
      const dump = execFileSync("redis-cli", [
        "-p",
        String(replicas.redis),
        "--no-raw",
        "eval",
        "local out = {} for _, k in ipairs(redis.call('keys', '*')) do table.insert(out, k) table.insert(out, redis.call('get', k)) end return out",
        "0",
      ]).toString();
      expect(dump).toContain("openapi-mcp-bridge:login:");
      expect(dump).not.toContain(tokenB!.slice("Bearer ".length));
      expect(dump).not.toContain("erin");
    } finally {
      await viaA.close();
      await viaB.close();
    }
  });
});
