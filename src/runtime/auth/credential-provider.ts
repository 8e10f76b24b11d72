/**
 * The credentials of one call: a per-request pass-through header (HTTP mode, opt-in) first, then
 * static values (`--auth`, `OPENAPI_MCP_AUTH_<SCHEME>`), then OAuth2 client credentials. Only
 * the alternative of the operation's `security` that will be used gets a token fetched.
 */
import { randomBytes } from "node:crypto";
import type { Dispatcher } from "undici";
import type { BridgeModel, SecurityRequirementNode, ToolNode } from "../../model/types.js";
import type { HttpOptions } from "../upstream/send.js";
import {
  hasControlCharacters,
  isAlternativeMet,
  resolveCredentials,
  toClientEnvNames,
} from "./credentials.js";
import { createTokenSource, type OAuthClientConfig, TokenError, type TokenSource } from "./oauth.js";
import { basicCredentialForms, formsOf, headerValueForms } from "./secret-forms.js";
import { openTokenStore } from "./user-login/open-store.js";
import { createSealedBox, MIN_STORE_KEY_BYTES } from "./user-login/sealed-box.js";
import type { UserTokenStore } from "./user-login/token-store.js";
import { createUserLogin, type LoginOutcome, type UserLogin } from "./user-login/user-login.js";

export interface CredentialOptions {
  auth?: Record<string, string>;
  env: Record<string, string | undefined>;
  /** OAuth2 client credentials by scheme name (also from OPENAPI_MCP_CLIENT_ID_/SECRET_<SCHEME>). */
  oauth?: Record<string, OAuthClientConfig>;
  /** Incoming MCP request header (any case) → scheme name. */
  passThroughHeaders?: Record<string, string>;
  getDispatcher: () => Promise<Dispatcher>;
  http: HttpOptions;
  /** The API base URL, to resolve relative token URLs against. */
  baseUrl: () => string | undefined;
  now?: () => number;
  /** Where users' API tokens are kept (`flow: authorizationCode`): `memory` (default) or a redis:// URL. */
  tokenStore?: string;
  /** Seals users' tokens and sign-in links; default: random for this process. */
  tokenStoreKey?: string;
}

export interface CallCredentials {
  credentials: Map<string, string>;
  /** OAuth2 tokens used, by scheme: invalidated when the API answers 401. */
  tokens: Map<string, string>;
  /** Values of this call that must never be shown (pass-through values). */
  secrets: string[];
  /** The user whose own API tokens the call carries (per-user login), for invalidate. */
  subject?: string;
}

export interface CredentialProvider {
  /** `signal`: the call's; a cancelled call stops waiting for an OAuth2 token (TokenError). */
  forCall(
    tool: ToolNode,
    incomingHeaders: Record<string, string | string[] | undefined> | undefined,
    signal?: AbortSignal,
    subject?: string,
  ): Promise<CallCredentials>;
  /** Forgets the call's OAuth2 tokens; true when there were any (a retry may then succeed). */
  invalidate(call: CallCredentials): Promise<boolean>;
  /**
   * The API provider's answer at a login callback (`path` is the request's): undefined when no
   * per-user login of this API owns the path and the state.
   */
  completeLogin(
    path: string,
    query: URLSearchParams,
    signal?: AbortSignal,
  ): Promise<LoginOutcome | undefined>;
  /** The paths of this API's login callbacks (per-user login), to serve. */
  loginPaths(): string[];
  /** Signs the user out of every per-user login of this API: the schemes they were signed in to. */
  signOut(subject: string): Promise<string[]>;
  /** Every configured or fetched secret so far, for redaction. */
  secrets(): string[];
  /** The schemes with a configured credential: static, OAuth2 client or pass-through. */
  configuredSchemes(): ReadonlySet<string>;
}

/**
 * The schemes a credential is configured for, without making the provider: what start-up
 * reports and what filled-parameters.ts leaves out of the tools (pass-through schemes count,
 * though a request may come without the header).
 */
export function listConfiguredSchemes(
  model: BridgeModel,
  options: Pick<CredentialOptions, "auth" | "env" | "oauth" | "passThroughHeaders">,
): Set<string> {
  const names = new Set(resolveCredentials(model, options.auth, options.env).keys());
  for (const name of Object.keys(resolveOAuthClients(model, options.oauth, options.env))) names.add(name);
  for (const scheme of Object.values(options.passThroughHeaders ?? {})) names.add(scheme);
  return new Set([...names].filter((name) => Object.hasOwn(model.securitySchemes, name)));
}

export function createCredentialProvider(model: BridgeModel, options: CredentialOptions): CredentialProvider {
  const schemes = model.securitySchemes;
  const staticCredentials = resolveCredentials(model, options.auth, options.env);
  const oauth = resolveOAuthClients(model, options.oauth, options.env);
  const sources = new Map<string, TokenSource>();
  const logins = new Map<string, UserLogin>();
  let store: UserTokenStore | undefined;
  let box: ReturnType<typeof createSealedBox> | undefined;
  for (const [name, config] of Object.entries(oauth)) {
    const scheme = schemes[name];
    if (!scheme || (scheme.type !== "oauth2" && scheme.type !== "openIdConnect")) {
      throw new Error(
        `OAuth2 client credentials are configured for "${name}", which is not an oauth2 or openIdConnect scheme of the spec`,
      );
    }
    if (config.flow === "authorizationCode" && config.redirectUrl !== undefined) {
      store ??= openTokenStore(options.tokenStore ?? "memory");
      box ??= createSealedBox(options.tokenStoreKey ?? getProcessStoreKey());
      logins.set(
        name,
        createUserLogin({
          schemeName: name,
          scheme,
          config: { ...config, redirectUrl: config.redirectUrl },
          box,
          store,
          baseUrl: options.baseUrl,
          getDispatcher: options.getDispatcher,
          http: options.http,
          ...(options.now ? { now: options.now } : {}),
        }),
      );
      continue;
    }
    sources.set(
      name,
      createTokenSource({
        schemeName: name,
        scheme,
        config,
        baseUrl: options.baseUrl,
        getDispatcher: options.getDispatcher,
        http: options.http,
        ...(options.now ? { now: options.now } : {}),
      }),
    );
  }
  const passThrough = new Map<string, string>();
  for (const [header, scheme] of Object.entries(options.passThroughHeaders ?? {})) {
    if (!Object.hasOwn(schemes, scheme)) {
      throw new Error(
        `--pass-through-header ${header}=${scheme}: the spec has no security scheme "${scheme}"`,
      );
    }
    passThrough.set(header.toLowerCase(), scheme);
  }
  const staticSecrets = [...staticCredentials].flatMap(([name, value]) => secretForms(schemes[name]!, value));

  return {
    async forCall(tool, incomingHeaders, signal, subject) {
      const credentials = new Map(staticCredentials);
      const secrets: string[] = [];
      for (const [header, scheme] of passThrough) {
        const raw = incomingHeaders?.[header];
        if (typeof raw !== "string" || raw === "" || hasControlCharacters(raw)) continue;
        const value = passThroughValue(schemes[scheme]!, raw);
        credentials.set(scheme, value);
        secrets.push(...headerValueForms(raw), ...secretForms(schemes[scheme]!, value));
      }
      const available = new Set([...credentials.keys(), ...sources.keys(), ...logins.keys()]);
      const chosen = chooseAlternative(tool.http.security, available, schemes);
      const tokens = new Map<string, string>();
      for (const name of Object.keys(chosen ?? {})) {
        if (credentials.has(name)) continue;
        const source = sources.get(name);
        const login = logins.get(name);
        let token: string | undefined;
        if (source) token = await source.getToken(signal);
        else if (login) {
          // Start-up refuses a per-user login without the OAuth front door: a caller always has a subject.
          if (subject === undefined)
            throw new TokenError(`signing in to ${name} needs a signed-in MCP user (the OAuth front door)`);
          token = await login.tokenFor(subject, signal);
        }
        if (token === undefined) continue;
        credentials.set(name, token);
        tokens.set(name, token);
      }
      return { credentials, tokens, secrets, ...(subject !== undefined ? { subject } : {}) };
    },
    async invalidate(call) {
      for (const [name, token] of call.tokens) {
        sources.get(name)?.invalidate(token);
        const login = logins.get(name);
        if (login && call.subject !== undefined) await login.invalidate(call.subject, token);
      }
      return call.tokens.size > 0;
    },
    async completeLogin(path, query, signal) {
      for (const login of logins.values()) {
        if (login.callbackPath !== path) continue;
        const outcome = await login.complete(query, signal);
        if (outcome !== undefined) return outcome;
      }
      return undefined;
    },
    async signOut(subject) {
      const out: string[] = [];
      for (const login of logins.values()) if (await login.signOut(subject)) out.push(login.scheme);
      return out;
    },
    loginPaths() {
      return [...new Set([...logins.values()].map((login) => login.callbackPath))];
    },
    secrets() {
      return [
        ...staticSecrets,
        ...[...sources.values()].flatMap((s) => s.secrets()),
        ...[...logins.values()].flatMap((l) => l.secrets()),
      ];
    },
    configuredSchemes() {
      return new Set([
        ...staticCredentials.keys(),
        ...sources.keys(),
        ...logins.keys(),
        ...passThrough.values(),
      ]);
    },
  };
}

// This process's random key: a hot reload's new runtime (and every API of a bridge) finds the
// users' tokens where they were.
let processStoreKey: Uint8Array | undefined;

/** The random key of this process, for a bridge given none (users sign in again after a restart). */
function getProcessStoreKey(): Uint8Array {
  processStoreKey ??= randomBytes(MIN_STORE_KEY_BYTES);
  return processStoreKey;
}

/** A credential in every form it travels in and may be echoed in (secret-forms.ts). */
function secretForms(scheme: BridgeModel["securitySchemes"][string], value: string): string[] {
  if (scheme.type === "http" && scheme.scheme.toLowerCase() === "basic") return basicCredentialForms(value);
  return formsOf(value);
}

/** The alternative applyCredentials will pick: the first whose schemes all have a credential. */
function chooseAlternative(
  requirements: SecurityRequirementNode[],
  available: Set<string>,
  schemes: BridgeModel["securitySchemes"],
): SecurityRequirementNode | undefined {
  return requirements.find((alternative) => isAlternativeMet(alternative, available, schemes));
}

/** An incoming header value as the scheme's credential: `Bearer x` → `x`, `Basic b64` → `user:pass`. */
function passThroughValue(scheme: BridgeModel["securitySchemes"][string], raw: string): string {
  const value = raw.trim();
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  if (scheme.type === "oauth2" || scheme.type === "openIdConnect") return bearer ? bearer[1]! : value;
  if (scheme.type === "http") {
    const kind = scheme.scheme.toLowerCase();
    if (kind === "bearer") return bearer ? bearer[1]! : value;
    const basic = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value);
    if (kind === "basic" && basic) return Buffer.from(basic[1]!, "base64").toString("utf8");
  }
  return value;
}

/** Explicit configuration wins; OPENAPI_MCP_CLIENT_ID_<SCHEME> + _SECRET_<SCHEME> fill in the rest. */
function resolveOAuthClients(
  model: BridgeModel,
  explicit: Record<string, OAuthClientConfig> = {},
  env: Record<string, string | undefined>,
): Record<string, OAuthClientConfig> {
  const result: Record<string, OAuthClientConfig> = { ...explicit };
  for (const [name, scheme] of Object.entries(model.securitySchemes)) {
    if (Object.hasOwn(result, name) || (scheme.type !== "oauth2" && scheme.type !== "openIdConnect"))
      continue;
    const variables = toClientEnvNames(name);
    const clientId = env[variables.id];
    const clientSecret = env[variables.secret];
    if (clientId && clientSecret) result[name] = { clientId, clientSecret };
  }
  return result;
}
