/**
 * The runtime a bridge serves, whose tool set a reload can replace while it runs. A swap is
 * one assignment: a call in flight finishes on the runtime it started on (its model, its
 * validators), every call after it goes to the new one. Every tools/list carries the catalog's
 * version in `_meta` and every tool its contract version and digest (catalog-tracker.ts), so a
 * client or host can tell what it holds; cursors name the tool set they page through.
 *
 * Clients need not list again after `notifications/tools/list_changed` (many do not), so a
 * call is checked against what its client last listed: a tool that a reload removed or broke
 * since then gets an `isError` result saying the tool changed and to list the tools again,
 * and nothing is sent to the API. A tool changed only compatibly (a new optional argument, a
 * reworded description) is called as usual: the old arguments still mean what they meant.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../../model/records.js";
import type { AuditLog } from "../../runtime/audit/audit-log.js";
import { createCallAuditor } from "../../runtime/audit/audited-call.js";
import { CALL_TOOL, DESCRIBE_TOOL } from "../../runtime/discovery/discovery-tools.js";
import type { CallContext, CatalogSession } from "../../runtime/engine/bridge-options.js";
import type { BridgeRuntime, ListedTools } from "../../runtime/engine/bridge-runtime.js";
import { toErrorResult } from "../../runtime/results/error-result.js";
import { createInvalidParamsError } from "../../runtime/results/protocol-error.js";
import {
  CATALOG_META_KEY,
  type CatalogStep,
  type CatalogTracker,
  CONTRACT_META_KEY,
  createCatalogTracker,
  type StaleTool,
} from "./catalog-tracker.js";

export interface LiveRuntime extends BridgeRuntime {
  /** The runtime serving new calls now. */
  readonly current: BridgeRuntime;
  readonly catalog: CatalogTracker;
  /**
   * Serves `next` from now on and tells every session when the tool set changed. The runtime
   * it replaces is returned, still working: calls in flight on it finish there, and `drained`
   * resolves once they have (then what it alone holds, a code-mode sandbox, may be closed).
   */
  swap(next: BridgeRuntime): { step: CatalogStep; replaced: BridgeRuntime; drained: Promise<void> };
}

export interface LiveRuntimeOptions {
  /** Where a refused stale call is written (as any call is). */
  audit?: AuditLog;
}

export function createLiveRuntime(initial: BridgeRuntime, options: LiveRuntimeOptions = {}): LiveRuntime {
  let current = initial;
  const catalog = createCatalogTracker(initial.model);
  const listeners = new Set<() => void>();
  /** Calls in flight on each runtime, and the waiters for a replaced one to have none. */
  const inFlight = new Map<BridgeRuntime, number>();
  const drainWaiters = new Map<BridgeRuntime, () => void>();
  const settle = (runtime: BridgeRuntime) => {
    const left = (inFlight.get(runtime) ?? 1) - 1;
    if (left > 0) {
      inFlight.set(runtime, left);
      return;
    }
    inFlight.delete(runtime);
    drainWaiters.get(runtime)?.();
    drainWaiters.delete(runtime);
  };
  /** Listed tools with their contract `_meta`, for the current generation. */
  let decorated = new Map<Tool, Tool>();
  const audited = createCallAuditor({
    audit: options.audit,
    schemaOf: (name) => current.model.tools.find((tool) => tool.name === name)?.inputSchema,
    secretsOf: (call) => [...current.secrets(), ...call.secrets],
  });

  const decorate = (tool: Tool): Tool => {
    let withMeta = decorated.get(tool);
    if (withMeta === undefined) {
      withMeta = { ...tool, _meta: { ...tool._meta, [CONTRACT_META_KEY]: catalog.contractOf(tool) } };
      decorated.set(tool, withMeta);
    }
    return withMeta;
  };

  const listTools = (cursor: string | undefined, session?: CatalogSession): ListedTools => {
    const generation = catalog.generation;
    const page = current.listTools(cursor === undefined ? undefined : unwrapCursor(cursor, generation));
    if (session !== undefined) session.listed = generation;
    return {
      tools: page.tools.map(decorate),
      ...(page.nextCursor !== undefined ? { nextCursor: wrapCursor(page.nextCursor, generation) } : {}),
      _meta: { ...page._meta, [CATALOG_META_KEY]: { catalogVersion: catalog.catalogVersion } },
    };
  };

  const callTool = async (
    name: string,
    args: unknown,
    context: CallContext = {},
  ): Promise<CallToolResult> => {
    const served = current;
    const generation = catalog.generation;
    const known = knownGeneration(context, catalog) ?? generation;
    const operation =
      name === CALL_TOOL && isRecord(args) && typeof args.name === "string" ? args.name : name;
    const stale = known < generation ? catalog.findStale(operation, known) : undefined;
    if (stale !== undefined) {
      return audited(operation, name === CALL_TOOL && isRecord(args) ? args.arguments : args, async () =>
        toStaleResult(stale, catalog.catalogVersion, name === CALL_TOOL),
      );
    }
    inFlight.set(served, (inFlight.get(served) ?? 0) + 1);
    let result: CallToolResult;
    try {
      result = await served.callTool(name, args, context);
    } finally {
      settle(served);
    }
    // describe_operations shows the operations' contracts as they are now: it counts as listing.
    if (name === DESCRIBE_TOOL && !result.isError && context.catalog !== undefined) {
      context.catalog.listed = Math.max(context.catalog.listed ?? 0, generation);
    }
    return result;
  };

  return {
    get current() {
      return current;
    },
    get model() {
      return current.model;
    },
    get mode() {
      return current.mode;
    },
    catalog,
    listTools,
    callTool,
    secrets: () => current.secrets(),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    swap(next) {
      const replaced = current;
      const step = catalog.advance(next.model);
      current = next;
      decorated = new Map();
      if (step.changed) for (const listener of [...listeners]) listener();
      const drained =
        replaced === next || !inFlight.has(replaced)
          ? Promise.resolve()
          : new Promise<void>((resolve) => drainWaiters.set(replaced, resolve));
      return { step, replaced, drained };
    },
    close: () => current.close(),
  };
}

/** The generation the client holds: the version its call names, else its session's. */
function knownGeneration(context: CallContext, catalog: CatalogTracker): number | undefined {
  const fromCall =
    context.catalogVersion !== undefined ? catalog.generationOf(context.catalogVersion) : undefined;
  return fromCall ?? context.catalog?.listed;
}

function toStaleResult(stale: StaleTool, catalogVersion: string, viaCall: boolean): CallToolResult {
  const what = viaCall ? `The operation ${stale.name}` : `The tool ${stale.name}`;
  const why = stale.reasons.length > 0 ? `: ${stale.reasons.slice(0, 3).join("; ")}` : "";
  const again = viaCall
    ? `Describe it again with ${DESCRIBE_TOOL} (or find its replacement with search_operations) before calling it.`
    : "List the tools again (tools/list) and call the tool as it is now described.";
  const text =
    `${what} changed since this client listed the tools: the server's API was reloaded (tool catalog ${stale.changedIn === catalogVersion ? catalogVersion : `${stale.changedIn}, now ${catalogVersion}`}) and ` +
    `${stale.removed ? "it is no longer served" : "its contract changed in a way old arguments may not fit"}${why}. ` +
    `Nothing was sent to the API. ${again}`;
  return toErrorResult(text, "tool_changed");
}

/** Cursors name the tool set (generation) they page through: `g3.<cursor>`. */
function wrapCursor(cursor: string, generation: number): string {
  return Buffer.from(`g${generation}.${cursor}`).toString("base64url");
}

function unwrapCursor(cursor: string, generation: number): string {
  const match = /^g(\d+)\.(.+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (match === null) throw createInvalidParamsError("Invalid cursor: start again without a cursor.");
  if (Number(match[1]) !== generation) {
    throw createInvalidParamsError(
      "The tool list changed since this cursor was given (notifications/tools/list_changed): list the tools again without a cursor.",
    );
  }
  return match[2]!;
}
