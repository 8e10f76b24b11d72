/**
 * Each MCP user's own login to the API (OAuth 2.1 authorization code with PKCE), for a scheme
 * configured with `flow: authorizationCode`. The user is the OAuth front door's verified subject
 * (transport/oauth/): the first call that needs the API's token and has none gets a login URL
 * (LoginRequired), which the client shows the user (URL elicitation), never the model's
 * business. The provider sends the browser back to the bridge's callback, which trades the code
 * for the user's tokens and keeps them sealed in the store under a digest of the user and the
 * scheme. Later calls take the user's access token, refreshed with the refresh token when it
 * expires (or when the API answers 401); a refused refresh means signing in again.
 *
 * The login state is sealed (encrypted and authenticated) and carries the PKCE verifier, the
 * user's store key, the scheme and an expiry: any replica with the same key completes the login,
 * and nobody can read the verifier from the URL or bind a login to another user. Each state is
 * good for one login in this process. The client secret goes only to the token URL (the spec's
 * only on the API's site, as for client credentials: oauth.ts), the user's token only to the API.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Dispatcher } from "undici";
import { isRecord } from "../../../model/records.js";
import type { SecuritySchemeNode } from "../../../model/types.js";
import type { HttpOptions } from "../../upstream/send.js";
import {
  checkedUrl,
  type OAuthClientConfig,
  postClientForm,
  readTokenAnswer,
  requireApiSite,
  TokenError,
  type TokenSourceOptions,
} from "../oauth.js";
import { formsOf, oauthClientForms } from "../secret-forms.js";
import type { SealedBox } from "./sealed-box.js";
import type { UserTokenStore } from "./token-store.js";

/** How long a login URL can be used, in seconds: the user signs in, perhaps with a second factor. */
export const LOGIN_STATE_TTL_SECONDS = 600;
/** A stored access token is used until this long before it expires (seconds). */
const EXPIRY_MARGIN_S = 30;
/** Tokens handed out that redaction keeps looking for. */
const KEPT_SECRETS = 64;

/** The call needs the user to sign in to the API first: `url` is where (shown to the user, not the model). */
export class LoginRequired extends Error {
  constructor(
    readonly scheme: string,
    readonly url: string,
    readonly elicitationId: string,
    readonly reason: string,
  ) {
    super(`sign-in to ${scheme} needed: ${reason}`);
    this.name = "LoginRequired";
  }
}

/** What the callback tells the browser (no token, ever). */
export type LoginOutcome = { ok: true; scheme: string } | { ok: false; scheme?: string; message: string };

/** What a transport serves of the per-user logins of what it serves: their callback paths. */
export interface LoginCallbacks {
  paths(): string[];
  /** The provider's answer at `path`; undefined when no login owns that path and state. */
  complete(path: string, query: URLSearchParams, signal?: AbortSignal): Promise<LoginOutcome | undefined>;
  /** Forgets (and revokes, where a revocation URL is configured) the user's tokens: the schemes signed out of. */
  signOut(subject: string): Promise<string[]>;
}

/** The login callbacks of several runtimes as one (the first that owns a state completes it). */
export function joinLoginCallbacks(
  parts: readonly (LoginCallbacks | undefined)[],
): LoginCallbacks | undefined {
  const present = parts.filter((part): part is LoginCallbacks => part !== undefined);
  if (present.length === 0) return undefined;
  return {
    paths: () => [...new Set(present.flatMap((part) => part.paths()))],
    async complete(path, query, signal) {
      for (const part of present) {
        const outcome = await part.complete(path, query, signal);
        if (outcome !== undefined) return outcome;
      }
      return undefined;
    },
    signOut: async (subject) => (await Promise.all(present.map((part) => part.signOut(subject)))).flat(),
  };
}

/** The path of the sign-out endpoint beside a login callback: `/oauth/callback` → `/oauth/callback/sign-out`. */
export function toSignOutPath(callbackPath: string): string {
  return `${callbackPath.replace(/\/$/, "")}/sign-out`;
}

export interface UserLogin {
  readonly scheme: string;
  /** The path of the redirect URL: the bridge serves the provider's answer there. */
  readonly callbackPath: string;
  /** The user's access token (refreshed when due); LoginRequired when there is none to use. */
  tokenFor(subject: string, signal?: AbortSignal): Promise<string>;
  /** The API refused `token`: the next call refreshes it (or asks the user to sign in again). */
  invalidate(subject: string, token: string): Promise<void>;
  /**
   * The provider's answer at the callback (`state`, and `code` or `error`): undefined when the
   * state is not one of this login's (another scheme's callback may take it).
   */
  complete(query: URLSearchParams, signal?: AbortSignal): Promise<LoginOutcome | undefined>;
  /**
   * Forgets the user's tokens for this scheme, revoking the refresh token (else the access
   * token) at the revocation URL when one is configured (RFC 7009; best effort: the tokens are
   * forgotten whatever the provider answers); true when there were any.
   */
  signOut(subject: string): Promise<boolean>;
  /** The client secret and the tokens handed out lately, in every form, for redaction. */
  secrets(): string[];
}

export interface UserLoginOptions {
  schemeName: string;
  scheme: SecuritySchemeNode;
  config: OAuthClientConfig & { redirectUrl: string };
  box: SealedBox;
  store: UserTokenStore;
  baseUrl: () => string | undefined;
  getDispatcher: () => Promise<Dispatcher>;
  http: HttpOptions;
  now?: () => number;
}

interface StateBody {
  /** The user's store key. */
  k: string;
  /** The scheme. */
  s: string;
  /** The PKCE code verifier. */
  v: string;
  /** One-time number. */
  n: string;
  /** Expiry, epoch seconds. */
  x: number;
}

interface StoredTokens {
  access: string;
  refresh?: string;
  /** Epoch ms; absent when the provider did not say. */
  expires?: number;
}

const STATE_PURPOSE = "login-state";
const TOKENS_PURPOSE = "user-tokens";

export function createUserLogin(options: UserLoginOptions): UserLogin {
  const { schemeName, config, box, store } = options;
  const now = options.now ?? Date.now;
  const redirect = new URL(config.redirectUrl);
  const handedOut: string[] = [];
  const clientForms = oauthClientForms(config.clientId, config.clientSecret);
  // One refresh at a time per user: concurrent calls share it.
  const refreshing = new Map<string, Promise<StoredTokens | undefined>>();
  const tokenOptions: TokenSourceOptions = {
    schemeName,
    scheme: options.scheme,
    config,
    baseUrl: options.baseUrl,
    getDispatcher: options.getDispatcher,
    http: options.http,
  };

  const flow = (): Record<string, unknown> => {
    const flows = options.scheme.type === "oauth2" ? options.scheme.flows : undefined;
    const found = isRecord(flows) ? flows["authorizationCode"] : undefined;
    return isRecord(found) ? found : {};
  };

  const authorizationUrl = (): URL => {
    const raw = config.authorizationUrl ?? flow()["authorizationUrl"];
    if (typeof raw !== "string") {
      throw new TokenError(
        `the scheme "${schemeName}" has no authorizationCode flow with an authorizationUrl; configure authorizationUrl for it`,
      );
    }
    return checkedUrl(raw, options.baseUrl(), "authorization URL");
  };

  const tokenUrl = async (): Promise<URL> => {
    if (config.tokenUrl !== undefined) return checkedUrl(config.tokenUrl, options.baseUrl(), "token URL");
    const raw = flow()["tokenUrl"];
    if (typeof raw !== "string") {
      throw new TokenError(
        `the scheme "${schemeName}" has no authorizationCode flow with a tokenUrl; configure tokenUrl for it`,
      );
    }
    const url = checkedUrl(raw, options.baseUrl(), "token URL");
    await requireApiSite(url, "token URL", tokenOptions);
    return url;
  };

  const keyOf = (subject: string): string =>
    createHash("sha256").update(`${subject}\u0000${schemeName}\u0000${redirect.href}`).digest("base64url");

  const loginRequired = (key: string, reason: string): LoginRequired => {
    const verifier = randomBytes(32).toString("base64url");
    const state: StateBody = {
      k: key,
      s: schemeName,
      v: verifier,
      n: randomUUID(),
      x: Math.floor(now() / 1000) + LOGIN_STATE_TTL_SECONDS,
    };
    const url = authorizationUrl();
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", config.clientId);
    url.searchParams.set("redirect_uri", redirect.href);
    if (config.scopes && config.scopes.length > 0) url.searchParams.set("scope", config.scopes.join(" "));
    url.searchParams.set("state", box.seal(state, STATE_PURPOSE));
    url.searchParams.set("code_challenge", createHash("sha256").update(verifier).digest("base64url"));
    url.searchParams.set("code_challenge_method", "S256");
    for (const [name, value] of Object.entries(config.extraParams ?? {})) url.searchParams.set(name, value);
    return new LoginRequired(schemeName, url.href, state.n, reason);
  };

  /** A token request (code or refresh grant) to the token URL, answered with the tokens. */
  const requestTokens = async (
    form: URLSearchParams,
    previous: StoredTokens | undefined,
    signal: AbortSignal | undefined,
  ): Promise<StoredTokens> => {
    const url = await tokenUrl();
    const response = await postClientForm(
      tokenOptions,
      url,
      form,
      config.clientAuth ?? "basic",
      signal ?? new AbortController().signal,
    );
    const answer = readTokenAnswer(response, url);
    const tokens: StoredTokens = { access: answer.accessToken };
    // A refresh answer without a new refresh token keeps the old one (RFC 6749 §6).
    const kept = answer.refreshToken ?? previous?.refresh;
    if (kept !== undefined) tokens.refresh = kept;
    if (answer.expiresIn !== undefined) tokens.expires = now() + answer.expiresIn * 1000;
    return tokens;
  };

  /** RFC 7009: the provider forgets a token; any answer is taken (the bridge forgot it already). */
  const revoke = async (form: URLSearchParams): Promise<void> => {
    const url = checkedUrl(config.revocationUrl ?? "", options.baseUrl(), "revocation URL");
    await postClientForm(tokenOptions, url, form, config.clientAuth ?? "basic", new AbortController().signal);
  };

  const remember = (tokens: StoredTokens): void => {
    for (const secret of [tokens.access, tokens.refresh]) {
      if (secret === undefined) continue;
      handedOut.push(secret);
      if (handedOut.length > KEPT_SECRETS) handedOut.shift();
    }
  };

  const read = async (key: string): Promise<StoredTokens | undefined> => {
    const sealed = await store.get(key);
    const opened = sealed === undefined ? undefined : box.open(sealed, TOKENS_PURPOSE);
    if (!isRecord(opened) || typeof opened["access"] !== "string") return undefined;
    const tokens = opened as unknown as StoredTokens;
    remember(tokens);
    return tokens;
  };

  const write = async (key: string, tokens: StoredTokens): Promise<void> => {
    remember(tokens);
    await store.set(key, box.seal(tokens, TOKENS_PURPOSE));
  };

  const refresh = (key: string, tokens: StoredTokens, signal: AbortSignal | undefined) => {
    let pending = refreshing.get(key);
    if (pending === undefined) {
      const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh ?? "" });
      if (config.scopes && config.scopes.length > 0) form.set("scope", config.scopes.join(" "));
      pending = requestTokens(form, tokens, signal)
        .then(async (fresh) => {
          await write(key, fresh);
          return fresh;
        })
        .catch(async (error: unknown) => {
          // A refused refresh (revoked, expired) means signing in again; anything else is said.
          if (error instanceof TokenError && /HTTP 4\d\d/.test(error.message)) {
            await store.delete(key);
            return undefined;
          }
          throw error;
        })
        .finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return pending;
  };

  return {
    scheme: schemeName,
    callbackPath: redirect.pathname,
    async tokenFor(subject, signal) {
      const key = keyOf(subject);
      const tokens = await read(key);
      if (tokens === undefined) throw loginRequired(key, "the user has not signed in to the API yet");
      if (tokens.expires === undefined || now() < tokens.expires - EXPIRY_MARGIN_S * 1000)
        return tokens.access;
      if (tokens.refresh === undefined) throw loginRequired(key, "the user's sign-in to the API has expired");
      const fresh = await refresh(key, tokens, signal);
      if (fresh === undefined)
        throw loginRequired(key, "the API's provider no longer accepts the user's sign-in");
      return fresh.access;
    },
    async invalidate(subject, token) {
      const key = keyOf(subject);
      const tokens = await read(key);
      if (tokens?.access !== token) return;
      if (tokens.refresh === undefined) await store.delete(key);
      else await write(key, { ...tokens, expires: 0 });
    },
    async complete(query, signal) {
      const opened = box.open(query.get("state") ?? "", STATE_PURPOSE);
      if (!isStateBody(opened) || opened.s !== schemeName) return undefined;
      const at = now();
      if (opened.x * 1000 < at) {
        return {
          ok: false,
          scheme: schemeName,
          message: "This sign-in link has expired. Ask again from your MCP client.",
        };
      }
      // A state answers one login, on whichever replica the browser reaches (a shared store).
      let first: boolean;
      try {
        first = await store.claim(`login-state:${opened.n}`, opened.x * 1000 - at);
      } catch (error) {
        return {
          ok: false,
          scheme: schemeName,
          message: `The bridge could not check this sign-in link (${(error as Error).message}). Nothing was stored; try again.`,
        };
      }
      if (!first) {
        return { ok: false, scheme: schemeName, message: "This sign-in link was already used." };
      }
      const error = query.get("error");
      if (error !== null) {
        return {
          ok: false,
          scheme: schemeName,
          message: `The provider refused the sign-in (${error.slice(0, 100)}). Nothing was stored.`,
        };
      }
      const code = query.get("code");
      if (code === null || code === "") {
        return { ok: false, scheme: schemeName, message: "The provider sent no authorization code." };
      }
      const form = new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirect.href,
        code_verifier: opened.v,
      });
      try {
        await write(opened.k, await requestTokens(form, undefined, signal));
      } catch (error) {
        const message = error instanceof TokenError ? error.message : "the token request failed";
        return { ok: false, scheme: schemeName, message: `The sign-in could not be completed: ${message}.` };
      }
      return { ok: true, scheme: schemeName };
    },
    async signOut(subject) {
      const key = keyOf(subject);
      const tokens = await read(key);
      await store.delete(key);
      if (tokens === undefined) return false;
      if (config.revocationUrl !== undefined) {
        const form = new URLSearchParams(
          tokens.refresh !== undefined
            ? { token: tokens.refresh, token_type_hint: "refresh_token" }
            : { token: tokens.access, token_type_hint: "access_token" },
        );
        await revoke(form).catch(() => {});
      }
      return true;
    },
    secrets() {
      return [...clientForms, ...handedOut.flatMap(formsOf)];
    },
  };
}

function isStateBody(value: unknown): value is StateBody {
  return (
    isRecord(value) &&
    typeof value["k"] === "string" &&
    typeof value["s"] === "string" &&
    typeof value["v"] === "string" &&
    typeof value["n"] === "string" &&
    typeof value["x"] === "number"
  );
}
