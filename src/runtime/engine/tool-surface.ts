/**
 * What a client sees of the served operations: in tools mode each operation is a tool
 * (tools/list in pages, a call goes to the operation), in discovery mode three tools search,
 * describe and call them (discovery/), in code mode a program calls them (code/). One bridge
 * runtime puts its own operations behind it; a bridge of several APIs puts all of theirs,
 * namespaced, behind one (apis/api-router.ts), so discovery and code mode search every API and
 * reach any of its operations.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { BridgeModel, SearchIndexNode, ToolNode } from "../../model/types.js";
import { findServedTool } from "../access/caller.js";
import type { AuditedCall } from "../audit/audited-call.js";
import { type CodeMode, createCodeMode } from "../code/code-mode.js";
import { EXECUTE_TOOL, isCodeTool } from "../code/code-tools.js";
import type { SandboxLimits } from "../code/sandbox/limits.js";
import { createDiscovery, type Discovery } from "../discovery/discovery.js";
import { CALL_TOOL, isDiscoveryTool, SEARCH_TOOL } from "../discovery/discovery-tools.js";
import { chooseMode, type ModeChoice, type RequestedMode } from "../discovery/mode.js";
import { createInvalidParamsError } from "../results/protocol-error.js";
import { redactSecrets } from "../results/redact-secrets.js";
import { CONTRACT_META_BYTES } from "../server/tool-contracts.js";
import { createToolPager, decodeCursor, encodeCursor } from "../server/tool-list.js";
import type { CallContext } from "./bridge-options.js";

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
  /** Code mode: the sandbox's limits, and the characters of text in a program's result. */
  code: { limits: SandboxLimits; maxTextChars: number };
  /** Runs a call with its audit line. */
  audited: AuditedCall;
  /** Every secret to redact from a discovery tool's result. */
  secrets(): string[];
  /**
   * Calls one operation (audited there); `name` is one of `model`'s tools. A program's call
   * (code mode) has `context.wholeAnswer`.
   */
  callOperation(name: string, args: unknown, context: CallContext): Promise<CallToolResult>;
}

export interface ToolSurface {
  mode: ModeChoice;
  listTools(cursor: string | undefined): { tools: Tool[]; nextCursor?: string };
  callTool(name: string, args: unknown, context?: CallContext): Promise<CallToolResult>;
  /** Stops code mode's sandbox workers. */
  close(): Promise<void>;
}

export function createToolSurface(options: ToolSurfaceOptions): ToolSurface {
  const { model } = options;
  const mode = chooseMode(model.tools, options.mode, { clientLimit: model.clientToolLimit });
  const pager = createToolPager(model.tools, options.pageBytes, CONTRACT_META_BYTES);
  const savedIndex = options.searchIndex !== undefined ? { index: options.searchIndex } : {};
  /** A discovery or code-mode tool's own call, with its audit line and redaction. */
  const auditedModeTool = (
    name: string,
    rawArgs: unknown,
    run: () => Promise<CallToolResult>,
    subject?: string,
  ) =>
    options.audited(
      name,
      rawArgs,
      async (call) => redactSecrets(await run(), [...options.secrets(), ...call.secrets]),
      subject,
    );
  const discovery: Discovery | undefined =
    mode.mode === "discovery"
      ? createDiscovery({
          model,
          ...savedIndex,
          confirmDestructive: options.confirms,
          audited: auditedModeTool,
          callOperation: options.callOperation,
          maxTextChars: options.code.maxTextChars,
        })
      : undefined;
  const codeMode: CodeMode | undefined =
    mode.mode === "code"
      ? createCodeMode({
          model,
          ...savedIndex,
          confirmDestructive: options.confirms,
          limits: options.code.limits,
          maxTextChars: options.code.maxTextChars,
          audited: auditedModeTool,
          callOperation: (name, rawArgs, context) =>
            options.callOperation(name, rawArgs, { ...context, wholeAnswer: true }),
        })
      : undefined;

  const listTools = (cursor: string | undefined) => {
    const modeTools = discovery ?? codeMode;
    if (modeTools !== undefined) {
      if (cursor !== undefined) decodeCursor(cursor, 0); // one page: any cursor is invalid
      const tools = modeTools.listTools();
      modeTools.warm();
      return { tools };
    }
    const start = cursor === undefined ? 0 : decodeCursor(cursor, model.tools.length);
    const page = pager(start);
    return page.next < model.tools.length
      ? { tools: page.tools, nextCursor: encodeCursor(page.next) }
      : { tools: page.tools };
  };

  const callTool = (name: string, args: unknown, context: CallContext = {}): Promise<CallToolResult> => {
    if (codeMode !== undefined) {
      if (isCodeTool(name)) return codeMode.callTool(name, args, context);
      return options.audited(
        name,
        args,
        async () => {
          throw createInvalidParamsError(
            `Unknown tool: ${name}. This server is in code mode: find operations with ${SEARCH_TOOL}, call them from a program with ${EXECUTE_TOOL}.`,
          );
        },
        context.caller?.subject,
      );
    }
    if (discovery === undefined) {
      if (findServedTool(model, name) !== undefined) return options.callOperation(name, args, context);
      return options.audited(
        name,
        args,
        async () => {
          throw createInvalidParamsError(`Unknown tool: ${name}`);
        },
        context.caller?.subject,
      );
    }
    if (isDiscoveryTool(name)) return discovery.callTool(name, args, context);
    return options.audited(
      name,
      args,
      async () => {
        throw createInvalidParamsError(
          `Unknown tool: ${name}. This server is in discovery mode: find operations with ${SEARCH_TOOL}, call them with ${CALL_TOOL}.`,
        );
      },
      context.caller?.subject,
    );
  };

  return { mode, listTools, callTool, close: async () => codeMode?.close() };
}
