/**
 * Opaque access tokens checked at the issuer's introspection endpoint (RFC 7662), against a
 * real HTTP server on 127.0.0.1 that plays the issuer: its metadata found at the well-known
 * address, the client's credentials sent as HTTP Basic, the answer's `active`, `iss`, `aud` and
 * `exp` checked, an answer reused for a while (one call for a burst), and the issuer's reads
 * capped (an oversized answer, a redirect) without the secret in any message.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createIssuerDirectory } from "../../../../src/runtime/transport/oauth/issuer-directory.js";
import { resolveOAuthResourceOptions } from "../../../../src/runtime/transport/oauth/resource-options.js";
import {
  createTokenVerifier,
  type TokenVerifier,
} from "../../../../src/runtime/transport/oauth/token-verifier.js";

const RESOURCE = "https://mcp.example.test/mcp";
const SECRET = "introspection-secret-4711";
let server: Server;
let issuer: string;
let calls: { authorization: string | undefined; body: string }[] = [];
/** What the introspection endpoint answers for a token. */
let answers: Record<string, Record<string, unknown>> = {};
let now = 1_800_000_000_000;
/** Answers to tokens starting "slow-" wait here until the test releases them. */
let held: (() => void)[] = [];
let verifier: TokenVerifier;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (req.url === "/.well-known/oauth-authorization-server") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ issuer, introspection_endpoint: `${issuer}/introspect` }));
        return;
      }
      if (req.url === "/introspect") {
        calls.push({ authorization: req.headers.authorization, body });
        const token = new URLSearchParams(body).get("token") ?? "";
        if (token === "huge") {
          res.writeHead(200, { "content-type": "application/json" }).end(`{"pad":"${"x".repeat(300_000)}"}`);
          return;
        }
        if (token.startsWith("slow-")) {
          held.push(() => res.writeHead(200, { "content-type": "application/json" }).end('{"active":false}'));
          return;
        }
        if (token === "moved") {
          res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answers[token] ?? { active: false }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = resolveOAuthResourceOptions(
    { issuers: [issuer], resource: RESOURCE, introspection: { clientId: "bridge", clientSecret: SECRET } },
    "http://unused",
  );
  verifier = createTokenVerifier(
    options,
    createIssuerDirectory({ timeoutMs: 2000, maxBytes: options.maxFetchBytes, cacheMs: 60_000 }),
    () => now,
  );
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  calls = [];
  held = [];
  now += 3_600_000; // every test after the cache of the one before
  const exp = Math.floor(now / 1000) + 300;
  answers = {
    good: { active: true, iss: issuer, aud: RESOURCE, exp, scope: "a b", sub: "alice", client_id: "app" },
    inactive: { active: false },
    other: { active: true, iss: issuer, aud: "https://api.example.test", exp },
    expired: { active: true, iss: issuer, aud: RESOURCE, exp: Math.floor(now / 1000) - 120 },
    foreign: { active: true, iss: "https://evil.example.test", aud: RESOURCE, exp },
    forever: { active: true, iss: issuer, aud: [RESOURCE] },
    "dotted.but.opaque": { active: true, iss: issuer, aud: RESOURCE, exp, sub: "bob" },
  };
});

async function refusal(token: string): Promise<OAuthError> {
  const error = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  expect((error as Error).message).not.toContain(SECRET);
  return error as OAuthError;
}

describe("introspection", () => {
  it("accepts an active token for this resource, as the client with its credentials", async () => {
    const token = await verifier.verify("good");
    expect(token).toMatchObject({ token: "good", scopes: ["a", "b"], clientId: "app" });
    expect(token.extra.facts).toEqual({ subject: "alice", issuer });
    expect(calls[0]!.authorization).toBe(`Basic ${Buffer.from(`bridge:${SECRET}`).toString("base64")}`);
    expect(new URLSearchParams(calls[0]!.body).get("token_type_hint")).toBe("access_token");
  });

  it("reuses an answer for a burst, and asks again after 30 s", async () => {
    await verifier.verify("good");
    await verifier.verify("good");
    expect(calls).toHaveLength(1);
    now += 31_000;
    await verifier.verify("good");
    expect(calls).toHaveLength(2);
  });

  it("introspects a token with dots that is no JWT", async () => {
    expect((await verifier.verify("dotted.but.opaque")).extra.facts.subject).toBe("bob");
  });

  it.each([
    ["inactive", /not active/],
    ["other", /not issued for this resource/],
    ["expired", /expired/],
    ["foreign", /issuer this resource does not accept/],
    ["forever", /no expiry/],
  ])("refuses %s", async (token, words) => {
    const error = await refusal(token);
    expect(error.code).toBe("invalid_token");
    expect(error.message).toMatch(words);
  });

  it.each([
    ["huge", /more than/],
    ["moved", /could not be read/],
  ])(
    "an endpoint that answers %s is the bridge's problem (server_error), never the secret",
    async (token, words) => {
      const error = await refusal(token);
      expect(error.code).toBe("server_error");
      expect(error.message).toMatch(words);
    },
  );

  it("a refused token sent again is refused from the first answer, for as long as an accepted one is reused", async () => {
    await refusal("inactive");
    await refusal("inactive");
    expect(calls).toHaveLength(1);
    now += 31_000;
    await refusal("inactive");
    expect(calls).toHaveLength(2);
  });

  it("an issuer's failure is not held: the next check asks again", async () => {
    await refusal("huge");
    await refusal("huge");
    expect(calls).toHaveLength(2);
  });

  it("concurrent checks of one token share one call", async () => {
    const checks = Array.from({ length: 5 }, () =>
      verifier.verify("slow-shared").then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    await vi.waitFor(() => expect(held).toHaveLength(1));
    for (const release of held) release();
    const errors = await Promise.all(checks);
    expect(errors.every((e) => e instanceof OAuthError && e.code === "invalid_token")).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("at most 32 calls to the issuer at once: past them a token is refused as try-again, not queued", async () => {
    const checks = Array.from({ length: 40 }, (_, i) =>
      verifier.verify(`slow-${i}`).then(
        () => undefined,
        (e: unknown) => e as OAuthError,
      ),
    );
    await vi.waitFor(() => expect(held).toHaveLength(32));
    // The 8 past the cap were answered at once, before the issuer answered anything.
    const early = await Promise.all(checks.slice(32));
    expect(early.map((e) => e?.code)).toEqual(Array(8).fill("server_error"));
    expect(early[0]?.message).toMatch(/try again/);
    for (const release of held) release();
    const late = await Promise.all(checks.slice(0, 32));
    expect(late.every((e) => e?.code === "invalid_token")).toBe(true);
    expect(calls).toHaveLength(32);
  });
});
