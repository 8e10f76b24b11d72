/**
 * The options of a bridge runtime (the library's BridgeOptions), what one call knows, and the
 * one function that applies the defaults: each component keeps its own (upstream/send.ts,
 * upstream/client.ts, results/truncate.ts, discovery/mode.ts, code/sandbox/limits.ts,
 * server/tool-list.ts) and the option table cites them; the engine works with the resolved
 * options only.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Dispatcher } from "undici";
import type { Diagnostic } from "../../model/types.js";
import type { CallerAccess } from "../access/caller.js";
import type { ToolSelection } from "../access/select.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { OAuthClientConfig } from "../auth/oauth.js";
import { resolveSandboxLimits, type SandboxLimits } from "../code/sandbox/limits.js";
import { DEFAULT_MODE, type RequestedMode } from "../discovery/mode.js";
import type { TraceContext } from "../request/trace-context.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../results/truncate.js";
import { DEFAULT_PAGE_BYTES } from "../server/tool-list.js";
import type { OperationWait } from "../tasks/follow-operation.js";
import { type PollBudget, resolvePollBudget } from "../tasks/poll-budget.js";
import type { CircuitOptions } from "../upstream/circuit.js";
import { resolveUpstreamOptions } from "../upstream/client.js";
import type { ConnectionOptions } from "../upstream/connection.js";
import type { RetryOptions } from "../upstream/retry.js";
import { resolveHttpOptions } from "../upstream/send.js";

export interface BridgeOptions {
  /** Replaces the whole server URL, path included. */
  baseUrl?: string;
  /** Values for the spec's server variables. */
  serverVariables?: Record<string, string>;
  /** Credentials by security scheme name. */
  auth?: Record<string, string>;
  /** Where `OPENAPI_MCP_AUTH_<SCHEME>` variables are read (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Static headers sent on every upstream request to the API's origin (see trustedOrigins). */
  headers?: Record<string, string>;
  /**
   * Origins (`https://host:port`) besides the API's own (`baseUrl`'s, else the document's first
   * server's) that get credentials and `headers`. An operation whose `servers` name any other
   * origin is called without them.
   */
  trustedOrigins?: string[];
  /** Per-call timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Bytes of an upstream answer kept (default 10 MiB). */
  maxResponseBytes?: number;
  /**
   * Characters of text in one result (default 25,000; 0: no limit). A larger answer is cut at a
   * clean boundary with a marker that says what was cut and how to get the rest.
   */
  maxResultChars?: number;
  /**
   * `tools`: every operation is a tool; `discovery`: three tools that search, describe and call
   * them; `code`: search, describe and execute, which runs a program against them in a sandbox
   * (code/); `auto` (default): tools while they are few and small, else discovery (discovery/mode.ts).
   */
  mode?: RequestedMode;
  /** Code mode's sandbox limits, each defaulting to its option (`--code-timeout`...). */
  code?: Partial<SandboxLimits>;
  /** Serialized size of one tools/list page in bytes (default 9.5 MiB: what the SDK's stdio client reads). */
  pageBytes?: number;
  /** A dispatcher to send requests with (default: a keep-alive undici Agent). */
  dispatcher?: Dispatcher;
  /** Code run around a tool's HTTP call, by tool name (generated projects fill these in). */
  hooks?: Record<string, ToolHooks<object>>;
  /** Which tools are served at all, and what happens to destructive ones (see select.ts). */
  access?: ToolSelection;
  /** Retries of failed upstream attempts where safe (default: 2, backoff 200 ms doubling, cap 5 s). */
  retry?: RetryOptions;
  /**
   * Circuit breaker (default: opens after 5 unavailable calls in a row, fails fast for 5 s):
   * per origin for calls that cannot connect, per operation and caller for calls that get no
   * answer; `false` disables it.
   */
  circuitBreaker?: CircuitOptions | false;
  /** Upstream calls in flight at once (default 64); the others wait within their timeout. */
  maxConcurrency?: number;
  /** OAuth2 client credentials by scheme name (also OPENAPI_MCP_CLIENT_ID_/_SECRET_<SCHEME>). */
  oauth?: Record<string, OAuthClientConfig>;
  /**
   * Where each user's own API tokens are kept (schemes with `flow: authorizationCode`):
   * `memory` (default) or a `redis://` URL that replicas share (auth/user-login/).
   */
  tokenStore?: string;
  /** Seals users' tokens and sign-in links (at least 32 bytes); default: random per process. */
  tokenStoreKey?: string;
  /**
   * HTTP mode: incoming MCP request header → security scheme whose credential it carries for
   * that request. Nothing of the MCP request is forwarded unless named here.
   */
  passThroughHeaders?: Record<string, string>;
  /**
   * Header, query and cookie parameters that look like credentials but that the model may give
   * (by name, any case); any other is never taken from arguments (request/filled-parameters.ts).
   */
  allowCredentialArguments?: string[];
  /** Receives one entry per tool call, arguments already redacted (see audit.ts). */
  audit?: AuditLog;
  /**
   * How long the bridge itself follows a long-running operation (a task, a program's call):
   * status reads, total wait, and the bounds of the API's Retry-After (tasks/poll-budget.ts).
   */
  operations?: Partial<PollBudget>;
  /**
   * The API's namespace in a bridge of several APIs (apis/): named in its audit lines, and
   * its tools are already named `<namespace>__<tool>`.
   */
  apiName?: string;
  /**
   * Receives each warning of the start checks (createBridgeRuntime, createApiRuntime): a scheme
   * the served tools need that has no credential, a credential too short to redact... Default:
   * one line each on stderr.
   */
  onWarning?: (warning: Diagnostic) => void;
}

/** How a mode asks for fields of an answer and reads the rest of a cut one. */
export interface ResultRequest {
  /** Only these fields of the answer (as sent: checked by the pipeline). */
  fields?: unknown;
  /** The call that reads the part a continuation handle names, in this mode's words. */
  continueText?: (handle: string) => string;
  /** A sentence on asking for fewer fields, in this mode's words. */
  fieldsHint?: string;
}

/** What one call knows about the MCP connection it came from. */
export interface CallContext {
  /** Headers of the incoming MCP HTTP request (Streamable HTTP only). */
  headers?: Record<string, string | string[] | undefined>;
  /** The MCP session (sessionful Streamable HTTP): the circuit breaker keeps its callers apart. */
  session?: string;
  /**
   * Asks the user to confirm: true when they accept. Absent when the client cannot be asked.
   * On 2025-era connections an MCP elicitation answered within the call; on the 2026-07-28 wire
   * the answer comes with the client's retry, so the first round throws access/confirm's
   * ConfirmationPending (the server answers with the question), and a retry whose answer cannot
   * be trusted throws ConfirmationInvalid.
   */
  confirm?: (message: string) => Promise<boolean>;
  /**
   * What the client holds of the tool list (hot reload, reload/): its session's view. A call of
   * a tool that a reload removed or broke since then gets a "tool changed" result instead.
   */
  catalog?: CatalogSession;
  /** The catalogVersion the call's `_meta` says the client holds (over the session's). */
  catalogVersion?: string;
  /** A program's call (code mode): the whole answer, not cut to the result budget. */
  wholeAnswer?: boolean;
  /**
   * A program's call (code mode): the most bytes of answer the program may still be handed.
   * The upstream body is not read past them: a larger answer would be withheld anyway, and
   * reading, parsing and copying it would hold the main thread every session shares. Such an
   * answer is an error result of category program_limit saying `message`.
   */
  answerLimit?: { bytes: number; message: string };
  /**
   * The mode's way to shape and continue results (discovery and code mode; tools mode uses the
   * reserved arguments `_fields` and `_continue`, results/result-arguments.ts).
   */
  results?: ResultRequest;
  /**
   * Aborted when the client cancels the request (notifications/cancelled, or its HTTP response
   * stream closed): the upstream request, its retries and its wait for a slot stop, and a
   * program in code mode is stopped.
   */
  signal?: AbortSignal;
  /**
   * The caller waits for a long-running operation the API accepts (a task's background run):
   * the call polls its status within the poll budget and answers with its end (tasks/).
   */
  operation?: Omit<OperationWait, "budget">;
  /** The client asked for progress (`_meta.progressToken`): how much is done, in words too. */
  progress?: (done: number, message: string) => void;
  /**
   * The W3C trace context of the request's `_meta`, validated (request/trace-context.ts): sent
   * upstream with every API request of the call (a program's too) and named in its audit line.
   */
  trace?: TraceContext;
  /**
   * The caller the bridge's OAuth front door verified (transport/oauth/): its subject is the
   * audit line's, and an operation its token's scopes do not cover is refused before anything
   * is sent (a program's call too).
   */
  caller?: CallerAccess;
  /**
   * The client renders MCP Apps views (apps/ui-extension.ts): a list answer's result carries
   * the paging facts the result view reads (apps/result-view.ts: toPageFacts).
   */
  views?: boolean;
}

/**
 * One MCP session's view of the tool list: the catalog generation of its last tools/list (or
 * describe_operations), set by the runtime that serves it; at first, the generation it started at.
 */
export interface CatalogSession {
  listed?: number;
}

/**
 * Hooks around one tool's call. `beforeCall` gets the validated (and coerced) arguments and
 * returns the arguments to send; `afterCall` gets the result of the call (a success or an
 * upstream error, not an argument validation failure) and returns the result to give back.
 * Secrets are redacted after `afterCall`. A hook that throws gives an `isError` result.
 */
export interface ToolHooks<Args extends object = Record<string, unknown>> {
  beforeCall?(args: Args): Args | Promise<Args>;
  afterCall?(result: CallToolResult, args: Args): CallToolResult | Promise<CallToolResult>;
}

/** What clients see of the operations (tool-surface.ts), its defaults applied. */
export interface ResolvedSurfaceOptions {
  mode: RequestedMode;
  /** Characters of text in one result; Infinity for no limit (`maxResultChars: 0`). */
  maxTextChars: number;
  code: SandboxLimits;
  pageBytes: number;
}

/** BridgeOptions with every default applied, once (resolveBridgeOptions). */
export interface ResolvedBridgeOptions extends ResolvedSurfaceOptions {
  /** The HTTP limits, retries, breaker, concurrency limit and dispatcher of the API's connection. */
  connection: ConnectionOptions;
  env: Record<string, string | undefined>;
  /** How long the bridge follows a long-running operation itself. */
  operations: PollBudget;
}

/** The surface's options, defaults applied: one API's runtime and `serve`'s router of several. */
export function resolveSurfaceOptions(
  options: Pick<BridgeOptions, "mode" | "maxResultChars" | "code" | "pageBytes">,
): ResolvedSurfaceOptions {
  return {
    mode: options.mode ?? DEFAULT_MODE,
    maxTextChars: toMaxTextChars(options.maxResultChars),
    code: resolveSandboxLimits(options.code),
    pageBytes: options.pageBytes ?? DEFAULT_PAGE_BYTES,
  };
}

/** The one place a bridge runtime's defaults are applied. */
export function resolveBridgeOptions(options: BridgeOptions): ResolvedBridgeOptions {
  return {
    connection: {
      http: resolveHttpOptions({
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
      }),
      upstream: resolveUpstreamOptions({
        ...(options.retry !== undefined ? { retry: options.retry } : {}),
        ...(options.circuitBreaker !== undefined ? { circuitBreaker: options.circuitBreaker } : {}),
        ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
      }),
      ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
    },
    ...resolveSurfaceOptions(options),
    env: options.env ?? process.env,
    operations: resolvePollBudget(options.operations),
  };
}

/** Characters of text in one result: `maxResultChars`, 0 for no limit. */
function toMaxTextChars(maxResultChars: number | undefined): number {
  return maxResultChars === 0 ? Number.POSITIVE_INFINITY : (maxResultChars ?? DEFAULT_MAX_RESULT_CHARS);
}
