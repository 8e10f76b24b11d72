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
import { formatCount } from "../../model/format-count.js";
import type { BridgeModel, JsonSchema, SearchIndexNode, ToolNode } from "../../model/types.js";
import { type CallerAccess, filterCallable, findServedTool, mayCall } from "../access/caller.js";
import { findClosestOperations, showName } from "../discovery/closest.js";
import { expandPointer, fitDescribed, toPartAnswer } from "../discovery/describe-budget.js";
import { keepWithinBudget } from "../discovery/describe-result.js";
import { createArgumentCheck, createDiscovery, liftFields } from "../discovery/discovery.js";
import { DESCRIBE_TOOL, nameApi, SEARCH_TOOL, toDiscoveryContext } from "../discovery/discovery-tools.js";
import type { CallContext } from "../engine/bridge-options.js";
import { readContinuation } from "../results/continuation.js";
import { ERROR_META_KEY, type ErrorFacts, toErrorResult } from "../results/error-result.js";
import { ownerOption, sharedResultStore } from "../results/result-store.js";
import { hasBudget, type KeepOptions } from "../results/truncate.js";
import { getTelemetry } from "../telemetry/telemetry.js";
import { type ApiNames, planApiNames } from "./api-names.js";
import { type ApiErrorFacts, type ApiOutcome, toApiOutcome } from "./api-outcome.js";
import { EXECUTE_TOOL, listCodeTools } from "./code-tools.js";
import { toExecuteResult } from "./program-result.js";
import { fitAnswer, limitAnswer } from "./sandbox/call-bytes.js";
import type { ProgramHost, ProgramOutcome } from "./sandbox/engine.js";
import type { SandboxLimits } from "./sandbox/limits.js";
import { createSandboxPool, type SandboxPool } from "./sandbox/pool.js";
import { CALL_OPTIONS_MARK } from "./sandbox/prelude.js";
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

/** A call that arrives after its program ended (it is not made). */
function programEnded(name: string): ApiOutcome {
  return {
    ok: false,
    error: {
      message: `api.${showName(name)} was not called: the program had ended`,
      category: "cancelled",
      retryable: false,
    },
  };
}

/**
 * Whether a failed call reached the API. Refused before anything was sent: invalid arguments
 * (no HTTP status), an operation the bridge cannot validate, the bridge's configuration, a
 * confirmation not given, an unknown operation. Everything else may have been sent.
 */
function wasSent(error: ApiErrorFacts): boolean {
  if (error.status !== undefined) return true;
  return !NOT_SENT.has(error.category);
}

/** A failed call that made no connection to the API (results/failure.ts). */
function isUnsent(result: CallToolResult): boolean {
  const facts = result._meta?.[ERROR_META_KEY] as Partial<ErrorFacts> | undefined;
  return facts?.unsent === true;
}

const NOT_SENT = new Set([
  "invalid_argument",
  "operation_unavailable",
  "configuration",
  "confirmation_unavailable",
  "confirmation_declined",
  "confirmation_invalid",
  "confirmation_pending",
  "unknown_tool",
]);

export function createCodeMode(options: CodeModeOptions): CodeMode {
  const { model, limits } = options;
  // The methods' names are planned on first use (a search, describe or program), not at start:
  // the first tools/list does not show them (Graph beta: 22,361 names).
  let names: ApiNames | undefined;
  const getNames = () => {
    names ??= planApiNames(model.tools);
    return names;
  };
  const signatures = createSignatures((name) => getNames().methodOf(name));
  const discovery = createDiscovery({
    model,
    ...(options.index !== undefined ? { index: options.index } : {}),
    confirmDestructive: options.confirmDestructive,
    audited: options.audited,
    callOperation: options.callOperation,
    searchStyle: {
      signatureOf: (name) => signatures.signatureOf(findServedTool(model, name)!),
      next: `${DESCRIBE_TOOL} gives full declarations; ${EXECUTE_TOOL} runs a program that calls them as \`await api.<method>(args)\`, the method named in the signature.`,
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

  const unknownOperation = (name: string, caller?: CallerAccess): string => {
    const closest = findClosestOperations(name, filterCallable(model.tools, caller), discovery.getSearch());
    return (
      `api.${showName(name)} is no operation of ${nameApi(model.info.title)} served here` +
      (closest.length > 0 ? `; the closest: ${closest.join(", ")}` : "") +
      `. ${SEARCH_TOOL} finds operations by what they do.`
    );
  };

  // Described as discovery describes them (its confirmation policy and boilerplate texts).
  const describeTool = (tool: ToolNode) => discovery.describeTool(tool);

  const describe = async (args: unknown, caller: CallerAccess | undefined): Promise<CallToolResult> => {
    const checked = await check(DESCRIBE_TOOL, args);
    if ("content" in checked) return checked as CallToolResult;
    const request = checked as { names: string[]; pointer?: string };
    const asked = [...new Set(request.names)];
    // An operation the caller's token may not call is described as search finds it: not at all.
    const resolve = (name: string) => {
      const tool = getNames().resolve(name);
      return tool !== undefined && mayCall(caller, tool) ? tool : undefined;
    };
    const found = [...new Set(asked.flatMap((name) => resolve(name) ?? []))];
    const missing = asked
      .filter((name) => resolve(name) === undefined)
      .map((name) => unknownOperation(name, caller));
    if (found.length === 0) return toErrorResult(missing.join("\n"), "unknown_tool");
    if (request.pointer !== undefined) {
      if (found.length !== 1 || asked.length !== 1) {
        return toErrorResult(
          `Invalid arguments for ${DESCRIBE_TOOL}:\n- names: with a pointer, name exactly one operation`,
          "invalid_argument",
        );
      }
      const tool = found[0]!;
      const part = expandPointer(describeTool(tool), request.pointer, options.maxTextChars);
      if ("problem" in part) {
        return toErrorResult(
          `Invalid arguments for ${DESCRIBE_TOOL}:\n- pointer: ${part.problem}`,
          "invalid_argument",
        );
      }
      const structuredContent = toPartAnswer(tool.name, request.pointer, part, DESCRIBE_TOOL);
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    }
    let declaration = signatures.declarationOf(found, { confirmDestructive: options.confirmDestructive });
    if (hasBudget(options.maxTextChars) && declaration.length > options.maxTextChars) {
      declaration = summarizeDeclarations(found, declaration.length);
    }
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

  /**
   * Declarations too large for one result: each operation's one-line signature, then its
   * arguments as summarised JSON Schema (describe-budget.ts), which a pointer expands.
   */
  const summarizeDeclarations = (found: ToolNode[], fullChars: number): string => {
    const lines = found.map((tool) => signatures.signatureOf(tool));
    const head =
      `// The full declarations are ${formatCount(fullChars)} characters, more than a result may hold. ` +
      "Signatures, then each operation's arguments as summarised JSON Schema.";
    const room = options.maxTextChars - head.length - lines.join("\n").length - 10;
    const described = fitDescribed(
      found.map((tool) => describeTool(tool)),
      room,
      DESCRIBE_TOOL,
    );
    const argumentsOnly = {
      operations: described.operations.map((op) => ({ name: op.name, inputSchema: op.inputSchema })),
      ...(described.apiOptions ? { apiOptions: described.apiOptions } : {}),
      ...(described.expand ? { expand: described.expand } : {}),
    };
    return `${head}\n${lines.join("\n")}\n\n${JSON.stringify(argumentsOnly)}`;
  };

  const keepOf = (context: CallContext): KeepOptions => ({
    store: sharedResultStore,
    ...ownerOption(context),
    continueText: (handle) => `${EXECUTE_TOOL} with ${JSON.stringify({ continue: handle })}`,
  });

  const execute = async (args: unknown, context: CallContext): Promise<CallToolResult> => {
    const checked = await check(EXECUTE_TOOL, args);
    if ("content" in checked) return checked as CallToolResult;
    const request = checked as { program?: string; continue?: string };
    if (request.continue !== undefined) {
      const keep = keepOf(context);
      return readContinuation(request.continue, {
        store: keep.store,
        ...(keep.owner !== undefined ? { owner: keep.owner } : {}),
        budget: options.maxTextChars,
        continueText: keep.continueText,
      });
    }
    if (request.program === undefined) {
      return toErrorResult(
        `Invalid arguments for ${EXECUTE_TOOL}:\n- program: required: the program to run (or "continue": a cut result's handle)`,
        "invalid_argument",
      );
    }
    const source = request.program;
    const called: string[] = [];
    const refused: string[] = [];
    const unreachable: string[] = [];
    // Ends the program's calls still under way when it ends: one fired without await must not
    // outlive it (holding the upstream's concurrency slots other sessions wait for).
    const running = new AbortController();
    const signal =
      context.signal !== undefined ? AbortSignal.any([context.signal, running.signal]) : running.signal;
    let answered = 0;
    const host: ProgramHost = {
      async call(name, argsJson) {
        if (running.signal.aborted) return JSON.stringify(programEnded(name));
        const tool = getNames().resolve(name);
        let outcome: ApiOutcome;
        let sent = false;
        let unreached = false;
        try {
          if (tool === undefined) {
            outcome = {
              ok: false,
              error: {
                message: unknownOperation(name, context.caller),
                category: "unknown_tool",
                retryable: false,
              },
            };
          } else {
            const given = readProgramCall(argsJson);
            const call = liftFields(tool, given.args, given.fields);
            const result = await options.callOperation(tool.name, call.args, {
              ...context,
              signal,
              answerLimit: limitAnswer(showName(name), answered, limits),
              ...(call.fields !== undefined ? { results: { fields: call.fields } } : {}),
            });
            outcome = toApiOutcome(tool, result);
            unreached = !outcome.ok && isUnsent(result);
            sent = !outcome.ok ? wasSent(outcome.error) && !unreached : true;
          }
        } catch (error) {
          // Nothing a program calls may end the bridge: a failure the call could not turn into
          // a result (a protocol error, a bug) is the program's failed call, said in its words.
          const message = `api.${showName(name)} failed in the bridge: ${messageOf(error)}`;
          outcome = { ok: false, error: { message, category: "upstream_bug", retryable: false } };
          sent = tool !== undefined; // it may have gone out: counted as made, not as refused
        }
        (sent ? called : unreached ? unreachable : refused).push(tool?.name ?? name);
        context.progress?.(
          called.length + refused.length + unreachable.length,
          `${called.length} API call${called.length === 1 ? "" : "s"} made (last: ${showName(name)}${sent ? "" : unreached ? ", could not reach the API" : ", refused before it was sent"})`,
        );
        const fitted = fitAnswer(showName(name), JSON.stringify(outcome), answered, limits);
        answered += fitted.bytes;
        return fitted.answer;
      },
    };
    let outcome: ProgramOutcome;
    try {
      outcome = await getPool().run(source, host, {
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.session !== undefined ? { session: context.session } : {}),
      });
    } finally {
      running.abort();
    }
    // The sandbox-runs counter (telemetry/; a no-op while telemetry is off).
    getTelemetry().countSandboxRun(context.signal?.aborted ? "cancelled" : outcome.kind);
    if (context.signal?.aborted) {
      // Nobody reads it (the client cancelled): it is what the audit line records.
      return toErrorResult(
        `Cancelled: the client cancelled the program after ${called.length} API call${called.length === 1 ? "" : "s"}.`,
        "cancelled",
      );
    }
    return toExecuteResult(outcome, {
      source,
      limits,
      maxTextChars: options.maxTextChars,
      called,
      refused,
      unreachable,
      keep: keepOf(context),
    });
  };

  return {
    listTools,
    callTool(name, args, context) {
      if (name === SEARCH_TOOL) return discovery.callTool(name, args, context);
      return options.audited(
        name,
        args,
        async () =>
          name === DESCRIBE_TOOL
            ? keepWithinBudget(await describe(args, context.caller), options.maxTextChars, keepOf(context))
            : execute(args, context),
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

/** A program's call as the prelude sends it: the arguments, and the call's options if any. */
function readProgramCall(text: string): { args: unknown; fields?: unknown } {
  if (!text.startsWith(CALL_OPTIONS_MARK)) return { args: JSON.parse(text) };
  const sent = JSON.parse(text.slice(CALL_OPTIONS_MARK.length)) as { args: unknown; fields?: unknown };
  return { args: sent.args, ...(sent.fields !== undefined ? { fields: sent.fields } : {}) };
}
