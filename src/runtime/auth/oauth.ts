/**
 * OAuth2 client credentials (RFC 6749 §4.4) for `oauth2` and `openIdConnect` security schemes:
 * the access token is fetched from the scheme's token URL (or the one OpenID Connect discovery
 * names), cached, refreshed before it expires and once when the API answers 401. The client
 * secret goes only to the token URL; the token only to the API (request.ts puts it on requests
 * for the API's origin, and redirects are never followed).
 *
 * A token URL (or OpenID Connect discovery URL) that comes from the spec is trusted only on the
 * API's own site (same registrable domain, Public Suffix List, and the same port: another port
 * of the API's host is another server, perhaps another tenant's): a hostile or tampered spec must
 * not be able to name its own server and receive the client secret. Any other token URL has to
 * be confirmed by the operator (`tokenUrl`, or `trustSpecTokenUrl: true`, in the auth config).
 */
import type { Dispatcher } from "undici";
import type { SecuritySchemeNode } from "../../model/types.js";
import { type HttpOptions, sendRequest, UpstreamFailure } from "../upstream/send.js";
import { hasControlCharacters } from "./credentials.js";
import { encodeClientCredential, formsOf, oauthClientForms } from "./secret-forms.js";

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  /** Replaces the spec's token URL (or the discovered one). */
  tokenUrl?: string;
  /** Scopes asked for; none by default (the provider's default scopes). */
  scopes?: string[];
  /** Where the client authenticates: HTTP Basic (default, RFC 6749 §2.3.1) or the form body. */
  clientAuth?: "basic" | "body";
  /** `audience`, `resource` and the like, added to the token request body. */
  extraParams?: Record<string, string>;
  /**
   * Use the spec's token URL (or discovery URL) even when it is not on the API's site. Off by
   * default: the operator confirms where the client secret goes.
   */
  trustSpecTokenUrl?: boolean;
  /**
   * `authorizationCode`: each MCP user signs in to the API themselves (auth/user-login/); the
   * bridge holds their tokens. Default: the bridge's own client credentials.
   */
  flow?: "clientCredentials" | "authorizationCode";
  /** authorizationCode: replaces the spec's authorization URL. */
  authorizationUrl?: string;
  /**
   * authorizationCode: where the API's authorization server sends the user back: the bridge's
   * public URL with the callback path (the bridge serves that path), as registered with the provider.
   */
  redirectUrl?: string;
  /** authorizationCode: the provider's token revocation endpoint (RFC 7009), used at sign-out. */
  revocationUrl?: string;
}

export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenError";
  }
}

export interface TokenSource {
  /**
   * A valid access token, fetched or refreshed when needed (one fetch at a time, shared by the
   * calls that wait for it). A call whose `signal` aborts stops waiting (a TokenError); the
   * fetch itself is aborted once no call waits for it any more.
   */
  getToken(signal?: AbortSignal): Promise<string>;
  /** Forgets `token` if it is still the cached one (the API refused it). */
  invalidate(token: string): void;
  /** The client secret and the tokens handed out so far (the latest few), in every form, for redaction. */
  secrets(): string[];
}

export interface TokenSourceOptions {
  schemeName: string;
  scheme: SecuritySchemeNode;
  config: OAuthClientConfig;
  /** The API's base URL, against which a relative token URL is resolved. */
  baseUrl: () => string | undefined;
  getDispatcher: () => Promise<Dispatcher>;
  http: HttpOptions;
  now?: () => number;
}

/** Lifetime assumed when the token response has no `expires_in`. */
const DEFAULT_LIFETIME_S = 300;
const KEPT_SECRETS = 8;

export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const { config, schemeName } = options;
  const now = options.now ?? Date.now;
  let cached: { token: string; refreshAt: number } | undefined;
  let pending: { promise: Promise<string>; controller: AbortController; waiters: number } | undefined;
  let discovered: Promise<Discovery> | undefined;
  const handedOut: string[] = [];
  const clientForms = oauthClientForms(config.clientId, config.clientSecret);

  const endpoint = async (signal: AbortSignal): Promise<{ url: URL; clientAuth: "basic" | "body" }> => {
    if (config.tokenUrl !== undefined) {
      return {
        url: checkedUrl(config.tokenUrl, options.baseUrl(), "token URL"),
        clientAuth: config.clientAuth ?? "basic",
      };
    }
    const { scheme } = options;
    if (scheme.type === "oauth2") {
      const flows = scheme.flows as Record<string, { tokenUrl?: unknown } | undefined> | null;
      const tokenUrl = flows?.["clientCredentials"]?.tokenUrl;
      if (typeof tokenUrl !== "string") {
        throw new TokenError(
          `the scheme "${schemeName}" has no clientCredentials flow with a tokenUrl; configure tokenUrl for it`,
        );
      }
      const url = checkedUrl(tokenUrl, options.baseUrl(), "token URL");
      await requireApiSite(url, "token URL", options);
      return { url, clientAuth: config.clientAuth ?? "basic" };
    }
    if (scheme.type === "openIdConnect") {
      discovered ??= discover(scheme.openIdConnectUrl, options, signal).catch((error: unknown) => {
        discovered = undefined; // try again on the next call
        throw error;
      });
      const found = await discovered;
      return { url: found.tokenUrl, clientAuth: config.clientAuth ?? found.clientAuth };
    }
    throw new TokenError(`the scheme "${schemeName}" is ${scheme.type}, not oauth2 or openIdConnect`);
  };

  const fetchToken = async (signal: AbortSignal): Promise<string> => {
    const { url, clientAuth } = await endpoint(signal);
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (config.scopes && config.scopes.length > 0) form.set("scope", config.scopes.join(" "));
    for (const [name, value] of Object.entries(config.extraParams ?? {})) form.set(name, value);
    const response = await postClientForm(options, url, form, clientAuth, signal);
    const parsed = readTokenAnswer(response, url);
    const token = parsed.accessToken;
    const lifetime = parsed.expiresIn ?? DEFAULT_LIFETIME_S;
    // Refresh ahead of expiry: a minute early, or at half-life for short-lived tokens.
    const margin = Math.min(60, lifetime / 2);
    cached = { token, refreshAt: now() + (lifetime - margin) * 1000 };
    handedOut.push(token);
    if (handedOut.length > KEPT_SECRETS) handedOut.shift();
    return token;
  };

  return {
    getToken(signal) {
      if (cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
      if (signal?.aborted) return Promise.reject(cancelledWait());
      if (pending === undefined) {
        const controller = new AbortController();
        const fetch = {
          controller,
          waiters: 0,
          promise: fetchToken(controller.signal).finally(() => {
            if (pending === fetch) pending = undefined;
          }),
        };
        pending = fetch;
      }
      const fetch = pending;
      fetch.waiters++;
      // A call that cannot be cancelled keeps the fetch alive: it is never given up.
      if (signal === undefined) return fetch.promise;
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          fetch.waiters--;
          if (fetch.waiters === 0) {
            if (pending === fetch) pending = undefined;
            fetch.controller.abort();
          }
          reject(cancelledWait());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        fetch.promise.then(
          (token) => {
            signal.removeEventListener("abort", onAbort);
            resolve(token);
          },
          (error: unknown) => {
            signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        );
      });
    },
    invalidate(token) {
      if (cached?.token === token) cached = undefined;
    },
    secrets() {
      return [...clientForms, ...handedOut.flatMap(formsOf)];
    },
  };
}

interface Discovery {
  tokenUrl: URL;
  clientAuth: "basic" | "body";
}

/** OpenID Connect Discovery 1.0 §4: the provider's metadata names its token endpoint. */
function cancelledWait(): TokenError {
  return new TokenError("the call was cancelled while it waited for its access token");
}

async function discover(
  openIdConnectUrl: string,
  options: TokenSourceOptions,
  signal: AbortSignal,
): Promise<Discovery> {
  const url = checkedUrl(openIdConnectUrl, options.baseUrl(), "OpenID Connect discovery URL");
  // The discovery document is trusted once its URL is: it may name a token endpoint elsewhere.
  await requireApiSite(url, "OpenID Connect discovery URL", options);
  const response = await send(
    options,
    {
      method: "GET",
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      headers: { accept: "application/json" },
      missingCredentials: [],
    },
    signal,
  );
  const where = `${url.origin}${url.pathname}`;
  if (response.status !== 200) {
    throw new TokenError(`OpenID Connect discovery at ${where} answered HTTP ${response.status}`);
  }
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(response.body.toString("utf8")) as Record<string, unknown>;
  } catch {
    throw new TokenError(`OpenID Connect discovery at ${where} did not answer with JSON`);
  }
  const tokenEndpoint = metadata?.["token_endpoint"];
  if (typeof tokenEndpoint !== "string") {
    throw new TokenError(`OpenID Connect discovery at ${where} names no token_endpoint`);
  }
  const grants = metadata["grant_types_supported"];
  if (Array.isArray(grants) && !grants.includes("client_credentials")) {
    throw new TokenError(`the OpenID provider at ${where} does not support the client_credentials grant`);
  }
  const methods = metadata["token_endpoint_auth_methods_supported"];
  const clientAuth =
    Array.isArray(methods) &&
    !methods.includes("client_secret_basic") &&
    methods.includes("client_secret_post")
      ? "body"
      : "basic";
  return { tokenUrl: checkedUrl(tokenEndpoint, undefined, "token_endpoint"), clientAuth };
}

/**
 * A form the OAuth client POSTs to its provider (a token request, a revocation): the client
 * authenticates with HTTP Basic (RFC 6749 §2.3.1: id and secret form-urlencoded first) or in
 * the form itself. The client secret goes only here.
 */
export function postClientForm(
  options: TokenSourceOptions,
  url: URL,
  form: URLSearchParams,
  clientAuth: "basic" | "body",
  signal: AbortSignal,
): ReturnType<typeof send> {
  const { clientId, clientSecret } = options.config;
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (clientAuth === "basic") {
    const pair = `${encodeClientCredential(clientId)}:${encodeClientCredential(clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else {
    form.set("client_id", clientId);
    form.set("client_secret", clientSecret);
  }
  return send(
    options,
    {
      method: "POST",
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      headers,
      body: form.toString(),
      missingCredentials: [],
    },
    signal,
  );
}

export async function send(
  options: TokenSourceOptions,
  request: Parameters<typeof sendRequest>[1],
  signal: AbortSignal,
) {
  try {
    const http = { ...options.http, maxResponseBytes: Math.min(options.http.maxResponseBytes, 1024 * 1024) };
    return await sendRequest(await options.getDispatcher(), request, http, http.timeoutMs, signal);
  } catch (error) {
    if (error instanceof UpstreamFailure) {
      throw new TokenError(
        `${request.method === "GET" ? "OpenID Connect discovery" : "the token endpoint"} at ${request.origin}: ${error.message}`,
      );
    }
    throw error;
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A URL taken from the spec must be on the API's site (same host, or the same registrable
 * domain by the Public Suffix List, private suffixes such as github.io included, and the same
 * port), unless the operator said to trust it.
 */
export async function requireApiSite(url: URL, what: string, options: TokenSourceOptions): Promise<void> {
  if (options.config.trustSpecTokenUrl === true) return;
  const base = options.baseUrl();
  let api: URL | undefined;
  try {
    api = base === undefined ? undefined : new URL(base);
  } catch {
    api = undefined;
  }
  if (api !== undefined && portOf(url) === portOf(api) && (await isSameSite(url.hostname, api.hostname)))
    return;
  const site = api === undefined ? "no API URL" : portOf(api) === defaultPort(api) ? api.hostname : api.host;
  throw new TokenError(
    `the spec's ${what} ${url.origin}${url.pathname} is not on the API's site (${site}), ` +
      `so the client secret is not sent there; if that is the right provider, confirm it in the auth config: ` +
      `oauth2.${options.schemeName}.tokenUrl: ${url.origin}${url.pathname} (or trustSpecTokenUrl: true)`,
  );
}

/** A URL's port, its scheme's default when it names none: another port is another server. */
function portOf(url: URL): string {
  return url.port === "" ? defaultPort(url) : url.port;
}

function defaultPort(url: URL): string {
  return url.protocol === "http:" ? "80" : "443";
}

/** Same host, or hosts under the same registrable domain (never for IP addresses). */
export async function isSameSite(a: string, b: string): Promise<boolean> {
  const left = a.toLowerCase().replace(/\.$/, "");
  const right = b.toLowerCase().replace(/\.$/, "");
  if (left === right) return true;
  const { getDomain } = await import("tldts");
  const options = { allowPrivateDomains: true };
  const leftDomain = getDomain(left, options);
  const rightDomain = getDomain(right, options);
  return leftDomain !== null && leftDomain !== "" && leftDomain === rightDomain;
}

/** Secrets travel over https only (plain http to a loopback address is allowed for local providers). */
export function checkedUrl(raw: string, base: string | undefined, what: string): URL {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, `${base}/`);
  } catch {
    throw new TokenError(`the ${what} "${raw}" is not a URL`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    url.hash = "";
    return url;
  }
  throw new TokenError(`the ${what} ${url.origin} is not https; client secrets are only sent over https`);
}

/** A token endpoint's answer (RFC 6749 §5.1), checked: a usable bearer access token, and what came with it. */
export interface TokenAnswer {
  accessToken: string;
  refreshToken?: string;
  /** Seconds, when the answer says (and it is positive). */
  expiresIn?: number;
}

/** The token endpoint's answer at `url` read, or a TokenError that says what was wrong with it. */
export function readTokenAnswer(response: { status: number; body: Buffer }, url: URL): TokenAnswer {
  const where = `${url.origin}${url.pathname}`;
  const text = response.body.toString("utf8");
  if (response.status < 200 || response.status >= 300) {
    throw new TokenError(
      `the token endpoint ${where} answered HTTP ${response.status}${describeOAuthError(text)}`,
    );
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new TokenError(`the token endpoint ${where} did not answer with JSON`);
  }
  const access = parsed?.["access_token"];
  if (typeof access !== "string" || access === "" || hasControlCharacters(access) || /\s/.test(access)) {
    throw new TokenError(`the token endpoint ${where} returned no usable access_token`);
  }
  const type = parsed["token_type"];
  if (typeof type === "string" && type.toLowerCase() !== "bearer") {
    throw new TokenError(
      `the token endpoint ${where} returned a ${type} token; only bearer tokens are supported`,
    );
  }
  const answer: TokenAnswer = { accessToken: access };
  const refresh = parsed["refresh_token"];
  if (typeof refresh === "string" && refresh !== "") answer.refreshToken = refresh;
  const expiresIn = parsed["expires_in"];
  if (typeof expiresIn === "number" && expiresIn > 0) answer.expiresIn = expiresIn;
  return answer;
}

/** RFC 6749 §5.2 error fields, when the body has them. */
export function describeOAuthError(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body?.error === "string") {
      const description =
        typeof body.error_description === "string" ? `: ${body.error_description.slice(0, 300)}` : "";
      return ` (${body.error}${description})`;
    }
  } catch {
    // not JSON: say nothing more (the body may be an HTML page)
  }
  return "";
}
