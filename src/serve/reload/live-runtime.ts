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
import type { CallToolResult } from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";
import type { AuditLog } from "../../runtime/audit/audit-log.js";
import { createCallAuditor } from "../../runtime/audit/audited-call.js";
import { CALL_TOOL, DESCRIBE_TOOL } from "../../runtime/discovery/discovery-tools.js";
import type { CallContext } from "../../runtime/engine/bridge-options.js";
import type { ToolRuntime } from "../../runtime/engine/bridge-runtime.js";
import { toErrorResult } from "../../runtime/results/error-result.js";
import { createContractListing, type ServedRuntime } from "../../runtime/server/served-runtime.js";
import {
  type CatalogStep,
  type CatalogTracker,
  createCatalogTracker,
  type StaleTool,
} from "./catalog-tracker.js";

export interface LiveRuntime extends ServedRuntime {
  /** The runtime serving new calls now. */
  readonly current: ToolRuntime;
  readonly contracts: CatalogTracker;
  /**
   * Serves `next` from now on and tells every session when the tool set changed. The runtime
   * it replaces is returned, still working: calls in flight on it finish there, and `drained`
   * resolves once they have (then what it alone holds, a code-mode sandbox, may be closed).
   */
  swap(next: ToolRuntime): { step: CatalogStep; replaced: ToolRuntime; drained: Promise<void> };
}

export interface LiveRuntimeOptions {
  /** Where a refused stale call is written (as any call is). */
  audit?: AuditLog;
}

export function createLiveRuntime(initial: ToolRuntime, options: LiveRuntimeOptions = {}): LiveRuntime {
  let current = initial;
  const catalog = createCatalogTracker(initial.model);
  const listeners = new Set<() => void>();
  /** Calls in flight on each runtime, and the waiters for a replaced one to have none. */
  const inFlight = new Map<ToolRuntime, number>();
  const drainWaiters = new Map<ToolRuntime, () => void>();
  const settle = (runtime: ToolRuntime) => {
    const left = (inFlight.get(runtime) ?? 1) - 1;
    if (left > 0) {
      inFlight.set(runtime, left);
      return;
    }
    inFlight.delete(runtime);
    drainWaiters.get(runtime)?.();
    drainWaiters.delete(runtime);
  };
  const listing = createContractListing();
  const audited = createCallAuditor({
    audit: options.audit,
    schemaOf: (name) => current.model.tools.find((tool) => tool.name === name)?.inputSchema,
    secretsOf: (call) => [...current.secrets(), ...call.secrets],
  });

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
    kind: "served",
    get current() {
      return current;
    },
    get model() {
      return current.model;
    },
    get mode() {
      return current.mode;
    },
    contracts: catalog,
    listTools: (cursor, session) => listing.list(current, catalog, cursor, session),
    callTool,
    secrets: () => current.secrets(),
    // The APIs' logins as the current tool set has them (a reload keeps the configuration).
    logins: {
      paths: () => current.logins?.paths() ?? [],
      complete: async (path, query, signal) => current.logins?.complete(path, query, signal),
      signOut: async (subject) => (await current.logins?.signOut(subject)) ?? [],
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    swap(next) {
      const replaced = current;
      const step = catalog.advance(next.model);
      current = next;
      listing.reset();
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
