/**
 * What a client sees of the served operations: in tools mode each operation is a tool
 * (tools/list in pages, a call goes to the operation), in discovery mode three tools search,
 * describe and call them (discovery/). One bridge runtime puts its own operations behind it;
 * a bridge of several APIs puts all of theirs, namespaced, behind one (apis/api-router.ts), so
 * discovery searches every API and call_operation reaches any of them.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { BridgeModel, SearchIndexNode, ToolNode } from "../model/types.js";
import type { AuditedCall } from "./audit/audited-call.js";
import type { CallContext } from "./bridge-options.js";
import { createDiscovery, type Discovery } from "./discovery/discovery.js";
import { CALL_TOOL, isDiscoveryTool, SEARCH_TOOL } from "./discovery/discovery-tools.js";
import { chooseMode, type ModeChoice, type RequestedMode } from "./discovery/mode.js";
import { createInvalidParamsError } from "./protocol-error.js";
import { CONTRACT_META_BYTES } from "./reload/catalog-tracker.js";
import { redactSecrets } from "./results/redact-secrets.js";
import { createToolPager, decodeCursor, encodeCursor } from "./tool-list.js";

export interface ToolSurfaceOptions {
  /** The operations served: selection applied, named as clients call them. */
  model: BridgeModel;
  mode: RequestedMode;
  /** Serialized size of one tools/list page in bytes. */
  pageBytes: number;
  /** A saved search index that covers exactly these operations. */
  searchIndex?: SearchIndexNode;
  /** Whether the user is asked before this (destructive) operation is called. */
  confirms(tool: ToolNode): boolean;
  /** Runs a call with its audit line. */
  audited: AuditedCall;
  /** Every secret to redact from a discovery tool's result. */
  secrets(): string[];
  /** Calls one operation (audited there); `name` is one of `model`'s tools. */
  callOperation(name: string, args: unknown, context: CallContext): Promise<CallToolResult>;
}

export interface ToolSurface {
  mode: ModeChoice;
  listTools(cursor: string | undefined): { tools: Tool[]; nextCursor?: string };
  callTool(name: string, args: unknown, context?: CallContext): Promise<CallToolResult>;
}

export function createToolSurface(options: ToolSurfaceOptions): ToolSurface {
  const { model } = options;
  const mode = chooseMode(model.tools, options.mode);
  const known = new Set(model.tools.map((tool) => tool.name));
  const pager = createToolPager(model.tools, options.pageBytes, CONTRACT_META_BYTES);
  const discovery: Discovery | undefined =
    mode.mode === "discovery"
      ? createDiscovery({
          model,
          ...(options.searchIndex !== undefined ? { index: options.searchIndex } : {}),
          confirmDestructive: options.confirms,
          audited: (name, rawArgs, run) =>
            options.audited(name, rawArgs, async (call) =>
              redactSecrets(await run(), [...options.secrets(), ...call.secrets]),
            ),
          callOperation: options.callOperation,
        })
      : undefined;

  const listTools = (cursor: string | undefined) => {
    if (discovery !== undefined) {
      if (cursor !== undefined) decodeCursor(cursor, 0); // one page: any cursor is invalid
      const tools = discovery.listTools();
      discovery.warm();
      return { tools };
    }
    const start = cursor === undefined ? 0 : decodeCursor(cursor, model.tools.length);
    const page = pager(start);
    return page.next < model.tools.length
      ? { tools: page.tools, nextCursor: encodeCursor(page.next) }
      : { tools: page.tools };
  };

  const callTool = (name: string, args: unknown, context: CallContext = {}): Promise<CallToolResult> => {
    if (discovery === undefined) {
      if (known.has(name)) return options.callOperation(name, args, context);
      return options.audited(name, args, async () => {
        throw createInvalidParamsError(`Unknown tool: ${name}`);
      });
    }
    if (isDiscoveryTool(name)) return discovery.callTool(name, args, context);
    return options.audited(name, args, async () => {
      throw createInvalidParamsError(
        `Unknown tool: ${name}. This server is in discovery mode: find operations with ${SEARCH_TOOL}, call them with ${CALL_TOOL}.`,
      );
    });
  };

  return { mode, listTools, callTool };
}
