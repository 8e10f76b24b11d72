#!/usr/bin/env node
import { readFileSync } from "node:fs";
/**
 * Starts this MCP server over stdio (the default: what Claude Desktop, Claude Code, Cursor and
 * VS Code start) or Streamable HTTP. Every option is a flag or an environment variable; flags
 * win. `--help` lists them. In stdio mode nothing but MCP messages is written to stdout.
 */
import { parseArgs } from "node:util";
import { hooks, model } from "./api.js";
import type { DestructivePolicy, ToolSelection } from "./runtime/access/select.js";
import { type AuthConfig, parseAuthConfig } from "./runtime/auth/auth-config.js";
import { toClientEnvNames, toServerVariableEnvName } from "./runtime/auth/credentials.js";
import type { BridgeOptions } from "./runtime/bridge-options.js";
import { createBridgeRuntime } from "./runtime/bridge-runtime.js";
import { createBridgeServer } from "./runtime/mcp-server.js";

const HELP = `Usage: node dist/index.js [options]

Options (environment variable in brackets):
  --transport stdio|http    MCP transport, default stdio [OPENAPI_MCP_TRANSPORT]
  --host HOST               HTTP: address to bind, default 127.0.0.1 [OPENAPI_MCP_HOST]
  --port N                  HTTP: port, default 3000 [OPENAPI_MCP_PORT]
  --path PATH               HTTP: MCP endpoint, default /mcp [OPENAPI_MCP_PATH]
  --stateless               HTTP: no sessions [OPENAPI_MCP_STATELESS=1]
  --allow-origin ORIGINS    HTTP: extra allowed Origins, comma-separated [OPENAPI_MCP_ALLOW_ORIGIN]
  --base-url URL            replace the API's server URL, path included [OPENAPI_MCP_BASE_URL]
  --server-var NAME=VALUE   a server URL variable (repeatable) [OPENAPI_MCP_SERVER_VAR_<NAME>]
  --auth SCHEME=VALUE       a credential for a security scheme (repeatable) [OPENAPI_MCP_AUTH_<SCHEME>]
  --header "Name: value"    a header sent on every upstream request (repeatable)
                            [OPENAPI_MCP_HEADERS, a JSON object of names to values]
  --timeout MS              per-call upstream timeout, default 30000 [OPENAPI_MCP_TIMEOUT]
  --connect-timeout MS      upstream connect timeout, default 10000 [OPENAPI_MCP_CONNECT_TIMEOUT]
  --retries N               retries of a failed call where safe, default 2 [OPENAPI_MCP_RETRIES]
  --max-concurrency N       upstream calls in flight at once, default 64 [OPENAPI_MCP_MAX_CONCURRENCY]
  --max-response-bytes N    bytes of an answer read, default 10 MiB [OPENAPI_MCP_MAX_RESPONSE_BYTES]
  --max-result-chars N      characters of text in one result, larger answers cut with a note,
                            default 25000, 0 no limit [OPENAPI_MCP_MAX_RESULT_CHARS]
  --circuit-breaker N       failures in a row that make calls fail fast, 0 off, default 5
                            [OPENAPI_MCP_CIRCUIT_BREAKER]
  --circuit-cooldown MS     how long calls fail fast, default 30000 [OPENAPI_MCP_CIRCUIT_COOLDOWN]
  --include-tools GLOBS     serve only tools whose name matches (comma-separated, repeatable)
                            [OPENAPI_MCP_INCLUDE_TOOLS]
  --exclude-tools GLOBS     do not serve these tools [OPENAPI_MCP_EXCLUDE_TOOLS]
  --include-tags TAGS       serve only operations with one of these tags [OPENAPI_MCP_INCLUDE_TAGS]
  --exclude-tags TAGS       do not serve operations with these tags [OPENAPI_MCP_EXCLUDE_TAGS]
  --methods METHODS         serve only these HTTP methods, e.g. get,post [OPENAPI_MCP_METHODS]
  --paths GLOBS             serve only these paths (* one segment, ** any) [OPENAPI_MCP_PATHS]
  --read-only               serve only GET, HEAD and OPTIONS [OPENAPI_MCP_READ_ONLY=1]
  --destructive POLICY      allow, refuse, or confirm (ask the user) destructive calls, default
                            allow [OPENAPI_MCP_DESTRUCTIVE]
  --auth-config FILE        JSON file with credentials, OAuth2 clients and pass-through headers
                            [OPENAPI_MCP_AUTH_CONFIG]
  --oauth-client SCHEME=ID  OAuth2 client credentials for a scheme; the secret comes from
                            OPENAPI_MCP_CLIENT_SECRET_<SCHEME> (repeatable)
  --pass-through-header INCOMING=SCHEME
                            HTTP: use this header of each MCP request as its credential (repeatable)
  --http-token TOKEN        HTTP: require Authorization: Bearer TOKEN from clients [OPENAPI_MCP_HTTP_TOKEN]
  --max-body-bytes N        HTTP: largest MCP request body, default 4 MiB [OPENAPI_MCP_MAX_BODY_BYTES]
  --audit-log FILE          one JSON line per tool call (secrets redacted), - for stderr
                            [OPENAPI_MCP_AUDIT_LOG]
  --help                    show this help
`;

class UsageError extends Error {}

function pairs(values: string[], separator: string, what: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const index = value.indexOf(separator);
    if (index <= 0) throw new UsageError(`expected ${what}, got "${value.slice(0, 40)}"`);
    result[value.slice(0, index).trim()] = value.slice(index + separator.length).trim();
  }
  return result;
}

function wholeNumber(value: string, name: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0) {
    throw new UsageError(`${name} must be a whole number, got "${value}"`);
  }
  return n;
}

function httpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // reported below
  }
  throw new UsageError(`the base URL "${value}" is not an http(s) URL`);
}

/** Comma-separated values from repeated flags and the environment variable. */
function list(flags: string[] | undefined, env: string | undefined): string[] | undefined {
  const values = [...(flags ?? []), ...(flags === undefined ? [env ?? ""] : [])]
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  return values.length > 0 ? values : undefined;
}

function toolSelection(
  values: Record<string, string | string[] | boolean | undefined>,
  env: NodeJS.ProcessEnv,
): ToolSelection {
  const destructive =
    (values["destructive"] as string | undefined) ?? env["OPENAPI_MCP_DESTRUCTIVE"] ?? "allow";
  if (!["allow", "refuse", "confirm"].includes(destructive)) {
    throw new UsageError(`--destructive must be allow, refuse or confirm, got "${destructive}"`);
  }
  const selection: ToolSelection = { destructive: destructive as DestructivePolicy };
  const lists = {
    includeTools: ["include-tools", "OPENAPI_MCP_INCLUDE_TOOLS"],
    excludeTools: ["exclude-tools", "OPENAPI_MCP_EXCLUDE_TOOLS"],
    includeTags: ["include-tags", "OPENAPI_MCP_INCLUDE_TAGS"],
    excludeTags: ["exclude-tags", "OPENAPI_MCP_EXCLUDE_TAGS"],
    methods: ["methods", "OPENAPI_MCP_METHODS"],
    paths: ["paths", "OPENAPI_MCP_PATHS"],
  } as const;
  for (const [key, [flag, name]] of Object.entries(lists)) {
    const value = list(values[flag] as string[] | undefined, env[name]);
    if (value !== undefined) selection[key as keyof typeof lists] = value;
  }
  if (values["read-only"] === true || env["OPENAPI_MCP_READ_ONLY"] === "1") selection.readOnly = true;
  return selection;
}

/** `--auth-config FILE` (JSON) and `--oauth-client` flags, as `serve` reads them. */
function authOptions(
  file: string | undefined,
  clients: Record<string, string>,
  env: NodeJS.ProcessEnv,
): AuthConfig {
  let config: AuthConfig = { auth: {}, oauth: {}, passThroughHeaders: {} };
  if (file !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new UsageError(`cannot read the auth config ${file}: ${(error as Error).message}`);
    }
    config = parseAuthConfig(value, env);
  }
  for (const [scheme, clientId] of Object.entries(clients)) {
    const variable = toClientEnvNames(scheme).secret;
    const clientSecret = env[variable];
    if (!clientSecret) throw new UsageError(`--oauth-client ${scheme}: set the client secret in ${variable}`);
    config.oauth[scheme] = { ...config.oauth[scheme], clientId, clientSecret };
  }
  return config;
}

function envHeaders(text: string | undefined): Record<string, string> {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('OPENAPI_MCP_HEADERS must be a JSON object such as {"X-Tenant": "acme"}');
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError('OPENAPI_MCP_HEADERS must be a JSON object such as {"X-Tenant": "acme"}');
  }
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)]));
}

/** `OPENAPI_MCP_SERVER_VAR_<NAME>` for each variable of the API's server URLs. */
function envServerVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  const names = new Set<string>();
  for (const server of [...model.servers, ...model.tools.flatMap((t) => t.http.servers ?? [])]) {
    for (const name of Object.keys(server.variables)) names.add(name);
  }
  for (const name of names) {
    const value = env[toServerVariableEnvName(name)];
    if (value !== undefined && value !== "") result[name] = value;
  }
  return result;
}

async function main(): Promise<void> {
  const env = process.env;
  const { values } = parseArgs({
    options: {
      transport: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      path: { type: "string" },
      stateless: { type: "boolean" },
      "allow-origin": { type: "string", multiple: true },
      "base-url": { type: "string" },
      "server-var": { type: "string", multiple: true },
      auth: { type: "string", multiple: true },
      header: { type: "string", multiple: true },
      timeout: { type: "string" },
      "connect-timeout": { type: "string" },
      retries: { type: "string" },
      "max-concurrency": { type: "string" },
      "max-response-bytes": { type: "string" },
      "max-result-chars": { type: "string" },
      "circuit-breaker": { type: "string" },
      "circuit-cooldown": { type: "string" },
      "include-tools": { type: "string", multiple: true },
      "exclude-tools": { type: "string", multiple: true },
      "include-tags": { type: "string", multiple: true },
      "exclude-tags": { type: "string", multiple: true },
      methods: { type: "string", multiple: true },
      paths: { type: "string", multiple: true },
      "read-only": { type: "boolean" },
      destructive: { type: "string" },
      "auth-config": { type: "string" },
      "oauth-client": { type: "string", multiple: true },
      "pass-through-header": { type: "string", multiple: true },
      "http-token": { type: "string" },
      "max-body-bytes": { type: "string" },
      "audit-log": { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(HELP);
    return;
  }
  const transport = values.transport ?? env["OPENAPI_MCP_TRANSPORT"] ?? "stdio";
  if (transport !== "stdio" && transport !== "http") {
    throw new UsageError(`the transport must be stdio or http, got "${transport}"`);
  }
  const baseUrl = values["base-url"] ?? (env["OPENAPI_MCP_BASE_URL"] || undefined);
  const setting = (flag: keyof typeof values, name: string, fallback: number) =>
    wholeNumber((values[flag] as string | undefined) ?? env[name] ?? String(fallback), `--${flag}`);
  const optional = (flag: keyof typeof values, name: string) => {
    const value = (values[flag] as string | undefined) ?? env[name];
    return value === undefined ? undefined : wholeNumber(value, `--${flag}`);
  };
  const connectTimeout = optional("connect-timeout", "OPENAPI_MCP_CONNECT_TIMEOUT");
  const maxResponseBytes = optional("max-response-bytes", "OPENAPI_MCP_MAX_RESPONSE_BYTES");
  const maxResultChars = optional("max-result-chars", "OPENAPI_MCP_MAX_RESULT_CHARS");
  const authConfig = authOptions(
    values["auth-config"] ?? env["OPENAPI_MCP_AUTH_CONFIG"],
    pairs(values["oauth-client"] ?? [], "=", "SCHEME=CLIENT_ID"),
    env,
  );
  const auditTarget = values["audit-log"] ?? env["OPENAPI_MCP_AUDIT_LOG"];
  const audit = auditTarget
    ? (await import("./runtime/audit/audit-log.js")).createAuditLog(auditTarget)
    : undefined;
  const options: BridgeOptions = {
    access: toolSelection(values, env),
    timeoutMs: setting("timeout", "OPENAPI_MCP_TIMEOUT", 30_000),
    retry: { retries: setting("retries", "OPENAPI_MCP_RETRIES", 2) },
    maxConcurrency: Math.max(1, setting("max-concurrency", "OPENAPI_MCP_MAX_CONCURRENCY", 64)),
    circuitBreaker: {
      failureThreshold: setting("circuit-breaker", "OPENAPI_MCP_CIRCUIT_BREAKER", 5),
      cooldownMs: setting("circuit-cooldown", "OPENAPI_MCP_CIRCUIT_COOLDOWN", 30_000),
    },
    serverVariables: { ...envServerVariables(env), ...pairs(values["server-var"] ?? [], "=", "NAME=VALUE") },
    auth: { ...authConfig.auth, ...pairs(values.auth ?? [], "=", "SCHEME=VALUE") },
    oauth: authConfig.oauth,
    passThroughHeaders: {
      ...authConfig.passThroughHeaders,
      ...pairs(values["pass-through-header"] ?? [], "=", "INCOMING=SCHEME"),
    },
    headers: {
      ...envHeaders(env["OPENAPI_MCP_HEADERS"]),
      ...pairs(values.header ?? [], ":", '"Name: value"'),
    },
    env,
    hooks,
  };
  if (baseUrl !== undefined) options.baseUrl = httpUrl(baseUrl);
  if (connectTimeout !== undefined) options.connectTimeoutMs = connectTimeout;
  if (maxResponseBytes !== undefined) options.maxResponseBytes = maxResponseBytes;
  if (maxResultChars !== undefined) options.maxResultChars = maxResultChars;
  if (audit !== undefined) options.audit = audit;
  let runtime: ReturnType<typeof createBridgeRuntime>;
  try {
    runtime = createBridgeRuntime(model, options);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }

  if (transport === "http") {
    const { startHttpServer } = await import("./runtime/transport/streamable-http.js");
    const httpToken = values["http-token"] ?? env["OPENAPI_MCP_HTTP_TOKEN"];
    const maxBodyBytes = optional("max-body-bytes", "OPENAPI_MCP_MAX_BODY_BYTES");
    const origins = [...(values["allow-origin"] ?? []), env["OPENAPI_MCP_ALLOW_ORIGIN"] ?? ""]
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter((value) => value !== "");
    const running = await startHttpServer(runtime, {
      host: values.host ?? env["OPENAPI_MCP_HOST"] ?? "127.0.0.1",
      port: wholeNumber(values.port ?? env["OPENAPI_MCP_PORT"] ?? "3000", "the port"),
      path: values.path ?? env["OPENAPI_MCP_PATH"] ?? "/mcp",
      stateless: values.stateless === true || env["OPENAPI_MCP_STATELESS"] === "1",
      allowedOrigins: origins,
      ...(httpToken ? { bearerToken: httpToken } : {}),
      ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    });
    process.stderr.write(`${model.info.title}: ${runtime.model.tools.length} tools on ${running.url}\n`);
    const stop = () => {
      void running
        .close()
        .then(() => runtime.close())
        .then(() => audit?.close())
        .then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return;
  }

  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = createBridgeServer(runtime);
  const stdio = new StdioServerTransport();
  stdio.onclose = () => {
    void runtime.close().then(() => audit?.close());
  };
  await server.connect(stdio);
  process.stderr.write(`${model.info.title}: ${runtime.model.tools.length} tools over stdio\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${message}\n`);
  if (!(error instanceof UsageError) && process.env["DEBUG"] && error instanceof Error) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exitCode =
    error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
});
