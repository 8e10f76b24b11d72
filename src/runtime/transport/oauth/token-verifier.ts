/**
 * Access tokens checked the way the MCP authorization spec asks of a resource server: a JWT
 * locally, with the issuer's published keys (jose), or an opaque token at the issuer's
 * introspection endpoint (RFC 7662). Either way the token must come from an accepted issuer,
 * name this bridge as its audience (RFC 8707: a token meant for another resource is refused,
 * which is what stops a token passed through from elsewhere), be within its lifetime (with the
 * configured clock skew) and, as a JWT, be signed with an accepted asymmetric algorithm by a
 * key of that issuer's JWKS (`alg: none` and HMAC never are).
 */
import { createHash } from "node:crypto";
import { type AuthInfo, OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";
import { fetchJson, IssuerFetchError } from "./fetch-json.js";
import type { IssuerDirectory, KeySet } from "./issuer-directory.js";
import type { ResolvedOAuthResourceOptions } from "./resource-options.js";

/** What the bridge keeps of a verified token besides the SDK's AuthInfo fields. */
export interface TokenFacts {
  /** `sub`, else the client: the audit identity. */
  subject: string;
  issuer: string;
}

export type VerifiedToken = AuthInfo & { extra: { facts: TokenFacts } };

export interface TokenVerifier {
  /** The token's facts; throws the SDK's OAuthError (invalid_token, or server_error when an issuer cannot be read). */
  verify(token: string): Promise<VerifiedToken>;
}

export function createTokenVerifier(
  options: ResolvedOAuthResourceOptions,
  directory: IssuerDirectory,
  now: () => number = Date.now,
): TokenVerifier {
  const audiences = sameResourceSpellings(options.resource);
  const skewSeconds = Math.ceil(options.clockSkewMs / 1000);

  const verifyJwt = async (token: string): Promise<VerifiedToken> => {
    let alg: unknown;
    let claims: JWTPayload;
    try {
      alg = decodeProtectedHeader(token).alg;
      claims = decodeJwt(token);
    } catch {
      throw invalid("The access token is not a well-formed JWT");
    }
    // The text comes from the token: cut short (the SDK quotes it safely into the header).
    if (typeof alg !== "string" || !options.algorithms.includes(alg)) {
      throw invalid(
        `The access token is signed with alg ${String(alg).slice(0, 20)}, which this resource does not accept`,
      );
    }
    const issuer = claims.iss;
    if (typeof issuer !== "string" || !options.issuers.includes(issuer)) {
      throw invalid("The access token comes from an issuer this resource does not accept");
    }
    const check = async (keys: KeySet) =>
      jwtVerify(token, keys, {
        issuer,
        audience: audiences,
        algorithms: options.algorithms,
        clockTolerance: skewSeconds,
        requiredClaims: ["exp"],
        currentDate: new Date(now()),
      });
    let payload: JWTPayload;
    try {
      try {
        payload = (await check(await directory.keysOf(issuer))).payload;
      } catch (error) {
        // A key id the cached set lacks: the issuer may have rotated its keys since.
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        payload = (await check(await directory.keysOf(issuer, true))).payload;
      }
    } catch (error) {
      throw toOAuthError(error);
    }
    return toVerified(token, payload, issuer, options.resource, readScopes(payload));
  };

  const introspect = async (token: string): Promise<VerifiedToken> => {
    const client = options.introspection;
    if (client === undefined) {
      throw invalid("The access token is not a JWT, and this resource checks no opaque tokens");
    }
    const issuer = options.issuers[0]!;
    let answer: Record<string, unknown>;
    try {
      const endpoint = (await directory.metadataOf(issuer)).introspection_endpoint;
      if (typeof endpoint !== "string") {
        throw new IssuerFetchError(`the metadata of ${issuer} has no introspection_endpoint`);
      }
      const basic = Buffer.from(
        `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
      ).toString("base64");
      const { status, body } = await fetchJson(
        endpoint,
        { timeoutMs: options.fetchTimeoutMs, maxBytes: options.maxFetchBytes },
        {
          form: new URLSearchParams({ token, token_type_hint: "access_token" }),
          authorization: `Basic ${basic}`,
        },
      );
      // Never the credentials in the message: only what the endpoint answered.
      if (status !== 200)
        throw new IssuerFetchError(`the introspection endpoint of ${issuer} answered ${status}`);
      answer = body;
    } catch (error) {
      throw toOAuthError(error);
    }
    if (answer.active !== true) throw invalid("The access token is not active");
    if (
      answer.iss !== undefined &&
      (typeof answer.iss !== "string" || !options.issuers.includes(answer.iss))
    ) {
      throw invalid("The access token comes from an issuer this resource does not accept");
    }
    const aud = answer.aud;
    const named = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
    if (!named.some((value) => audiences.includes(value as string))) {
      throw invalid("The access token was not issued for this resource");
    }
    const seconds = now() / 1000;
    if (typeof answer.exp !== "number") throw invalid("The access token has no expiry");
    if (answer.exp + skewSeconds < seconds) throw invalid("The access token has expired");
    if (typeof answer.nbf === "number" && answer.nbf - skewSeconds > seconds) {
      throw invalid("The access token is not valid yet");
    }
    const issuerOfToken = typeof answer.iss === "string" ? answer.iss : issuer;
    return toVerified(token, answer as JWTPayload, issuerOfToken, options.resource, readScopes(answer));
  };

  /**
   * An introspection's answer is reused for INTROSPECTION_CACHE_MS at most (never past the
   * token's expiry), keyed by the token's SHA-256: a client's burst of requests is one call to
   * the issuer, and a revoked token is refused again within that time. A refusal ("not active",
   * wrong audience...) is reused for as long, so a token sent again and again costs the issuer
   * one call; concurrent checks of one token share one call; and at most
   * MAX_INTROSPECTIONS_IN_FLIGHT calls run at once: past that a token is refused as
   * "try again" (server_error) rather than queued, so a flood of made-up opaque tokens can
   * neither pile up requests to the issuer nor hold the bridge's memory.
   */
  type Held = { facts: Omit<VerifiedToken, "token">; until: number } | { refusal: OAuthError; until: number };
  const answers = new Map<string, Held>();
  const pending = new Map<string, Promise<VerifiedToken>>();
  const hold = (key: string, held: Held) => {
    if (answers.size >= MAX_INTROSPECTION_CACHE) answers.delete(answers.keys().next().value!);
    answers.set(key, held);
  };
  const introspectOnce = async (key: string, token: string): Promise<VerifiedToken> => {
    try {
      const verified = await introspect(token);
      const expiry = (verified.expiresAt ?? 0) * 1000;
      const { token: _token, ...facts } = verified;
      hold(key, { facts, until: Math.min(now() + INTROSPECTION_CACHE_MS, expiry) });
      return verified;
    } catch (error) {
      const refusal = toOAuthError(error);
      // The issuer's own failure is not the token's: it is asked again next time.
      if (refusal.code === OAuthErrorCode.InvalidToken)
        hold(key, { refusal, until: now() + INTROSPECTION_CACHE_MS });
      throw refusal;
    } finally {
      pending.delete(key);
    }
  };
  const introspected = async (token: string): Promise<VerifiedToken> => {
    const key = createHash("sha256").update(token).digest("base64url");
    const held = answers.get(key);
    if (held !== undefined && held.until > now()) {
      if ("refusal" in held) throw held.refusal;
      return { ...held.facts, token };
    }
    answers.delete(key);
    const shared = pending.get(key);
    if (shared !== undefined) return { ...(await shared), token };
    if (pending.size >= MAX_INTROSPECTIONS_IN_FLIGHT) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        "Too many access tokens are being checked with the issuer right now; try again shortly",
      );
    }
    const call = introspectOnce(key, token);
    pending.set(key, call);
    return call;
  };

  return {
    verify: async (token) => {
      if (!looksLikeJws(token)) return introspected(token);
      // Shaped like a JWT but not one (an opaque format with dots): the issuer may still know it.
      if (options.introspection !== undefined && !isDecodable(token)) return introspected(token);
      return verifyJwt(token);
    },
  };
}

/** How long an introspection's answer is reused, at most (revocation shows within this time). */
const INTROSPECTION_CACHE_MS = 30_000;
/** Answers held at once; the oldest goes first. */
const MAX_INTROSPECTION_CACHE = 10_000;
/** Introspection calls to the issuer at once; past them a token is refused as "try again". */
const MAX_INTROSPECTIONS_IN_FLIGHT = 32;

function isDecodable(token: string): boolean {
  try {
    decodeProtectedHeader(token);
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}

/** Three base64url parts: a JWS in compact form (an opaque token never has this shape by accident worth caring about). */
function looksLikeJws(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(token);
}

/** The resource with and without one trailing slash: `https://x/mcp` and `https://x/mcp/` name the same. */
function sameResourceSpellings(resource: string): string[] {
  const bare = resource.replace(/\/$/, "");
  return [bare, `${bare}/`];
}

/** `scope` (RFC 8693/9068: space-separated) or `scp` (a list, or a string). */
function readScopes(claims: Record<string, unknown>): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === "string") return value.split(" ").filter((s) => s !== "");
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string");
  return [];
}

function toVerified(
  token: string,
  claims: JWTPayload,
  issuer: string,
  resource: string,
  scopes: string[],
): VerifiedToken {
  const client = [claims.client_id, claims.azp, claims.sub].find((v): v is string => typeof v === "string");
  const subject = typeof claims.sub === "string" ? claims.sub : client;
  if (subject === undefined) throw invalid("The access token names no subject and no client");
  return {
    token,
    clientId: client ?? subject,
    scopes,
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
    resource: new URL(resource),
    extra: { facts: { subject, issuer } },
  };
}

function invalid(message: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, message);
}

/** What jose found wrong, in words a client can act on; an issuer that cannot be read is the bridge's problem. */
function toOAuthError(error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof IssuerFetchError) return new OAuthError(OAuthErrorCode.ServerError, error.message);
  if (error instanceof errors.JWTExpired) return invalid("The access token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return invalid("The access token was not issued for this resource");
    if (error.claim === "iss")
      return invalid("The access token comes from an issuer this resource does not accept");
    if (error.claim === "nbf") return invalid("The access token is not valid yet");
    return invalid(`The access token's ${error.claim} claim is not acceptable`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return invalid("The access token's signature is not valid");
  if (error instanceof errors.JWKSNoMatchingKey)
    return invalid("The access token is signed with a key the issuer does not publish");
  if (error instanceof errors.JOSEAlgNotAllowed)
    return invalid("The access token is signed with an algorithm this resource does not accept");
  if (error instanceof errors.JOSEError) return invalid("The access token is not valid");
  return new OAuthError(OAuthErrorCode.ServerError, "The access token could not be checked");
}
