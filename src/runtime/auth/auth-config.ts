/**
 * The authentication config file (`--auth-config FILE`, JSON or YAML, parsed by the caller):
 *
 * ```yaml
 * auth:                      # static credentials, as --auth SCHEME=VALUE
 *   api_key: { env: MY_API_KEY }
 * oauth2:                    # client credentials for oauth2 / openIdConnect schemes
 *   petstore_auth:
 *     clientId: my-client
 *     clientSecret: { env: PETSTORE_CLIENT_SECRET }
 *     scopes: [read, write]  # optional
 *     tokenUrl: https://...  # optional: replaces the spec's (or the discovered) token URL
 *     trustSpecTokenUrl: true  # optional: use the spec's token URL although it is not on the
 *                            # API's site (by default the secret goes there only once confirmed)
 *     clientAuth: basic      # basic (default) or body
 *     extraParams: { audience: https://api.example.com }
 *   github_login:            # or: each MCP user signs in to the API (OAuth front door needed)
 *     flow: authorizationCode
 *     clientId: my-app
 *     clientSecret: { env: GITHUB_CLIENT_SECRET }
 *     redirectUrl: https://bridge.example.com/oauth/callback
 *     authorizationUrl: https://...  # optional: replaces the spec's
 *     revocationUrl: https://...     # optional: sign-out revokes the user's tokens there
 * passThroughHeaders:        # HTTP mode: incoming header → scheme
 *   X-Petstore-Key: api_key
 * ```
 *
 * Any string value may instead be `{ env: NAME }`, read from the environment, so that the file
 * needs no secrets in it.
 */
import type { OAuthClientConfig } from "./oauth.js";

export interface AuthConfig {
  auth: Record<string, string>;
  oauth: Record<string, OAuthClientConfig>;
  passThroughHeaders: Record<string, string>;
}

export class AuthConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthConfigError";
  }
}

const TOP_KEYS = new Set(["auth", "oauth2", "passThroughHeaders"]);
const CLIENT_KEYS = new Set([
  "clientId",
  "clientSecret",
  "tokenUrl",
  "trustSpecTokenUrl",
  "scopes",
  "clientAuth",
  "extraParams",
  "flow",
  "authorizationUrl",
  "redirectUrl",
  "revocationUrl",
]);

export function parseAuthConfig(value: unknown, env: Record<string, string | undefined>): AuthConfig {
  const root = record(value, "the file");
  for (const key of Object.keys(root)) {
    if (!TOP_KEYS.has(key))
      throw new AuthConfigError(`unknown key "${key}" (expected auth, oauth2, passThroughHeaders)`);
  }
  const config: AuthConfig = { auth: {}, oauth: {}, passThroughHeaders: {} };
  for (const [scheme, raw] of entries(root["auth"], "auth")) {
    config.auth[scheme] = text(raw, `auth.${scheme}`, env);
  }
  for (const [scheme, raw] of entries(root["oauth2"], "oauth2")) {
    const where = `oauth2.${scheme}`;
    const client = record(raw, where);
    for (const key of Object.keys(client)) {
      if (!CLIENT_KEYS.has(key)) throw new AuthConfigError(`${where}: unknown key "${key}"`);
    }
    const parsed: OAuthClientConfig = {
      clientId: text(client["clientId"], `${where}.clientId`, env),
      clientSecret: text(client["clientSecret"], `${where}.clientSecret`, env),
    };
    if (client["tokenUrl"] !== undefined)
      parsed.tokenUrl = text(client["tokenUrl"], `${where}.tokenUrl`, env);
    const trust = client["trustSpecTokenUrl"];
    if (typeof trust === "boolean") parsed.trustSpecTokenUrl = trust;
    else if (trust !== undefined)
      throw new AuthConfigError(`${where}.trustSpecTokenUrl must be true or false`);
    const scopes = client["scopes"];
    if (typeof scopes === "string") parsed.scopes = scopes.split(/\s+/).filter((s) => s !== "");
    else if (Array.isArray(scopes) && scopes.every((s) => typeof s === "string")) parsed.scopes = scopes;
    else if (scopes !== undefined) throw new AuthConfigError(`${where}.scopes must be a list of strings`);
    const clientAuth = client["clientAuth"];
    if (clientAuth === "basic" || clientAuth === "body") parsed.clientAuth = clientAuth;
    else if (clientAuth !== undefined) throw new AuthConfigError(`${where}.clientAuth must be basic or body`);
    if (client["extraParams"] !== undefined) {
      parsed.extraParams = {};
      for (const [name, param] of entries(client["extraParams"], `${where}.extraParams`)) {
        parsed.extraParams[name] = text(param, `${where}.extraParams.${name}`, env);
      }
    }
    const flow = client["flow"];
    if (flow === "clientCredentials" || flow === "authorizationCode") parsed.flow = flow;
    else if (flow !== undefined)
      throw new AuthConfigError(`${where}.flow must be clientCredentials or authorizationCode`);
    for (const key of ["authorizationUrl", "redirectUrl", "revocationUrl"] as const) {
      if (client[key] !== undefined) parsed[key] = text(client[key], `${where}.${key}`, env);
    }
    if (parsed.flow === "authorizationCode" && parsed.redirectUrl === undefined) {
      throw new AuthConfigError(
        `${where}.redirectUrl is needed with flow: authorizationCode (the bridge's public URL of its login callback, e.g. https://bridge.example.com/oauth/callback, registered with the provider)`,
      );
    }
    config.oauth[scheme] = parsed;
  }
  for (const [header, scheme] of entries(root["passThroughHeaders"], "passThroughHeaders")) {
    if (typeof scheme !== "string")
      throw new AuthConfigError(`passThroughHeaders.${header} must be a scheme name`);
    config.passThroughHeaders[header] = scheme;
  }
  return config;
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AuthConfigError(`${where} must be an object`);
  }
  return value as Record<string, unknown>;
}

function entries(value: unknown, where: string): [string, unknown][] {
  if (value === undefined) return [];
  return Object.entries(record(value, where));
}

/** A string, or `{ env: NAME }` read from the environment (which must be set). */
function text(value: unknown, where: string, env: Record<string, string | undefined>): string {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "object" && value !== null && typeof (value as { env?: unknown }).env === "string") {
    const name = (value as { env: string }).env;
    const found = env[name];
    if (found === undefined || found === "")
      throw new AuthConfigError(`${where}: the environment variable ${name} is not set`);
    return found;
  }
  throw new AuthConfigError(`${where} must be a non-empty string or { env: NAME }`);
}
