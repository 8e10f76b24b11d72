/**
 * What the front door knows of each accepted issuer: its metadata (RFC 8414, else OpenID
 * Connect discovery), found at the well-known addresses and checked to name the same issuer
 * (RFC 8414 §3.3: a document that names another issuer is not this issuer's), and its JWKS.
 * Both are fetched on first use and reused for `cacheMs`; keys are fetched again sooner when a
 * token names a key id the set does not have (the issuer rotated its keys), at most once per
 * KEY_REFRESH_COOLDOWN_MS so tokens with made-up key ids cannot make the bridge hammer it.
 */
import { createLocalJWKSet, type JSONWebKeySet } from "jose";
import { type FetchLimits, fetchJson, IssuerFetchError } from "./fetch-json.js";

const KEY_REFRESH_COOLDOWN_MS = 30_000;

export interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  [key: string]: unknown;
}

export type KeySet = ReturnType<typeof createLocalJWKSet>;

export interface IssuerDirectory {
  metadataOf(issuer: string): Promise<IssuerMetadata>;
  /** The issuer's keys; `refresh` asks for a fresh copy (subject to the cooldown). */
  keysOf(issuer: string, refresh?: boolean): Promise<KeySet>;
}

interface Cached<T> {
  value: Promise<T>;
  at: number;
}

export function createIssuerDirectory(
  options: FetchLimits & { cacheMs: number; now?: () => number },
): IssuerDirectory {
  const now = options.now ?? Date.now;
  const metadata = new Map<string, Cached<IssuerMetadata>>();
  const keys = new Map<string, Cached<KeySet>>();
  // A failed fetch is not kept: the next request tries again.
  const remember = <T>(cache: Map<string, Cached<T>>, issuer: string, load: () => Promise<T>): Promise<T> => {
    const value = load();
    cache.set(issuer, { value, at: now() });
    value.catch(() => {
      if (cache.get(issuer)?.value === value) cache.delete(issuer);
    });
    return value;
  };
  const metadataOf = (issuer: string): Promise<IssuerMetadata> => {
    const cached = metadata.get(issuer);
    if (cached !== undefined && now() - cached.at < options.cacheMs) return cached.value;
    return remember(metadata, issuer, () => discoverMetadata(issuer, options));
  };
  return {
    metadataOf,
    keysOf(issuer, refresh = false) {
      const cached = keys.get(issuer);
      const age = cached === undefined ? Number.POSITIVE_INFINITY : now() - cached.at;
      if (cached !== undefined && age < options.cacheMs && (!refresh || age < KEY_REFRESH_COOLDOWN_MS)) {
        return cached.value;
      }
      return remember(keys, issuer, async () => {
        const { jwks_uri: jwksUri } = await metadataOf(issuer);
        if (typeof jwksUri !== "string") {
          throw new IssuerFetchError(
            `the metadata of ${issuer} has no jwks_uri: its tokens cannot be checked locally`,
          );
        }
        const { status, body } = await fetchJson(jwksUri, options);
        if (status !== 200 || !Array.isArray(body.keys)) {
          throw new IssuerFetchError(`${jwksUri} answered ${status} without a key set`);
        }
        return createLocalJWKSet(body as unknown as JSONWebKeySet);
      });
    },
  };
}

/** The addresses an issuer's metadata may be at, in the order tried. */
export function toMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/openid-configuration${path}`,
  ];
}

async function discoverMetadata(issuer: string, limits: FetchLimits): Promise<IssuerMetadata> {
  const problems: string[] = [];
  for (const url of [...new Set(toMetadataUrls(issuer))]) {
    try {
      const { status, body } = await fetchJson(url, limits);
      if (status !== 200) {
        problems.push(`${url}: ${status}`);
        continue;
      }
      if (body.issuer !== issuer) {
        problems.push(`${url} names the issuer ${JSON.stringify(body.issuer)}`);
        continue;
      }
      return body as IssuerMetadata;
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throw new IssuerFetchError(`no metadata of the issuer ${issuer} was found (${problems.join("; ")})`);
}
