/**
 * Access tokens as the front door checks them (transport/oauth/token-verifier.ts), with a key
 * set held in memory: what is accepted (issuer, audience with or without a trailing slash,
 * expiry within the clock skew, scopes as `scope` or `scp`) and what is refused, each with the
 * words a client reads in the challenge. The e2e (oauth-front-door.test.ts) runs the same
 * against a real authorization server.
 */
import { bearerAuthChallengeResponse, OAuthError } from "@modelcontextprotocol/server";
import {
  type CryptoKey,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
  UnsecuredJWT,
} from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { IssuerDirectory } from "../../../../src/runtime/transport/oauth/issuer-directory.js";
import { resolveOAuthResourceOptions } from "../../../../src/runtime/transport/oauth/resource-options.js";
import {
  createTokenVerifier,
  type TokenVerifier,
} from "../../../../src/runtime/transport/oauth/token-verifier.js";

const ISSUER = "https://login.example.test";
const RESOURCE = "https://mcp.example.test/mcp";
const NOW = 1_800_000_000;

let key: CryptoKey;
let rotated: CryptoKey;
let verifier: TokenVerifier;
let refreshes = 0;

beforeAll(async () => {
  const first = await generateKeyPair("ES256");
  const second = await generateKeyPair("ES256");
  key = first.privateKey;
  rotated = second.privateKey;
  const jwk = async (k: CryptoKey, kid: string): Promise<JWK> => ({
    ...(await exportJWK(k)),
    kid,
    alg: "ES256",
  });
  const before = createLocalJWKSet({ keys: [await jwk(first.publicKey, "k1")] });
  // After a rotation the issuer publishes k2 as well: a fresh fetch finds it.
  const after = createLocalJWKSet({
    keys: [await jwk(first.publicKey, "k1"), await jwk(second.publicKey, "k2")],
  });
  const directory: IssuerDirectory = {
    metadataOf: async () => ({ issuer: ISSUER }),
    keysOf: async (_issuer, refresh = false) => {
      if (refresh) refreshes++;
      return refresh ? after : before;
    },
  };
  verifier = createTokenVerifier(
    resolveOAuthResourceOptions(
      { issuers: [ISSUER], resource: RESOURCE, clockSkewMs: 30_000 },
      "http://unused",
    ),
    directory,
    () => NOW * 1000,
  );
});

const base = () => ({
  iss: ISSUER,
  aud: RESOURCE,
  sub: "alice",
  client_id: "app",
  exp: NOW + 60,
  scope: "a b",
});
const sign = (claims: Record<string, unknown>, options: { k?: CryptoKey; kid?: string } = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: options.kid ?? "k1" }).sign(options.k ?? key);

async function refusal(token: string): Promise<string> {
  const error = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  expect((error as OAuthError).code).toBe("invalid_token");
  return (error as OAuthError).message;
}

describe("accepted", () => {
  it("a token of the issuer for this resource: subject, client, scopes, expiry", async () => {
    const token = await verifier.verify(await sign(base()));
    expect(token).toMatchObject({ clientId: "app", scopes: ["a", "b"], expiresAt: NOW + 60 });
    expect(token.extra.facts).toEqual({ subject: "alice", issuer: ISSUER });
  });

  it.each([
    ["the resource with a trailing slash", { aud: `${RESOURCE}/` }],
    ["the resource among several audiences", { aud: ["https://other.example", RESOURCE] }],
    ["expired within the clock skew", { exp: NOW - 20 }],
    ["scopes as an scp list", { scope: undefined, scp: ["a", "b"] }],
  ])("%s", async (_name, change) => {
    expect((await verifier.verify(await sign({ ...base(), ...change }))).scopes).toEqual(["a", "b"]);
  });

  it("a key the cached set lacks: the keys are fetched again (rotation)", async () => {
    const before = refreshes;
    await verifier.verify(await sign(base(), { k: rotated, kid: "k2" }));
    expect(refreshes).toBe(before + 1);
  });

  it("no subject: the client is the subject", async () => {
    const token = await verifier.verify(await sign({ ...base(), sub: undefined }));
    expect(token.extra.facts.subject).toBe("app");
  });
});

describe("refused", () => {
  it.each([
    ["another audience", { aud: "https://api.example.test" }, /not issued for this resource/],
    [
      "a prefix of the resource as audience",
      { aud: "https://mcp.example.test" },
      /not issued for this resource/,
    ],
    ["expired beyond the skew", { exp: NOW - 31 }, /expired/],
    ["not valid yet beyond the skew", { nbf: NOW + 120 }, /not valid yet|nbf/],
    ["no expiry", { exp: undefined }, /exp/],
    ["another issuer", { iss: "https://evil.example.test" }, /issuer this resource does not accept/],
    ["no issuer", { iss: undefined }, /issuer this resource does not accept/],
  ])("%s", async (_name, change, words) => {
    expect(await refusal(await sign({ ...base(), ...change }))).toMatch(words);
  });

  it("a signature by another key under the issuer's key id", async () => {
    expect(await refusal(await sign(base(), { k: rotated, kid: "k1" }))).toMatch(/signature is not valid/);
  });

  it("alg none", async () => {
    expect(await refusal(new UnsecuredJWT(base()).encode())).toMatch(/alg none/);
  });

  it("HMAC (algorithm confusion)", async () => {
    const token = await new SignJWT(base())
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .sign(new TextEncoder().encode("a secret anyone could guess, 32 bytes"));
    expect(await refusal(token)).toMatch(/alg HS256/);
  });

  it("an alg crafted to break the challenge header stays inside it, cut short", async () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const alg = `x"\r\nSet-Cookie: a=b; ${"y".repeat(5000)}`;
    const token = `${part({ alg, kid: "k1" })}.${part(base())}.c2ln`;
    const message = await refusal(token);
    expect(message.length).toBeLessThan(120);
    const challenge = bearerAuthChallengeResponse(new OAuthError("invalid_token", message)).headers.get(
      "www-authenticate",
    )!;
    expect(challenge).not.toMatch(/[\r\n]/);
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]*\\"/);
  });

  it("an algorithm not configured though asymmetric (RS512)", async () => {
    const { privateKey } = await generateKeyPair("RS512");
    const token = await new SignJWT(base()).setProtectedHeader({ alg: "RS512", kid: "k1" }).sign(privateKey);
    expect(await refusal(token)).toMatch(/alg RS512/);
  });

  it.each([["garbage.garbage.garbage"], ["a.b"]])("%s", async (token) => {
    expect(await refusal(token)).toMatch(/not a well-formed JWT|opaque|not a JWT/);
  });

  it("an opaque token without introspection configured", async () => {
    expect(await refusal("opaque-token-123")).toMatch(/not a JWT/);
  });
});

describe("several issuers", () => {
  it("checks each token with its own issuer's keys, never another's", async () => {
    const other = await generateKeyPair("ES256");
    const keysOf = async (issuer: string) =>
      createLocalJWKSet({
        keys: [
          {
            ...(await exportJWK(
              issuer === ISSUER ? (await generateKeyPair("ES256")).publicKey : other.publicKey,
            )),
            kid: "k1",
            alg: "ES256",
          },
        ],
      });
    const second = "https://second.example.test";
    const both = createTokenVerifier(
      resolveOAuthResourceOptions({ issuers: [ISSUER, second], resource: RESOURCE }, "http://unused"),
      { metadataOf: async (issuer) => ({ issuer }), keysOf },
      () => NOW * 1000,
    );
    const token = await sign({ ...base(), iss: second }, { k: other.privateKey });
    expect((await both.verify(token)).extra.facts.issuer).toBe(second);
    // The same key's signature, claimed for the first issuer: that issuer's keys do not verify it.
    const claimed = await sign({ ...base(), iss: ISSUER }, { k: other.privateKey });
    const error = await both.verify(claimed).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/signature is not valid/);
  });
});
