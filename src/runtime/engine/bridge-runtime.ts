/**
 * The runtime of one API, shared by every session: its context (api-context.ts: tools,
 * options with their defaults, credentials, connection) and what clients see of it
 * (tool-surface.ts: tools, discovery or code mode), whose operations are called through the
 * pipeline of call-pipeline.ts with an audit line each.
 */

import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { BridgeModel } from "../../model/types.js";
import { createCallAuditor } from "../audit/audited-call.js";
import type { LoginCallbacks } from "../auth/user-login/user-login.js";
import { checkBridgeOptions, reportWarnings } from "../config/check-bridge-options.js";
import type { ModeChoice } from "../discovery/mode.js";
import { getTelemetry } from "../telemetry/telemetry.js";
import type { ApiConnection } from "../upstream/connection.js";
import { createApiContext } from "./api-context.js";
import type { BridgeOptions, CallContext } from "./bridge-options.js";
import { callOperation } from "./call-pipeline.js";
import { createToolSurface } from "./tool-surface.js";

/**
 * What serves tools to clients: tools/list pages and tools/call. One API's runtime
 * (`kind: "api"`), or in `serve`, a router of several APIs (`kind: "router"`, serve/apis/).
 */
export interface ToolRuntime {
  readonly kind: "api" | "router";
  /** The model served: the selected tools only (with several APIs, all of them, namespaced). */
  readonly model: BridgeModel;
  /** The mode served (tools, discovery or code), what was asked for and why (discovery/mode.ts). */
  readonly mode: ModeChoice;
  /** A page of tools/list (the tools as they are; server/served-runtime.ts adds contracts). */
  listTools(cursor: string | undefined): ListedTools;
  callTool(name: string, args: unknown, context?: CallContext): Promise<CallToolResult>;
  /** Every configured or fetched secret so far, in every form (for redaction). */
  secrets(): string[];
  /** The callbacks of the APIs' per-user logins (auth/user-login/), when any is configured. */
  readonly logins?: LoginCallbacks | undefined;
  close(): Promise<void>;
}

/** The runtime of one API. */
export interface BridgeRuntime extends ToolRuntime {
  readonly kind: "api";
}

/** A page of tools/list; `_meta` carries what the catalog is (server/served-runtime.ts). */
export interface ListedTools {
  tools: Tool[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

/**
 * The runtime of one API, its options first checked as the CLI's are at start
 * (config/check-bridge-options.ts): a bad one throws a BridgeError, warnings go to
 * `options.onWarning`. `connection` (the pool, circuit breaker and concurrency limit) is made
 * for it unless given: hot reload gives each version of an API's tools the same one.
 */
export function createBridgeRuntime(
  fullModel: BridgeModel,
  options: BridgeOptions = {},
  connection?: ApiConnection,
): BridgeRuntime {
  reportWarnings(options, checkBridgeOptions(fullModel, options));
  return assembleBridgeRuntime(fullModel, options, connection);
}

/**
 * createBridgeRuntime without the start checks: for options made from settings that
 * config/prepare-api.ts checked already (serve, a generated server, a reload).
 */
export function assembleBridgeRuntime(
  fullModel: BridgeModel,
  options: BridgeOptions = {},
  connection?: ApiConnection,
): BridgeRuntime {
  const api = createApiContext(fullModel, options, connection);
  const { model, resolved } = api;
  /** Everything that must never be shown: configured and fetched secrets, and the call's own. */
  const audited = createCallAuditor({
    audit: options.audit,
    schemaOf: (name) => api.toolOf(name)?.inputSchema,
    secretsOf: (call) => [...api.secrets(), ...call.secrets],
    ...(options.apiName !== undefined ? { api: options.apiName } : {}),
  });
  const surface = createToolSurface({
    model,
    mode: resolved.mode,
    pageBytes: resolved.pageBytes,
    // A saved index may cover tools a selection dropped, or tools since changed (credential
    // parameters taken out): its reader uses a tool's saved terms only while the tool still
    // hashes as they were made, and searches only the tools given (search/saved-index.ts), so it
    // serves any model made from this one. GitHub's saved model (a tool changed here) had every
    // tool tokenized again, reading every schema, for its first search.
    ...(fullModel.searchIndex !== undefined ? { searchIndex: fullModel.searchIndex } : {}),
    confirms: () => api.confirmDestructive,
    code: { limits: resolved.code, maxTextChars: resolved.maxTextChars },
    audited,
    secrets: api.secrets,
    // An operation's call, as its own tool gets it in tools mode (a program's: the whole answer).
    // Its span and metrics (telemetry/; no-ops while telemetry is off) around the audited call.
    callOperation: (name, rawArgs, context) =>
      getTelemetry().traceToolCall(
        { tool: name, mode: modeOf(context, surface.mode.mode) },
        context.trace,
        (trace) =>
          audited(name, rawArgs, (state) =>
            callOperation(
              api,
              name,
              rawArgs,
              trace === context.trace ? context : { ...context, trace },
              state,
            ),
          ),
      ),
  });
  return {
    kind: "api",
    model,
    mode: surface.mode,
    listTools: surface.listTools,
    callTool: surface.callTool,
    secrets: api.secrets,
    ...(api.credentials.loginPaths().length > 0
      ? {
          logins: {
            paths: () => api.credentials.loginPaths(),
            complete: (path, query, signal) => api.credentials.completeLogin(path, query, signal),
            signOut: (subject) => api.credentials.signOut(subject),
          } satisfies LoginCallbacks,
        }
      : {}),
    close: async () => {
      await surface.close();
      if (api.ownsConnection) await api.connection.close();
    },
  };
}

/**
 * The mode a call came through: a program's call (code mode) or discovery's call_operation say
 * so in their context; a bridge of several APIs serves each API's runtime in tools mode behind
 * its own mode tools, so the runtime's own mode is only the answer for its own tools.
 */
function modeOf(context: CallContext, own: string): string {
  if (context.wholeAnswer === true) return "code";
  if (context.results !== undefined) return "discovery";
  return own;
}
