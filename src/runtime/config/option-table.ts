/**
 * Every option of a running bridge, once: its flag, value placeholder, environment variable,
 * default, parser, help text and the transports it applies to. `serve` builds its commander
 * options from this table, a generated server its node:util parseArgs options and `--help`, the
 * generated README and this package's docs/serve.md their option tables. Defaults are cited from the
 * component that applies them (DEFAULT_* beside each), never the other way round: only the
 * config layer reads this table. Adding an option here gives it to all of them.
 *
 * Options only `serve` and `generate` take (how a spec is read and planned: `--no-validate`,
 * `--profile`, ...) are not here: a generated server has no spec.
 */
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { formatCount } from "../../model/format-count.js";
import { DEFAULT_DESTRUCTIVE } from "../access/select.js";
import { MIN_STORE_KEY_BYTES } from "../auth/user-login/sealed-box.js";
import { DEFAULT_SANDBOX_LIMITS, SANDBOX_LIMIT_FLAGS } from "../code/sandbox/limits.js";
import { AUTO_LIMITS, DEFAULT_MODE } from "../discovery/mode.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../results/truncate.js";
import { DEFAULT_LIST_TTL_MS, RELOADING_LIST_TTL_MS } from "../server/cache-hints.js";
import { MIN_CONFIRM_KEY_BYTES } from "../server/confirm-state.js";
import { DEFAULT_POLL_BUDGET } from "../tasks/poll-budget.js";
import { DEFAULT_METRICS_HOST, DEFAULT_OTLP_PROTOCOL, METRICS_PATH } from "../telemetry/telemetry-options.js";
import { DEFAULT_OAUTH_RESOURCE } from "../transport/oauth/resource-options.js";
import {
  DEFAULT_HTTP_SERVER,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_TRANSPORT,
} from "../transport/transport-options.js";
import { DEFAULT_CIRCUIT } from "../upstream/circuit.js";
import { DEFAULT_MAX_CONCURRENCY } from "../upstream/limit.js";
import { DEFAULT_RETRY } from "../upstream/retry.js";
import { DEFAULT_HTTP } from "../upstream/send.js";
import {
  parseChoice,
  parseHeaders,
  parseHttpUrl,
  parseList,
  parsePairs,
  parsePort,
  parseScopeMap,
  parseSecret,
  parseSwitch,
  parseText,
  parseTokenStore,
  parseWholeNumber,
  type ValueParser,
} from "./value-parsers.js";

/** Which transports an option means something for. */
export type OptionTransports = "both" | "http" | "stdio";

/** What an option is about; the selection group is also what `generate` and `tools` take. */
export type OptionGroup =
  | "upstream"
  | "credentials"
  | "transport"
  | "http"
  | "tools"
  | "code"
  | "selection"
  | "audit"
  | "telemetry";

export interface OptionSpec<T> {
  /** The flag without its dashes: `max-body-bytes`. */
  readonly flag: string;
  /** The value's placeholder in help (`N`, `NAME=VALUE`); absent for a switch. */
  readonly placeholder?: string;
  /**
   * The environment variable (`OPENAPI_MCP_*`). With `<NAME>` in it, one variable per name
   * (`OPENAPI_MCP_AUTH_<SCHEME>`), read where the names are known (the model's schemes and
   * server variables), not by the reader.
   */
  readonly env?: string;
  /** How the variable's value is written, when not like the flag's (`a JSON object ...`). */
  readonly envFormat?: string;
  readonly parser: ValueParser<T>;
  /** The value when neither a flag nor the variable gives one. */
  readonly default?: T;
  /** The default as people say it (`10 MiB`), when the number alone is not the clearest. */
  readonly defaultText?: string;
  /** What the option does (plain text, read in `--help` and in the docs' tables). */
  readonly help: string;
  /** More for docs/serve.md (markdown), after the help text and a semicolon. */
  readonly details?: string;
  readonly transports: OptionTransports;
  readonly group: OptionGroup;
  /** The diagnostic code of a bad value, when not OMB_OPTION_INVALID (kept for existing codes). */
  readonly code?: DiagnosticCode;
  /** The value is a secret: registries and generated configs mark its variable as one. */
  readonly secret?: true;
  /**
   * In a bridge of several APIs (`serve A B`, `--config`), `api-only` marks an option that
   * carries credentials or says where calls go: each API sets its own, and a value for the
   * whole bridge is refused. Absent: by its group (serve/config/option-scope.ts).
   */
  readonly scope?: "api-only";
}

const MIB = 1024 * 1024;

/** The table. Its order is the order of `--help` and of the docs' tables. */
export const OPTION_TABLE = {
  baseUrl: {
    flag: "base-url",
    placeholder: "URL",
    env: "OPENAPI_MCP_BASE_URL",
    parser: parseHttpUrl(),
    help: "replace the spec's whole server URL, path included",
    details:
      "`servers: [{url: https://x/v1}]` with `--base-url http://127.0.0.1:8080` sends `GET http://127.0.0.1:8080/pets`",
    transports: "both",
    group: "upstream",
    code: "OMB_BASE_URL",
    scope: "api-only",
  },
  serverVar: {
    flag: "server-var",
    placeholder: "NAME=VALUE",
    env: "OPENAPI_MCP_SERVER_VAR_<NAME>",
    parser: parsePairs("NAME=VALUE"),
    help: "a value for a server URL variable",
    transports: "both",
    group: "upstream",
    scope: "api-only",
  },
  auth: {
    flag: "auth",
    placeholder: "SCHEME=VALUE",
    env: "OPENAPI_MCP_AUTH_<SCHEME>",
    parser: parsePairs("SCHEME=VALUE"),
    help: "a credential for the security scheme named `SCHEME`",
    details: "see Credentials",
    transports: "both",
    group: "credentials",
    scope: "api-only",
  },
  header: {
    flag: "header",
    placeholder: '"Name: value"',
    env: "OPENAPI_MCP_HEADERS",
    envFormat: "a JSON object of names to values",
    parser: parseHeaders(),
    help: "a static header sent on every upstream request",
    transports: "both",
    group: "upstream",
    scope: "api-only",
  },
  trustOrigin: {
    flag: "trust-origin",
    placeholder: "ORIGINS",
    env: "OPENAPI_MCP_TRUST_ORIGIN",
    parser: parseList(),
    help: "origins (`https://host:port`) of operation or path `servers` that get the credentials and `--header`s too; by default only the API's own origin does",
    details:
      "the API's origin is `--base-url`'s, else the spec's first server's; an operation whose own `servers` name another origin is called without credentials, and the start-up line lists where calls go",
    transports: "both",
    group: "credentials",
    scope: "api-only",
  },
  transport: {
    flag: "transport",
    placeholder: "stdio|http",
    env: "OPENAPI_MCP_TRANSPORT",
    parser: parseChoice(["stdio", "http"]),
    default: DEFAULT_TRANSPORT,
    help: "the MCP transport: `stdio` or Streamable HTTP (`http`)",
    transports: "both",
    group: "transport",
  },
  host: {
    flag: "host",
    placeholder: "HOST",
    env: "OPENAPI_MCP_HOST",
    parser: parseText("an address"),
    default: DEFAULT_HTTP_SERVER.host,
    help: "the address to bind",
    transports: "http",
    group: "http",
  },
  port: {
    flag: "port",
    placeholder: "N",
    env: "OPENAPI_MCP_PORT",
    parser: parsePort(),
    default: DEFAULT_HTTP_SERVER.port,
    help: "the port to listen on (0 picks a free one)",
    transports: "http",
    group: "http",
  },
  path: {
    flag: "path",
    placeholder: "PATH",
    env: "OPENAPI_MCP_PATH",
    parser: parseText("a path"),
    default: DEFAULT_HTTP_SERVER.path,
    help: "the MCP endpoint's path",
    transports: "http",
    group: "http",
  },
  stateless: {
    flag: "stateless",
    env: "OPENAPI_MCP_STATELESS",
    parser: parseSwitch(),
    help: "no sessions, so replicas behind any load balancer can answer any request",
    transports: "http",
    group: "http",
  },
  allowOrigin: {
    flag: "allow-origin",
    placeholder: "ORIGINS",
    env: "OPENAPI_MCP_ALLOW_ORIGIN",
    parser: parseList(),
    help: "`Origin`s allowed besides loopback ones",
    transports: "http",
    group: "http",
  },
  httpToken: {
    flag: "http-token",
    placeholder: "TOKEN",
    env: "OPENAPI_MCP_HTTP_TOKEN",
    parser: parseText("a token"),
    help: "MCP clients must send `Authorization: Bearer TOKEN` (the variable keeps it out of `ps`)",
    transports: "http",
    group: "http",
    secret: true,
  },
  authIssuer: {
    flag: "auth-issuer",
    placeholder: "URLS",
    env: "OPENAPI_MCP_AUTH_ISSUER",
    parser: parseList(),
    help: "the bridge as an OAuth 2.1 protected resource: MCP clients need an access token from one of these authorization servers (issuer identifiers), checked at every request; not with --http-token",
    details: "see Team deployment (OAuth)",
    transports: "http",
    group: "http",
  },
  authResource: {
    flag: "auth-resource",
    placeholder: "URL",
    env: "OPENAPI_MCP_AUTH_RESOURCE",
    parser: parseHttpUrl(),
    defaultText: "the URL the bridge listens on",
    help: "the bridge's public URL (its MCP endpoint as clients reach it): the audience every access token must name (RFC 8707); set it behind a proxy",
    transports: "http",
    group: "http",
  },
  authScopes: {
    flag: "auth-scopes",
    placeholder: "SCOPES",
    env: "OPENAPI_MCP_AUTH_SCOPES",
    parser: parseList(),
    help: "scopes every access token needs, whatever it calls; the 401 challenge names them, so clients ask for these first and step up from there",
    transports: "http",
    group: "http",
  },
  authScopeMap: {
    flag: "auth-scope-map",
    placeholder: "PATTERN=SCOPES",
    env: "OPENAPI_MCP_AUTH_SCOPE_MAP",
    envFormat: "rules separated by ;",
    parser: parseScopeMap(),
    help: "the scopes a token needs for the tools a glob names (`pets_*`, or `tag:GLOB` for a tag), first match wins; scopes separated by spaces or commas",
    details:
      "tools/list and search show only what the token may call; a call outside its scopes gets 403 `insufficient_scope`",
    transports: "http",
    group: "http",
  },
  authSpecScopes: {
    flag: "auth-spec-scopes",
    env: "OPENAPI_MCP_AUTH_SPEC_SCOPES",
    parser: parseSwitch(),
    help: "an operation no --auth-scope-map rule names needs the OAuth scopes of its spec's own security requirement",
    transports: "http",
    group: "http",
  },
  authAlgorithms: {
    flag: "auth-algorithms",
    placeholder: "ALGS",
    env: "OPENAPI_MCP_AUTH_ALGORITHMS",
    parser: parseList(),
    default: [...DEFAULT_OAUTH_RESOURCE.algorithms],
    help: "the JWS algorithms accepted on access tokens; asymmetric ones only (`none` and HMAC never)",
    transports: "http",
    group: "http",
  },
  authClockSkew: {
    flag: "auth-clock-skew",
    placeholder: "MS",
    env: "OPENAPI_MCP_AUTH_CLOCK_SKEW",
    parser: parseWholeNumber(),
    default: DEFAULT_OAUTH_RESOURCE.clockSkewMs,
    help: "clock difference tolerated on a token's expiry and not-before, in milliseconds",
    transports: "http",
    group: "http",
  },
  authIntrospectionClient: {
    flag: "auth-introspection-client",
    placeholder: "ID",
    env: "OPENAPI_MCP_AUTH_INTROSPECTION_CLIENT",
    parser: parseText("a client id"),
    help: "opaque (non-JWT) access tokens are checked at the issuer's introspection endpoint (RFC 7662) as this client; its secret comes from OPENAPI_MCP_AUTH_INTROSPECTION_SECRET",
    transports: "http",
    group: "http",
  },
  authIntrospectionSecret: {
    flag: "auth-introspection-secret",
    placeholder: "SECRET",
    env: "OPENAPI_MCP_AUTH_INTROSPECTION_SECRET",
    parser: parseText("a client secret"),
    help: "the introspection client's secret (the variable keeps it out of `ps`)",
    transports: "http",
    group: "http",
    secret: true,
  },
  confirmKey: {
    flag: "confirm-key",
    placeholder: "KEY",
    env: "OPENAPI_MCP_CONFIRM_KEY",
    parser: parseSecret(MIN_CONFIRM_KEY_BYTES),
    defaultText: "random, per process",
    help: `signs \`--destructive confirm\`'s question between the rounds of a 2026-07-28 tool call (at least ${MIN_CONFIRM_KEY_BYTES} bytes); replicas behind a load balancer need the same key (the variable keeps it out of \`ps\`)`,
    transports: "http",
    group: "http",
    secret: true,
  },
  maxBodyBytes: {
    flag: "max-body-bytes",
    placeholder: "N",
    env: "OPENAPI_MCP_MAX_BODY_BYTES",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_HTTP_SERVER.maxBodyBytes,
    defaultText: "4 MiB",
    help: "the largest MCP request body accepted in bytes; larger ones get 413",
    transports: "http",
    group: "http",
  },
  maxMessageBytes: {
    flag: "max-message-bytes",
    placeholder: "N",
    env: "OPENAPI_MCP_MAX_MESSAGE_BYTES",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_MAX_MESSAGE_BYTES,
    defaultText: "10 MiB",
    help: "the largest MCP message read over stdio in bytes; a larger one is refused with an error and the bridge keeps serving",
    details: "a base64 upload over about 7.5 MB needs more",
    transports: "stdio",
    group: "transport",
  },
  listTtl: {
    flag: "list-ttl",
    placeholder: "MS",
    env: "OPENAPI_MCP_LIST_TTL",
    parser: parseWholeNumber(),
    default: DEFAULT_LIST_TTL_MS,
    defaultText: `${DEFAULT_LIST_TTL_MS} (5 minutes)`,
    help: `how long a 2026-07-28 client may reuse a tools/list answer (ttlMs); with serve --watch at most ${RELOADING_LIST_TTL_MS}`,
    details:
      "the answer is `private` with --http-token or pass-through credentials, else `public` (cacheScope)",
    transports: "both",
    group: "transport",
  },
  maxSessions: {
    flag: "max-sessions",
    placeholder: "N",
    env: "OPENAPI_MCP_MAX_SESSIONS",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_HTTP_SERVER.maxSessions,
    help: "MCP sessions open at once; a new one closes an abandoned or long-idle session, and gets 503 only when all are in use",
    transports: "http",
    group: "http",
  },
  sessionIdleTimeout: {
    flag: "session-idle-timeout",
    placeholder: "MS",
    env: "OPENAPI_MCP_SESSION_IDLE_TIMEOUT",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_HTTP_SERVER.sessionIdleMs,
    defaultText: "1800000 (30 minutes)",
    help: "a session without requests for this long is closed; one that sent nothing after initialize is closed after 30 s",
    transports: "http",
    group: "http",
  },
  timeout: {
    flag: "timeout",
    placeholder: "MS",
    env: "OPENAPI_MCP_TIMEOUT",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_HTTP.timeoutMs,
    help: "total upstream time of one call in milliseconds, retries and waiting included",
    transports: "both",
    group: "upstream",
  },
  connectTimeout: {
    flag: "connect-timeout",
    placeholder: "MS",
    env: "OPENAPI_MCP_CONNECT_TIMEOUT",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_HTTP.connectTimeoutMs,
    defaultText: "10000, or --timeout when shorter",
    help: "upstream connect (TCP + TLS) timeout in milliseconds",
    transports: "both",
    group: "upstream",
  },
  retries: {
    flag: "retries",
    placeholder: "N",
    env: "OPENAPI_MCP_RETRIES",
    parser: parseWholeNumber(),
    default: DEFAULT_RETRY.retries,
    help: "retries of a failed upstream call where it is safe: idempotent methods, unsent connects, 429/503",
    transports: "both",
    group: "upstream",
  },
  maxConcurrency: {
    flag: "max-concurrency",
    placeholder: "N",
    env: "OPENAPI_MCP_MAX_CONCURRENCY",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_MAX_CONCURRENCY,
    help: "upstream calls in flight at once; others wait within their timeout",
    transports: "both",
    group: "upstream",
  },
  operationWait: {
    flag: "operation-wait",
    placeholder: "MS",
    env: "OPENAPI_MCP_OPERATION_WAIT",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_POLL_BUDGET.maxWaitMs,
    defaultText: "15 minutes",
    help: "how long the bridge itself follows a long-running operation (a task, a program's call) before it answers with the operation's handle, in milliseconds",
    details: "see Long-running operations",
    transports: "both",
    group: "upstream",
  },
  maxResponseBytes: {
    flag: "max-response-bytes",
    placeholder: "N",
    env: "OPENAPI_MCP_MAX_RESPONSE_BYTES",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_HTTP.maxResponseBytes,
    defaultText: "10 MiB",
    help: "bytes of an upstream answer read; the rest is discarded and the result says so",
    transports: "both",
    group: "upstream",
  },
  maxResultChars: {
    flag: "max-result-chars",
    placeholder: "N",
    env: "OPENAPI_MCP_MAX_RESULT_CHARS",
    parser: parseWholeNumber(),
    default: DEFAULT_MAX_RESULT_CHARS,
    help: "characters of text in one tool result (0: no limit); larger answers are cut with a note on how to get the rest",
    transports: "both",
    group: "upstream",
  },
  circuitBreaker: {
    flag: "circuit-breaker",
    placeholder: "N",
    env: "OPENAPI_MCP_CIRCUIT_BREAKER",
    parser: parseWholeNumber(),
    default: DEFAULT_CIRCUIT.failureThreshold,
    help: "calls in a row that get no answer after which calls fail fast (0 disables)",
    details:
      "counted per origin for calls that cannot connect, per operation and caller for timeouts, resets and 502/504; answered errors (500, 4xx, 503) never count; see Resilience",
    transports: "both",
    group: "upstream",
  },
  circuitCooldown: {
    flag: "circuit-cooldown",
    placeholder: "MS",
    env: "OPENAPI_MCP_CIRCUIT_COOLDOWN",
    parser: parseWholeNumber(),
    default: DEFAULT_CIRCUIT.cooldownMs,
    help: "how long calls fail fast, in milliseconds, before one trial call is let through",
    transports: "both",
    group: "upstream",
  },
  authConfig: {
    flag: "auth-config",
    placeholder: "FILE",
    env: "OPENAPI_MCP_AUTH_CONFIG",
    parser: parseText("a file"),
    help: "a JSON or YAML file with static credentials, OAuth2 clients and pass-through headers",
    details: "see Credentials",
    transports: "both",
    group: "credentials",
    scope: "api-only",
  },
  oauthClient: {
    flag: "oauth-client",
    placeholder: "SCHEME=ID",
    env: "OPENAPI_MCP_CLIENT_ID_<SCHEME>",
    parser: parsePairs("SCHEME=CLIENT_ID"),
    help: "OAuth2 client credentials for a scheme; the secret comes from `OPENAPI_MCP_CLIENT_SECRET_<SCHEME>`",
    transports: "both",
    group: "credentials",
    scope: "api-only",
  },
  tokenStore: {
    flag: "token-store",
    placeholder: "URL",
    env: "OPENAPI_MCP_TOKEN_STORE",
    parser: parseTokenStore(),
    defaultText: "memory",
    help: "where each user's own API tokens (a scheme with `flow: authorizationCode`) and the used one-time numbers of sign-in links and `--destructive confirm` answers are kept: `memory` (this process) or `redis://[:PASSWORD@]HOST:PORT[/DB]` (`rediss://` for TLS), which replicas share, so a replayed answer is refused on every replica",
    details: "see Team deployment (OAuth)",
    transports: "http",
    group: "credentials",
    secret: true,
  },
  tokenStoreKey: {
    flag: "token-store-key",
    placeholder: "KEY",
    env: "OPENAPI_MCP_TOKEN_STORE_KEY",
    parser: parseSecret(MIN_STORE_KEY_BYTES),
    defaultText: "random, per process",
    help: `seals each user's own API tokens and sign-in links (AES-256-GCM; at least ${MIN_STORE_KEY_BYTES} bytes); replicas that share a --token-store need the same key (the variable keeps it out of \`ps\`)`,
    transports: "http",
    group: "credentials",
    secret: true,
  },
  allowCredentialArguments: {
    flag: "allow-credential-arguments",
    placeholder: "NAMES",
    env: "OPENAPI_MCP_ALLOW_CREDENTIAL_ARGUMENTS",
    parser: parseList(),
    help: "header, query or cookie parameters that look like credentials (a key, token, password, signature) which the model may give as arguments; any other is never taken from the model",
    details: "see Credentials",
    transports: "both",
    group: "credentials",
    scope: "api-only",
  },
  passThroughHeader: {
    flag: "pass-through-header",
    placeholder: "INCOMING=SCHEME",
    parser: parsePairs("INCOMING=SCHEME"),
    help: "the MCP request's header `INCOMING` is that request's credential for the scheme `SCHEME`",
    transports: "http",
    group: "credentials",
    scope: "api-only",
  },
  auditLog: {
    flag: "audit-log",
    placeholder: "FILE",
    env: "OPENAPI_MCP_AUDIT_LOG",
    parser: parseText("a file, or -"),
    help: "append one JSON line per tool call (secrets redacted) to FILE (created mode 0600), or `-` for stderr",
    details: "see Audit log",
    transports: "both",
    group: "audit",
  },
  otlpEndpoint: {
    flag: "otlp-endpoint",
    placeholder: "URL",
    env: "OPENAPI_MCP_OTLP_ENDPOINT",
    parser: parseHttpUrl(),
    help: "export traces and metrics over OTLP/HTTP to this base URL (`/v1/traces` and `/v1/metrics` are added), as the standard `OTEL_EXPORTER_OTLP_ENDPOINT` does too; off by default",
    details: "see Observability",
    transports: "both",
    group: "telemetry",
  },
  otlpProtocol: {
    flag: "otlp-protocol",
    placeholder: "PROTOCOL",
    env: "OPENAPI_MCP_OTLP_PROTOCOL",
    parser: parseChoice(["http/protobuf", "http/json"]),
    default: DEFAULT_OTLP_PROTOCOL,
    help: "the OTLP encoding, `http/protobuf` or `http/json` (unset: `OTEL_EXPORTER_OTLP_PROTOCOL`, else the default)",
    transports: "both",
    group: "telemetry",
  },
  metricsPort: {
    flag: "metrics-port",
    placeholder: "PORT",
    env: "OPENAPI_MCP_METRICS_PORT",
    parser: parsePort(),
    help: `serve Prometheus metrics at http://HOST:PORT${METRICS_PATH} on a listener of their own; off by default`,
    details: "see Observability",
    transports: "both",
    group: "telemetry",
  },
  metricsHost: {
    flag: "metrics-host",
    placeholder: "HOST",
    env: "OPENAPI_MCP_METRICS_HOST",
    parser: parseText("an address"),
    default: DEFAULT_METRICS_HOST,
    help: "the address the metrics listener binds (0.0.0.0 to let a scraper on another host in)",
    transports: "both",
    group: "telemetry",
  },
  mode: {
    flag: "mode",
    placeholder: "tools|discovery|code|auto",
    env: "OPENAPI_MCP_MODE",
    parser: parseChoice(["tools", "discovery", "code", "auto"]),
    default: DEFAULT_MODE,
    help: `\`tools\`: one tool per operation; \`discovery\`: three tools that search, describe and call the operations; \`code\`: search, describe and \`execute\`, which runs a JavaScript program against the API in a sandbox; \`auto\`: tools up to ${AUTO_LIMITS.tools} tools and ${formatCount(AUTO_LIMITS.tokens)} tokens of definitions, else discovery`,
    details: "see Discovery mode and Code mode",
    transports: "both",
    group: "tools",
  },
  codeTimeout: {
    flag: SANDBOX_LIMIT_FLAGS.timeoutMs,
    placeholder: "MS",
    env: "OPENAPI_MCP_CODE_TIMEOUT",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_SANDBOX_LIMITS.timeoutMs,
    help: "code mode: wall time of one `execute` in milliseconds, its API calls included; a program still running then is stopped",
    transports: "both",
    group: "code",
  },
  codeMemory: {
    flag: SANDBOX_LIMIT_FLAGS.memoryBytes,
    placeholder: "BYTES",
    env: "OPENAPI_MCP_CODE_MEMORY",
    parser: parseWholeNumber({ min: MIB }),
    default: DEFAULT_SANDBOX_LIMITS.memoryBytes,
    defaultText: "64 MiB",
    help: "code mode: memory one program may allocate in its sandbox, in bytes",
    transports: "both",
    group: "code",
  },
  codeMaxCalls: {
    flag: SANDBOX_LIMIT_FLAGS.maxCalls,
    placeholder: "N",
    env: "OPENAPI_MCP_CODE_MAX_CALLS",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_SANDBOX_LIMITS.maxCalls,
    help: "code mode: API calls one program may make; the next one stops it",
    transports: "both",
    group: "code",
  },
  codeMaxCallBytes: {
    flag: SANDBOX_LIMIT_FLAGS.maxCallBytes,
    placeholder: "BYTES",
    env: "OPENAPI_MCP_CODE_MAX_CALL_BYTES",
    parser: parseWholeNumber({ min: 1024 }),
    default: DEFAULT_SANDBOX_LIMITS.maxCallBytes,
    defaultText: "4 MiB",
    help: "code mode: bytes of one API call's arguments and of one answer a program is handed; a call over it is refused with an error the program can catch",
    transports: "both",
    group: "code",
  },
  codeMaxAnswerBytes: {
    flag: SANDBOX_LIMIT_FLAGS.maxAnswerBytes,
    placeholder: "BYTES",
    env: "OPENAPI_MCP_CODE_MAX_ANSWER_BYTES",
    parser: parseWholeNumber({ min: 1024 }),
    default: DEFAULT_SANDBOX_LIMITS.maxAnswerBytes,
    defaultText: "32 MiB",
    help: "code mode: bytes of all the answers one program is handed; an answer past it is refused with an error the program can catch",
    transports: "both",
    group: "code",
  },
  codeMaxLogChars: {
    flag: SANDBOX_LIMIT_FLAGS.maxLogChars,
    placeholder: "N",
    env: "OPENAPI_MCP_CODE_MAX_LOG_CHARS",
    parser: parseWholeNumber({ min: 1 }),
    default: DEFAULT_SANDBOX_LIMITS.maxLogChars,
    help: "code mode: characters of console output one program may write; more stops it",
    transports: "both",
    group: "code",
  },
  codeMaxStack: {
    flag: SANDBOX_LIMIT_FLAGS.maxStackBytes,
    placeholder: "BYTES",
    env: "OPENAPI_MCP_CODE_MAX_STACK",
    parser: parseWholeNumber({ min: 16 * 1024, max: 768 * 1024 }),
    default: DEFAULT_SANDBOX_LIMITS.maxStackBytes,
    defaultText: "256 KiB (about 1,300 nested calls)",
    help: "code mode: stack one program may use in bytes (16 KiB to 768 KiB), which bounds how deep its calls nest",
    transports: "both",
    group: "code",
  },
  includeTools: {
    flag: "include-tools",
    placeholder: "GLOBS",
    env: "OPENAPI_MCP_INCLUDE_TOOLS",
    parser: parseList(),
    help: "serve only tools whose name matches one of the globs: `*` any run, `?` one character",
    transports: "both",
    group: "selection",
  },
  excludeTools: {
    flag: "exclude-tools",
    placeholder: "GLOBS",
    env: "OPENAPI_MCP_EXCLUDE_TOOLS",
    parser: parseList(),
    help: "leave out tools whose name matches one of the globs",
    transports: "both",
    group: "selection",
  },
  includeTags: {
    flag: "include-tags",
    placeholder: "TAGS",
    env: "OPENAPI_MCP_INCLUDE_TAGS",
    parser: parseList(),
    help: "serve only operations with one of these tags",
    transports: "both",
    group: "selection",
  },
  excludeTags: {
    flag: "exclude-tags",
    placeholder: "TAGS",
    env: "OPENAPI_MCP_EXCLUDE_TAGS",
    parser: parseList(),
    help: "leave out operations with one of these tags",
    transports: "both",
    group: "selection",
  },
  methods: {
    flag: "methods",
    placeholder: "METHODS",
    env: "OPENAPI_MCP_METHODS",
    parser: parseList(),
    help: "serve only these HTTP methods, e.g. `get,post`",
    transports: "both",
    group: "selection",
  },
  paths: {
    flag: "paths",
    placeholder: "GLOBS",
    env: "OPENAPI_MCP_PATHS",
    parser: parseList(),
    help: "serve only path templates that match one of the globs: `*` one segment, `**` any, e.g. `/pets/**`",
    transports: "both",
    group: "selection",
  },
  readOnly: {
    flag: "read-only",
    env: "OPENAPI_MCP_READ_ONLY",
    parser: parseSwitch(),
    help: "serve only GET, HEAD and OPTIONS operations",
    transports: "both",
    group: "selection",
  },
  destructive: {
    flag: "destructive",
    placeholder: "POLICY",
    env: "OPENAPI_MCP_DESTRUCTIVE",
    parser: parseChoice(["allow", "refuse", "confirm"]),
    default: DEFAULT_DESTRUCTIVE,
    help: "DELETE and other destructive operations: `allow`, `refuse` (not served) or `confirm` (the user is asked first)",
    transports: "both",
    group: "selection",
  },
} as const satisfies Record<string, OptionSpec<unknown>>;

export type OptionTable = typeof OPTION_TABLE;
export type OptionKey = keyof OptionTable;

/** The value type of an option, from its parser. */
export type OptionValue<K extends OptionKey> =
  OptionTable[K]["parser"] extends ValueParser<infer T> ? T : never;

/** What the flags and the environment set; an option neither set is absent (its default applies). */
export type Settings = { -readonly [K in OptionKey]?: OptionValue<K> };

/** Every option's key, in table order. */
export const OPTION_KEYS = Object.keys(OPTION_TABLE) as OptionKey[];

/** The table's entry of an option, as the general shape. */
export function getOptionSpec(key: OptionKey): OptionSpec<unknown> {
  return OPTION_TABLE[key];
}
