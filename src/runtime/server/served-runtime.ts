/**
 * The runtime as MCP sessions see it: tools/list pages with the catalog's and each tool's
 * contract facts (tool-contracts.ts), cursors that name the tool set they page through, and
 * each session's record of the tool set it last listed. A generated server and `serve` serve
 * one API's runtime (or `serve`'s router of several) through `serveRuntime`; `serve --watch`
 * serves a live runtime (serve/reload/live-runtime.ts) whose tool set a reload replaces, with
 * the same listing (listServedTools).
 */

import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { BridgeModel } from "../../model/types.js";
import type { LoginCallbacks } from "../auth/user-login/user-login.js";
import type { ModeChoice } from "../discovery/mode.js";
import type { CallContext, CatalogSession } from "../engine/bridge-options.js";
import type { ListedTools, ToolRuntime } from "../engine/bridge-runtime.js";
import { createInvalidParamsError } from "../results/protocol-error.js";
import {
  CATALOG_META_KEY,
  CONTRACT_META_KEY,
  createToolContracts,
  type ToolContracts,
} from "./tool-contracts.js";

/** What MCP servers and transports serve. */
export interface ServedRuntime {
  readonly kind: "served";
  readonly model: BridgeModel;
  readonly mode: ModeChoice;
  readonly contracts: ToolContracts;
  /** A page of tools/list; `session` learns which tool set it listed. */
  listTools(cursor: string | undefined, session?: CatalogSession): ListedTools;
  callTool(name: string, args: unknown, context?: CallContext): Promise<CallToolResult>;
  secrets(): string[];
  /** The callbacks of per-user logins to the APIs served, when any is configured. */
  readonly logins?: LoginCallbacks | undefined;
  /**
   * Calls `listener` when the tools served change (hot reload): each MCP session then sends
   * `notifications/tools/list_changed`. Returns the function that stops the calls.
   */
  onToolsChanged?(listener: () => void): () => void;
  close(): Promise<void>;
}

/** A runtime whose tool set never changes, served with its contracts. */
export function serveRuntime(runtime: ToolRuntime): ServedRuntime {
  const contracts = createToolContracts(runtime.model);
  const listing = createContractListing();
  return {
    kind: "served",
    model: runtime.model,
    mode: runtime.mode,
    contracts,
    listTools: (cursor, session) => listing.list(runtime, contracts, cursor, session),
    callTool: (name, args, context) => runtime.callTool(name, args, context),
    secrets: () => runtime.secrets(),
    ...(runtime.logins !== undefined ? { logins: runtime.logins } : {}),
    close: () => runtime.close(),
  };
}

/** A runtime as given, or a ToolRuntime served as it is (serveRuntime). */
export function toServedRuntime(runtime: ToolRuntime | ServedRuntime): ServedRuntime {
  return runtime.kind === "served" ? (runtime as ServedRuntime) : serveRuntime(runtime as ToolRuntime);
}

export interface ContractListing {
  /** A page of `runtime`'s tools with `contracts`' facts; cursors carry the generation. */
  list(
    runtime: ToolRuntime,
    contracts: ToolContracts,
    cursor: string | undefined,
    session?: CatalogSession,
  ): ListedTools;
  /** Forgets the tools decorated so far (a new tool set is served). */
  reset(): void;
}

/** tools/list with contracts; each listed tool is decorated once per tool set. */
export function createContractListing(): ContractListing {
  let decorated = new Map<Tool, Tool>();
  const decorate = (tool: Tool, contracts: ToolContracts): Tool => {
    let withMeta = decorated.get(tool);
    if (withMeta === undefined) {
      withMeta = { ...tool, _meta: { ...tool._meta, [CONTRACT_META_KEY]: contracts.contractOf(tool) } };
      decorated.set(tool, withMeta);
    }
    return withMeta;
  };
  return {
    list(runtime, contracts, cursor, session) {
      const { generation } = contracts;
      const page = runtime.listTools(cursor === undefined ? undefined : unwrapCursor(cursor, generation));
      if (session !== undefined) session.listed = generation;
      return {
        tools: page.tools.map((tool) => decorate(tool, contracts)),
        ...(page.nextCursor !== undefined ? { nextCursor: wrapCursor(page.nextCursor, generation) } : {}),
        _meta: { ...page._meta, [CATALOG_META_KEY]: { catalogVersion: contracts.catalogVersion } },
      };
    },
    reset() {
      decorated = new Map();
    },
  };
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
