/**
 * Code mode: tools/list is search_operations, describe_operations and execute (code-tools.ts).
 * The search is discovery's (discovery/discovery.ts) with a TypeScript signature on each
 * result (signatures.ts); describe gives the full declarations; execute runs the program in the
 * sandbox (sandbox/pool.ts) and hands every `api.<name>(args)` of it to the runtime's own call
 * pipeline, the one each operation's tool goes through in tools mode: same validation, access
 * control (only the selected operations exist), confirmation of destructive calls (asked of
 * the user of the session that runs the program), credentials, resilience, redaction and audit
 * line per call. The execute itself gets one audit line more.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import { messageOf } from "../../model/error-message.js";
import type { BridgeModel, JsonSchema, SearchIndexNode, ToolNode } from "../../model/types.js";
import { findClosestOperations, showName } from "../discovery/closest.js";
import { createArgumentCheck, createDiscovery } from "../discovery/discovery.js";
import { DESCRIBE_TOOL, nameApi, SEARCH_TOOL, toDiscoveryContext } from "../discovery/discovery-tools.js";
import type { CallContext } from "../engine/bridge-options.js";
import { toErrorResult } from "../results/error-result.js";
import { type ApiOutcome, toApiOutcome } from "./api-outcome.js";
import { EXECUTE_TOOL, listCodeTools } from "./code-tools.js";
import { toExecuteResult } from "./program-result.js";
import type { ProgramHost } from "./sandbox/engine.js";
import type { SandboxLimits } from "./sandbox/limits.js";
import { createSandboxPool, type SandboxPool } from "./sandbox/pool.js";
import { createSignatures } from "./signatures.js";

export interface CodeModeOptions {
  /** The model served: its tools are the selected ones, and the only ones `api` has. */
  model: BridgeModel;
  index?: SearchIndexNode;
  /** Whether destructive operations ask the user first (a function: a policy per API). */
  confirmDestructive: boolean | ((tool: ToolNode) => boolean);
  limits: SandboxLimits;
  /** Characters of text in one result (Infinity: no limit). */
  maxTextChars: number;
  /** Runs one call of a code-mode tool with the runtime's audit line and redaction around it. */
  audited(
    name: string,
    args: unknown,
    run: () => Promise<CallToolResult>,
    subject?: string,
  ): Promise<CallToolResult>;
  /**
   * Calls an operation as its own tool is called in tools mode (audited there), for a program:
   * the whole answer, not cut to the result budget, which applies to the program's result.
   */
  callOperation(name: string, args: unknown, context: CallContext): Promise<CallToolResult>;
}

export interface CodeMode {
  listTools(): Tool[];
  callTool(name: string, args: unknown, context: CallContext): Promise<CallToolResult>;
  /** Builds the search index and starts a sandbox worker in the background. */
  warm(): void;
  close(): Promise<void>;
}

export function createCodeMode(options: CodeModeOptions): CodeMode {
  const { model, limits } = options;
  const byName = new Map<string, ToolNode>(model.tools.map((tool) => [tool.name, tool]));
  const signatures = createSignatures();
  const discovery = createDiscovery({
    model,
    ...(options.index !== undefined ? { index: options.index } : {}),
    confirmDestructive: options.confirmDestructive,
    audited: options.audited,
    callOperation: options.callOperation,
    searchStyle: {
      signatureOf: (name) => signatures.signatureOf(byName.get(name)!),
      next: `${DESCRIBE_TOOL} gives full declarations; ${EXECUTE_TOOL} runs a program that calls them as \`await api.<name>(args)\`.`,
    },
  });
  let listed: Tool[] | undefined;
  const listTools = () => {
    listed ??= listCodeTools(toDiscoveryContext(model), model.tools, limits);
    return listed;
  };
  const check = createArgumentCheck(
    (name) => listTools().find((tool) => tool.name === name)!.inputSchema as unknown as JsonSchema,
  );
  let pool: SandboxPool | undefined;
  const getPool = () => {
    pool ??= createSandboxPool({ limits });
    return pool;
  };

  const unknownOperation = (name: string): string => {
    const closest = findClosestOperations(name, model.tools, discovery.getSearch());
    return (
      `api.${showName(name)} is no operation of ${nameApi(model.info.title)} served here` +
      (closest.length > 0 ? `; the closest: ${closest.join(", ")}` : "") +
      `. ${SEARCH_TOOL} finds operations by what they do.`
    );
  };

  const describe = async (args: unknown): Promise<CallToolResult> => {
    const checked = await check(DESCRIBE_TOOL, args);
    if ("content" in checked) return checked as CallToolResult;
    const names = [...new Set((checked as { names: string[] }).names)];
    const found = names.flatMap((name) => byName.get(name) ?? []);
    const missing = names.filter((name) => !byName.has(name)).map(unknownOperation);
    if (found.length === 0) return toErrorResult(missing.join("\n"), "unknown_tool");
    const declaration = signatures.declarationOf(found, { confirmDestructive: options.confirmDestructive });
    const text = missing.length > 0 ? `${declaration}\n\n${missing.join("\n")}` : declaration;
    return {
      content: [{ type: "text", text }],
      structuredContent: {
        declaration,
        operations: found.map((tool) => tool.name),
        ...(missing.length > 0 ? { notFound: missing } : {}),
      },
    };
  };

  const execute = async (args: unknown, context: CallContext): Promise<CallToolResult> => {
    const checked = await check(EXECUTE_TOOL, args);
    if ("content" in checked) return checked as CallToolResult;
    const source = (checked as { program: string }).program;
    const called: string[] = [];
    const host: ProgramHost = {
      async call(name, argsJson) {
        called.push(name);
        const tool = byName.get(name);
        let outcome: ApiOutcome;
        try {
          outcome =
            tool === undefined
              ? {
                  ok: false,
                  error: { message: unknownOperation(name), category: "unknown_tool", retryable: false },
                }
              : toApiOutcome(tool, await options.callOperation(name, JSON.parse(argsJson), context));
        } catch (error) {
          // Nothing a program calls may end the bridge: a failure the call could not turn into
          // a result (a protocol error, a bug) is the program's failed call, said in its words.
          const message = `api.${showName(name)} failed in the bridge: ${messageOf(error)}`;
          outcome = { ok: false, error: { message, category: "upstream_bug", retryable: false } };
        }
        context.progress?.(
          called.length,
          `${called.length} API call${called.length === 1 ? "" : "s"} made (last: ${showName(name)})`,
        );
        return JSON.stringify(outcome);
      },
    };
    const outcome = await getPool().run(source, host, context.signal);
    if (context.signal?.aborted) {
      // Nobody reads it (the client cancelled): it is what the audit line records.
      return toErrorResult(
        `Cancelled: the client cancelled the program after ${called.length} API calls.`,
        "cancelled",
      );
    }
    return toExecuteResult(outcome, { source, limits, maxTextChars: options.maxTextChars, called });
  };

  return {
    listTools,
    callTool(name, args, context) {
      if (name === SEARCH_TOOL) return discovery.callTool(name, args, context);
      return options.audited(
        name,
        args,
        () => (name === DESCRIBE_TOOL ? describe(args) : execute(args, context)),
        context.caller?.subject,
      );
    },
    warm() {
      discovery.warm();
      getPool().warm();
    },
    async close() {
      await pool?.close();
    },
  };
}
