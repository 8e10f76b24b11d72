/**
 * The OAuth front door's options and their defaults (the bridge as an OAuth 2.1 protected
 * resource, MCP authorization spec), apart from the code that loads jose: the option table
 * cites these defaults at every start, and a bridge without the front door never loads more.
 */

/** A scope map entry: the tools a pattern names and the scopes they need (scope-policy.ts). */
export interface ScopeRule {
  /** A glob over the tool's name (`pets_*`), or `tag:GLOB` over its tags. */
  pattern: string;
  /** Every one of these is needed; empty: the tools it names need no scope. */
  scopes: string[];
}

export interface OAuthResourceOptions {
  /**
   * The authorization servers' issuer identifiers (RFC 8414): tokens of these issuers are
   * accepted, and the protected resource metadata names them.
   */
  issuers: string[];
  /**
   * The bridge's canonical URL, its RFC 8707 resource identifier: the audience every token
   * must name. Default: the URL the bridge listens on (right only without a proxy in front).
   */
  resource?: string;
  /**
   * Scopes every token needs, whatever it calls (`--auth-scopes`): the 401 challenge names
   * them, so a client asks for these first and steps up from there. Without them the challenge
   * names none, and clients ask for every scope the metadata lists.
   */
  baseScopes?: string[];
  /** Operator rules, first match wins (`--auth-scope-map`). */
  scopeMap?: ScopeRule[];
  /** An operation no rule matches needs the scopes of its spec's oauth2/openIdConnect requirement. */
  specScopes?: boolean;
  /** JWS algorithms accepted (asymmetric only: the keys come from the issuer's JWKS). */
  algorithms?: string[];
  /** Clock skew tolerated on `exp` and `nbf`, in milliseconds. */
  clockSkewMs?: number;
  /**
   * Opaque (non-JWT) tokens are checked at the issuer's introspection endpoint (RFC 7662) with
   * these client credentials (client_secret_basic); without them such tokens are refused.
   */
  introspection?: { clientId: string; clientSecret: string };
  /** Milliseconds for one fetch of the issuer's metadata, JWKS or an introspection. */
  fetchTimeoutMs?: number;
  /** The largest metadata, JWKS or introspection answer read, in bytes. */
  maxFetchBytes?: number;
  /** How long fetched metadata and keys are reused, in milliseconds. */
  cacheMs?: number;
}

/**
 * Asymmetric algorithms only: an HMAC key would be a secret shared with the issuer, and
 * accepting HS256 next to a public key is the classic algorithm-confusion hole.
 */
export const SUPPORTED_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
] as const;

/** The front door's defaults (`--auth-algorithms`, `--auth-clock-skew` cite them). */
export const DEFAULT_OAUTH_RESOURCE = {
  algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
  clockSkewMs: 30_000,
  fetchTimeoutMs: 5_000,
  maxFetchBytes: 256 * 1024,
  cacheMs: 10 * 60_000,
} as const;

export type ResolvedOAuthResourceOptions = Required<
  Omit<OAuthResourceOptions, "introspection" | "resource">
> &
  Pick<OAuthResourceOptions, "introspection"> & { resource: string };

/** The one place the front door's defaults are applied; `listening` is the endpoint's URL. */
export function resolveOAuthResourceOptions(
  options: OAuthResourceOptions,
  listening: string,
): ResolvedOAuthResourceOptions {
  return {
    issuers: options.issuers,
    resource: options.resource ?? listening,
    baseScopes: options.baseScopes ?? [],
    scopeMap: options.scopeMap ?? [],
    specScopes: options.specScopes ?? false,
    algorithms: options.algorithms ?? [...DEFAULT_OAUTH_RESOURCE.algorithms],
    clockSkewMs: options.clockSkewMs ?? DEFAULT_OAUTH_RESOURCE.clockSkewMs,
    fetchTimeoutMs: options.fetchTimeoutMs ?? DEFAULT_OAUTH_RESOURCE.fetchTimeoutMs,
    maxFetchBytes: options.maxFetchBytes ?? DEFAULT_OAUTH_RESOURCE.maxFetchBytes,
    cacheMs: options.cacheMs ?? DEFAULT_OAUTH_RESOURCE.cacheMs,
    ...(options.introspection !== undefined ? { introspection: options.introspection } : {}),
  };
}

/** Whether `url` may name an issuer: https, or http on a loopback host (local testing). */
export function isAcceptableIssuer(url: string, isLoopback: (host: string) => boolean): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return true;
    return parsed.protocol === "http:" && isLoopback(parsed.hostname);
  } catch {
    return false;
  }
}
