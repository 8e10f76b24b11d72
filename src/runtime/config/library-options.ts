/**
 * The library's BridgeOptions beside the option table: which option each field carries, so a
 * program that gives `timeoutMs: 0` is refused by the same parser and start checks as
 * `--timeout 0` (config/check-bridge-options.ts), in words that name `options.timeoutMs`
 * where a flag would not mean anything to it.
 */
import { OPTION_TABLE, type OptionKey } from "./option-table.js";

/** Who reads what start-up says: an operator (flags, variables) or a program (BridgeOptions). */
export type Audience = "cli" | "library";

/** The BridgeOptions field of each option createBridgeRuntime takes, as a path (`retry.retries`). */
export const LIBRARY_OPTION_PATHS = {
  baseUrl: "baseUrl",
  serverVar: "serverVariables",
  auth: "auth",
  header: "headers",
  trustOrigin: "trustedOrigins",
  timeout: "timeoutMs",
  connectTimeout: "connectTimeoutMs",
  retries: "retry.retries",
  maxConcurrency: "maxConcurrency",
  operationWait: "operations.maxWaitMs",
  maxResponseBytes: "maxResponseBytes",
  maxResultChars: "maxResultChars",
  circuitBreaker: "circuitBreaker.failureThreshold",
  circuitCooldown: "circuitBreaker.cooldownMs",
  oauthClient: "oauth",
  tokenStore: "tokenStore",
  tokenStoreKey: "tokenStoreKey",
  allowCredentialArguments: "allowCredentialArguments",
  passThroughHeader: "passThroughHeaders",
  mode: "mode",
  codeTimeout: "code.timeoutMs",
  codeMemory: "code.memoryBytes",
  codeMaxCalls: "code.maxCalls",
  codeMaxLogChars: "code.maxLogChars",
  codeMaxStack: "code.maxStackBytes",
} as const satisfies Partial<Record<OptionKey, string>>;

/** The HttpServerOptions field of each option startHttpServer takes. */
export const HTTP_SERVER_OPTION_PATHS = {
  host: "host",
  port: "port",
  path: "path",
  stateless: "stateless",
  allowOrigin: "allowedOrigins",
  httpToken: "bearerToken",
  confirmKey: "confirmKey",
  maxBodyBytes: "maxBodyBytes",
  listTtl: "listCache.ttlMs",
  maxSessions: "maxSessions",
  sessionIdleTimeout: "sessionIdleMs",
} as const satisfies Partial<Record<OptionKey, string>>;

export type LibraryOptionKey = keyof typeof LIBRARY_OPTION_PATHS | keyof typeof HTTP_SERVER_OPTION_PATHS;

const PATHS: Record<LibraryOptionKey, string> = { ...LIBRARY_OPTION_PATHS, ...HTTP_SERVER_OPTION_PATHS };

/**
 * An option as a message names it, with the entry it is about: `--auth api_key` for the CLI,
 * `options.auth.api_key` for the library (an entry that is no identifier in brackets).
 */
export function nameOption(audience: Audience, key: LibraryOptionKey, entry?: string): string {
  if (audience === "cli") return `--${OPTION_TABLE[key].flag}${entry !== undefined ? ` ${entry}` : ""}`;
  const path = `options.${PATHS[key]}`;
  if (entry === undefined) return path;
  return /^[A-Za-z_$][\w$]*$/.test(entry) ? `${path}.${entry}` : `${path}[${JSON.stringify(entry)}]`;
}
