/**
 * One MCP server (the SDK's low-level Server) per connection, session or (2026-07-28, and
 * stateless HTTP) request: tools/list and tools/call handlers over a bridge runtime that all of
 * them share, and how the user is asked to confirm a destructive call: an elicitation/create
 * request on 2025-era connections; on the 2026-07-28 wire, which has no server-to-client
 * requests, an input-required result and the client's retry (confirm-rounds.ts).
 */
import { randomUUID } from "node:crypto";
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type jsonSchemaValidator,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { isDeeperThan, MAX_JSON_DEPTH } from "../../model/json-depth.js";
import type { BridgeModel } from "../../model/types.js";
import { type CallerAccess, type CallerSource, findServedTool, mayCall } from "../access/caller.js";
import { withResultViews } from "../apps/result-view.js";
import { requestRendersViews } from "../apps/ui-extension.js";
import type { BridgeOptions, CallContext, CatalogSession } from "../engine/bridge-options.js";
import { createBridgeRuntime, type ListedTools, type ToolRuntime } from "../engine/bridge-runtime.js";
import { readTraceContext } from "../request/trace-context.js";
import { installResourceHandlers, RESOURCES_CAPABILITY } from "../resources/resource-handlers.js";
import { ERROR_META_KEY, toErrorResult } from "../results/error-result.js";
import { readLoginFacts } from "../results/login-request.js";
import {
  markTaskSupport,
  registerTaskHandlers,
  runAsTask,
  taskCapabilities,
  taskOwnerOf,
} from "../tasks/task-server.js";
import { getTelemetry } from "../telemetry/telemetry.js";
import type { McpRequestFacts } from "../telemetry/telemetry-hooks.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import { type ListCacheHint, resolveListCacheHint, toCacheHints } from "./cache-hints.js";
import {
  type ConfirmRound,
  startConfirmRound,
  toConfirmationForm,
  toConfirmationRequest,
} from "./confirm-rounds.js";
import { type ConfirmStates, getProcessConfirmStates, type VerifiedState } from "./confirm-state.js";
import { canOpenUrl, toLoginInputRequest, toUrlElicitationError } from "./login-prompt.js";
import { readMetaValue, toLegacyListing, withLegacyMeta } from "./meta-keys.js";
import { type ServedRuntime, serveRuntime, toServedRuntime } from "./served-runtime.js";
import { describeServer } from "./server-instructions.js";
import { CATALOG_META_KEY } from "./tool-contracts.js";

/** What the servers of one transport share beyond the runtime. */
export interface ServerSetup {
  /**
   * Signs and checks the confirmation state of the 2026-07-28 wire; share one between every
   * server of a process (and its key between replicas). Default: this process's, random key.
   */
  confirmStates?: ConfirmStates;
  /** The list answers' cache hint (cache-hints.ts); default: private, as who may list is unknown here. */
  listCache?: ListCacheHint;
  /**
   * The caller of a request the transport verified (the OAuth front door, transport/oauth/):
   * tools/list shows only what its token may call, and calls carry it (audit identity, scopes).
   */
  callers?: CallerSource;
  /**
   * Aborts this server's calls besides the client's own cancel: a 2025-era cancel on
   * `--stateless` HTTP arrives on another request (transport/stateless-cancel.ts).
   */
  cancelSignal?: AbortSignal;
}

/**
 * An MCP Server for one connection (session); share one runtime between many. Given a model,
 * the server makes its own runtime (with `options`) and closes it when the session closes.
 * `listCache` is the list answers' cache hint (server/cache-hints.ts; the transports give it):
 * without it, a runtime that may reload gets the short TTL, and the scope is private, since who
 * may reach the server is not known here.
 */
export function createBridgeServer(
  source: BridgeModel | ToolRuntime | ServedRuntime,
  options: BridgeOptions = {},
  setup: ServerSetup = {},
): Server {
  const states = setup.confirmStates ?? getProcessConfirmStates();
  const ownsRuntime = isModel(source);
  const runtime = ownsRuntime ? serveRuntime(createBridgeRuntime(source, options)) : toServedRuntime(source);
  const { model } = runtime;
  const server = new Server(
    { name: BRIDGE_NAME, version: BRIDGE_VERSION, title: model.info.title },
    {
      // Tasks: long-running operations run on in the background (tasks/task-server.ts).
      capabilities: { tools: { listChanged: true }, resources: RESOURCES_CAPABILITY, ...taskCapabilities() },
      instructions: describeServer(runtime),
      jsonSchemaValidator: ELICITATION_VALIDATOR,
      cacheHints: toCacheHints(
        setup.listCache ??
          resolveListCacheHint({ reloads: runtime.onToolsChanged !== undefined, accessControlled: true }),
      ),
      // Checked before the handler sees it; a bad state is refused by the call (confirm-rounds.ts).
      requestState: { verify: (state, ctx) => states.verify(state, ctx) },
    },
  );
  // What this session last listed (hot reload, serve/reload/live-runtime.ts): at first, what it started with.
  const session: CatalogSession = { listed: runtime.contracts.generation };
  // The SDK types a result as an open record; the listed page is copied as it is (same keys, same order).
  // 2025-era requests carry no envelope: they get the `_meta` keys they always had (meta-keys.ts).
  // Files results link to and the result view (resources/, apps/).
  installResourceHandlers(server, {
    views: true,
    headersOf: (ctx) => (ctx.http?.req ? headerRecord(ctx.http.req.headers) : undefined),
  });
  const rendersViews = (ctx: ServerContext) =>
    requestRendersViews(
      ctx.mcpReq.envelope as Record<string, unknown> | undefined,
      server.getClientCapabilities(),
    );
  server.setRequestHandler("tools/list", (request, ctx) => {
    const caller = setup.callers?.callerOf(ctx.http?.authInfo);
    // Its span (telemetry/; a no-op while telemetry is off): the client's trace, if it sent one.
    const facts = requestFacts(server, ctx.http !== undefined, "tools/list");
    const traced = getTelemetry().traceRequest(facts, readTraceContext(ctx.mcpReq._meta), async () => {
      const page = withoutForbidden(runtime, runtime.listTools(request.params?.cursor, session), caller);
      return rendersViews(ctx) ? withResultViews(page, (name) => findServedTool(runtime.model, name)) : page;
    });
    return traced.then((page) => ({
      ...(ctx.mcpReq.envelope === undefined ? toLegacyListing(markTaskSupport(page, model)) : page),
    }));
  });
  const connection = randomUUID();
  const ownerOf = (ctx: ServerContext) =>
    taskOwnerOf(ctx, { subject: setup.callers?.callerOf(ctx.http?.authInfo)?.subject, connection });
  registerTaskHandlers(server, ownerOf);
  const confirm = async (message: string): Promise<boolean> => {
    const answer = await server.elicitInput(toConfirmationForm(message));
    return answer.action === "accept" && answer.content?.confirm === true;
  };
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const meta = { ...ctx.mcpReq._meta, ...request.params._meta };
    const held = readMetaValue(meta, CATALOG_META_KEY) as { catalogVersion?: unknown } | undefined;
    const trace = readTraceContext(meta);
    const progressToken = request.params._meta?.progressToken ?? ctx.mcpReq._meta?.progressToken;
    // The client asked for progress: long work (a program's API calls) says how far it got.
    const progress =
      progressToken === undefined
        ? undefined
        : (done: number, message: string) =>
            void ctx.mcpReq
              .notify({
                method: "notifications/progress",
                params: { progressToken, progress: done, message },
              })
              .catch(() => {});
    const httpRequest = ctx.http?.req;
    const caller = setup.callers?.callerOf(ctx.http?.authInfo);
    const { name, arguments: args } = request.params;
    // 2026-07-28: the answer to a question comes with the client's retry of the call.
    const modern = isModernEra(server);
    const round = modern
      ? startModernRound(ctx, { states, tool: name, args, subject: caller?.subject })
      : undefined;
    const ask = modern
      ? round?.confirm
      : server.getClientCapabilities()?.elicitation?.form
        ? confirm
        : undefined;
    // The request's span (telemetry/) is the parent of what the call does; off, `traced` is `trace`.
    const facts = requestFacts(server, httpRequest !== undefined, "tools/call", name);
    // A call the client runs as a task is answered with the task (its span ends with the answer).
    let created: unknown;
    const result = await getTelemetry().traceRequest(facts, trace, async (traced) => {
      const context: CallContext = {
        ...(progress ? { progress } : {}),
        ...(ctx.sessionId !== undefined ? { session: ctx.sessionId } : {}),
        signal:
          setup.cancelSignal === undefined
            ? ctx.mcpReq.signal
            : AbortSignal.any([ctx.mcpReq.signal, setup.cancelSignal]),
        ...(ask ? { confirm: ask } : {}),
        // A client may say which tool list it holds (stateless HTTP has no session to remember it).
        catalog: session,
        ...(typeof held?.catalogVersion === "string" ? { catalogVersion: held.catalogVersion } : {}),
        ...(traced !== undefined ? { trace: traced } : {}),
        ...(caller !== undefined ? { caller } : {}),
        ...(rendersViews(ctx) ? { views: true } : {}),
      };
      if (httpRequest) readHeadersLazily(context, httpRequest.headers);
      // A long-running call as a task, when the client negotiated tasks (tasks/task-server.ts).
      const tasked = await runAsTask({
        params: request.params,
        ctx,
        modern,
        owner: ownerOf(ctx),
        run: (extra) => runtime.callTool(name, args, { ...context, ...extra }),
      });
      if (tasked !== undefined && "created" in tasked) {
        created = tasked.created;
        return tasked.created as CallToolResult;
      }
      return tasked?.result ?? (await runtime.callTool(name, args, context));
    });
    if (created !== undefined) return created as CallToolResult;
    const question = round?.asked();
    if (question !== undefined && categoryOf(result) === "confirmation_pending") {
      return toConfirmationRequest(states, name, args, question, caller?.subject);
    }
    // A sign-in to the API the user must make first: shown by the client, not through the model.
    const login = readLoginFacts(result);
    if (login !== undefined) {
      if (modern && canOpenUrl(clientCapabilitiesOf(ctx))) return toLoginInputRequest(login);
      if (!modern && canOpenUrl(server.getClientCapabilities())) throw toUrlElicitationError(login);
    }
    return answerable(name, ctx.mcpReq.envelope === undefined ? withLegacyMeta(result) : result);
  });
  // A reload that changes the tools tells every session (the capability says it may).
  const unsubscribe = runtime.onToolsChanged?.(() => {
    void server.sendToolListChanged().catch(() => {});
  });
  const close = server.onclose;
  server.onclose = () => {
    close?.();
    unsubscribe?.();
    if (ownsRuntime) void runtime.close();
  };
  return server;
}

/**
 * Whether this server answers a 2026-07-28 request (the era is the instance's: a 2025-era
 * initialize binds it to that era, the SDK's 2026 entry points to this one).
 */
function isModernEra(server: Server): boolean {
  return (server.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28";
}

/**
 * The confirmation round of a 2026-07-28 call, when the request says its client can show a
 * form (its per-request capabilities); undefined otherwise, and the call is refused as before.
 */
function startModernRound(
  ctx: ServerContext,
  call: { states: ConfirmStates; tool: string; args: unknown; subject: string | undefined },
): ConfirmRound | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (!canShowForm(capabilities)) return undefined;
  return startConfirmRound({
    ...call,
    state: ctx.mcpReq.requestState<VerifiedState>(),
    responses: ctx.mcpReq.inputResponses,
  });
}

/** The capabilities a 2026-07-28 request declares in its envelope. */
function clientCapabilitiesOf(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** Form elicitation: declared as `form`, or as an empty `elicitation` (form is then implied). */
function canShowForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (elicitation === undefined) return false;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}

/** The error category of a result (results/error-result.ts), if it has one. */
function categoryOf(result: CallToolResult): unknown {
  return (result._meta?.[ERROR_META_KEY] as { category?: unknown } | undefined)?.category;
}

/**
 * What the SDK checks an elicitation's answer with: its default Ajv, made on the first
 * elicitation and shared by every session. Left to itself, the SDK builds a new Ajv (formats
 * included) for every Server, so every session of an HTTP bridge, and every start, paid for one
 * that only a destructive call's confirmation uses.
 */
let elicitationAjv: AjvJsonSchemaValidator | undefined;
const ELICITATION_VALIDATOR: jsonSchemaValidator = {
  getValidator(schema) {
    elicitationAjv ??= new AjvJsonSchemaValidator();
    return elicitationAjv.getValidator(schema);
  },
};

/**
 * Every call gets exactly one answer: a result the transport cannot serialise (nested deeper
 * than the stack allows, or cyclic, e.g. from an afterCall hook) would fail in the transport,
 * after this handler, and the client would wait for nothing.
 */
function answerable(name: string, result: CallToolResult): CallToolResult {
  if (!isDeeperThan(result, MAX_JSON_DEPTH + 32)) return result;
  return toErrorResult(
    `The result of ${name} nests too deeply (or refers to itself) to be sent; the bridge cannot pass it on. ` +
      "Tell the user; if the tool has an afterCall hook, it should return plain JSON.",
    "unexpected_response",
  );
}

/**
 * `headers` of a call's context, copied from the request when first read: only pass-through
 * credentials read them, and a copy of every header cost about 1% of a call at saturation.
 * (A spread of the context reads it, and copies the record made then.)
 */
function readHeadersLazily(context: CallContext, headers: Headers): void {
  let record: Record<string, string> | undefined;
  Object.defineProperty(context, "headers", {
    get: () => {
      record ??= headerRecord(headers);
      return record;
    },
    enumerable: true,
    configurable: true,
  });
}

/** The request's HTTP headers as the runtime reads them (lower-case names; repeated ones joined). */
function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/**
 * A page without the operations the caller's token may not call (the mode tools of discovery
 * and code mode are not operations: they stay, and their search finds only what it may call).
 * The page keeps its cursor: a shorter page is still a page.
 */
function withoutForbidden(
  runtime: ServedRuntime,
  page: ListedTools,
  caller: CallerAccess | undefined,
): ListedTools {
  if (caller === undefined) return page;
  const tools = page.tools.filter((tool) => {
    const node = findServedTool(runtime.model, tool.name);
    return node === undefined || mayCall(caller, node);
  });
  return tools.length === page.tools.length ? page : { ...page, tools };
}

/** What a request's span says of it. */
function requestFacts(server: Server, http: boolean, method: string, tool?: string): McpRequestFacts {
  const version = server.getNegotiatedProtocolVersion();
  return {
    method,
    transport: http ? "http" : "stdio",
    ...(version !== undefined ? { protocolVersion: version } : {}),
    ...(tool !== undefined ? { tool } : {}),
  };
}

/** A model has no `kind`; every runtime says which it is. */
function isModel(source: BridgeModel | ToolRuntime | ServedRuntime): source is BridgeModel {
  return !("kind" in source);
}
