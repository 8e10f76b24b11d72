/**
 * execute's answer, from how the program ended (sandbox/engine.ts):
 * - it returned: the value as `structuredContent` (an object as it is, anything else as
 *   `{ "result": value }`) and as JSON text, cut to the result budget by the same rules as an
 *   API's answer (results/truncate.ts); console output follows as a second text;
 * - it threw, or is not valid JavaScript: an isError result with the message and the program's
 *   line (its text too); an API error it did not catch keeps that call's words and category;
 * - a limit stopped it: an isError result that names the limit, its value and the option
 *   that sets it.
 * Every error says which API calls were made before the end: their effects stand.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatBytes } from "../../model/format-bytes.js";
import { formatCount } from "../../model/format-count.js";
import { isRecord } from "../../model/records.js";
import { clip } from "../results/body-text.js";
import { ERROR_META_KEY, type ErrorCategory, type ErrorFacts } from "../results/error-result.js";
import { fitJson, type KeepOptions, TRUNCATION_META_KEY } from "../results/truncate.js";
import type { ProgramOutcome, ThrownFacts } from "./sandbox/engine.js";
import { type LimitName, SANDBOX_LIMIT_FLAGS, type SandboxLimits } from "./sandbox/limits.js";

export interface ResultContext {
  source: string;
  limits: SandboxLimits;
  /** Characters of text the result may hold (Infinity: no limit). */
  maxTextChars: number;
  /** The operations called, in order (one entry per call that reached, or may have reached, the API). */
  called: string[];
  /** The calls refused before anything was sent (invalid arguments, unknown operation...). */
  refused?: string[];
  /** The calls that could not connect to the API (nothing was sent). */
  unreachable?: string[];
  /** Where a cut return value is kept, for execute's `continue`. */
  keep?: KeepOptions;
}

/** What to do when the result is cut, instead of an operation's paging arguments. */
const RETURN_LESS =
  "Return less from the program: filter, slice or summarise the data there, or return it in parts over several executes.";

export function toExecuteResult(outcome: ProgramOutcome, context: ResultContext): CallToolResult {
  const logs = formatLogs(outcome.logs, context.maxTextChars);
  switch (outcome.kind) {
    case "returned":
      return toReturnedResult(outcome.json, logs, context);
    case "threw":
      return toThrownResult(outcome.error, logs, context, outcome.strippedTypes === true);
    case "syntax":
      return programError(
        "invalid_argument",
        `The program is not valid JavaScript: ${outcome.error.name}: ${outcome.error.message}${lineText(outcome.error, context)}. Nothing ran; fix it and execute again.`,
        logs,
      );
    case "stopped":
      return programError(
        "program_limit",
        `${describeLimit(outcome.limit, context.limits)}${describeCalls(context)}`,
        logs,
      );
    case "busy":
      return {
        isError: true,
        content: [{ type: "text", text: `The program did not run: ${outcome.message}.` }],
        _meta: { [ERROR_META_KEY]: { category: "rate_limited", retryable: true } satisfies ErrorFacts },
      };
    case "crashed":
      return programError(
        "program_error",
        `The sandbox running the program failed (${outcome.message}); the program did not finish.${describeCalls(context)}`,
        logs,
      );
  }
}

function toReturnedResult(
  json: string | undefined,
  logs: string | undefined,
  context: ResultContext,
): CallToolResult {
  const value: unknown = json === undefined ? null : JSON.parse(json);
  const text = json ?? "null";
  const budget = context.maxTextChars - (logs?.length ?? 0);
  const fitted = fitJson(value, text, {
    budget: Math.max(budget, context.maxTextChars / 2),
    continuation: RETURN_LESS,
    ...(context.keep ? { keep: context.keep } : {}),
  });
  const wrap = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : { result: v });
  const content: CallToolResult["content"] = [
    {
      type: "text",
      text:
        json === undefined
          ? "The program returned nothing (undefined): end it with `return value;` to get a result."
          : fitted.text,
    },
  ];
  if (logs !== undefined) content.push({ type: "text", text: logs });
  return {
    content,
    structuredContent: wrap(fitted.value),
    ...(fitted.truncation ? { _meta: { [TRUNCATION_META_KEY]: { ...fitted.truncation } } } : {}),
  };
}

function toThrownResult(
  error: ThrownFacts,
  logs: string | undefined,
  context: ResultContext,
  strippedTypes: boolean,
): CallToolResult {
  const at = lineText(error, context, strippedTypes);
  if (error.name === "ApiError") {
    const text =
      `The program stopped at an API error it did not catch${at}:\n${error.message}\n` +
      "To handle it, catch it in the program: the error has status, category, retryable and apiMessage." +
      describeCalls(context);
    const facts: ErrorFacts = {
      category: (error.category as ErrorCategory | undefined) ?? "program_error",
      retryable: error.retryable === true,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.apiMessage !== undefined ? { message: error.apiMessage } : {}),
    };
    return withLogs(
      { isError: true, content: [{ type: "text", text }], _meta: { [ERROR_META_KEY]: { ...facts } } },
      logs,
    );
  }
  return programError(
    "program_error",
    `The program threw ${error.name}: ${error.message}${at}.${describeCalls(context)}`,
    logs,
  );
}

function programError(category: ErrorCategory, text: string, logs: string | undefined): CallToolResult {
  const facts: ErrorFacts = { category, retryable: false };
  return withLogs(
    { isError: true, content: [{ type: "text", text }], _meta: { [ERROR_META_KEY]: { ...facts } } },
    logs,
  );
}

function withLogs(result: CallToolResult, logs: string | undefined): CallToolResult {
  return logs === undefined
    ? result
    : { ...result, content: [...result.content, { type: "text", text: logs }] };
}

/** ` at line 3 (\`const x = pets[0].id;\`)`, or nothing without a line. */
function lineText(error: ThrownFacts, context: ResultContext, strippedTypes = false): string {
  if (error.line === undefined) return "";
  const line = context.source.split("\n")[error.line - 1];
  const code = line === undefined || line.trim() === "" ? "" : ` (\`${clip(line.trim(), 120)}\`)`;
  return ` at line ${error.line}${strippedTypes ? " of the program as written" : ""}${code}`;
}

/**
 * ` Before it ended, the program made 2 API calls (listPets, getPetById); what they changed
 * stays changed.` A call refused before anything was sent, or that could not reach the API, is
 * no call made: it is said apart.
 */
function describeCalls(context: ResultContext): string {
  const { called } = context;
  const refused = context.refused ?? [];
  const unreachable = context.unreachable ?? [];
  // The calls that sent nothing, said apart from those made.
  const refusedText =
    (refused.length === 0
      ? ""
      : ` ${refused.length === 1 ? "1 call was" : `${formatCount(refused.length)} calls were`} refused before anything was sent (${listNames(refused)}).`) +
    (unreachable.length === 0
      ? ""
      : ` ${unreachable.length === 1 ? "1 call" : `${formatCount(unreachable.length)} calls`} could not reach the API, so sent nothing (${listNames(unreachable)}).`);
  if (called.length === 0) return ` The program made no API call.${refusedText}`;
  const shown = listNames(called);
  return called.length === 1
    ? ` Before it ended, the program made 1 API call (${shown}); what it changed stays changed.${refusedText}`
    : ` Before it ended, the program made ${formatCount(called.length)} API calls (${shown}); what they changed stays changed.${refusedText}`;
}

function listNames(called: string[]): string {
  const names = [...new Set(called)];
  return names.slice(0, 8).join(", ") + (names.length > 8 ? `, and ${names.length - 8} more` : "");
}

const flag = (limit: keyof SandboxLimits) => `--${SANDBOX_LIMIT_FLAGS[limit]}`;

/** The limit, what it is and the option that sets it, and what to do. */
export function describeLimit(limit: LimitName, limits: SandboxLimits): string {
  switch (limit) {
    case "time":
      return `Stopped at the wall-time limit: the program ran for ${formatCount(limits.timeoutMs)} ms, as long as one execute may (${flag("timeoutMs")}). Make it do less per execute (fewer calls, less computing) or split the work.`;
    case "memory":
      return `Stopped at the memory limit: the program needed more than the ${formatBytes(limits.memoryBytes)} its sandbox may use (${flag("memoryBytes")}). Keep less data at once: fetch in pages and keep only what is needed.`;
    case "stack":
      return `Stopped at the stack limit: the program's calls nested deeper than its ${formatBytes(limits.maxStackBytes)} stack allows (${flag("maxStackBytes")}). Use a loop instead of deep recursion.`;
    case "calls":
      return `Stopped at the API call limit: the program tried to make more than ${formatCount(limits.maxCalls)} API calls, as many as one execute may (${flag("maxCalls")}). Make fewer calls per execute (filter first, use list operations) or split the work over several executes.`;
    case "logs":
      return `Stopped at the console output limit: the program wrote more than ${formatCount(limits.maxLogChars)} characters with console (${flag("maxLogChars")}). Log less, and return the data instead.`;
  }
}

/** The console output as one text, cut to a fifth of the budget at most. */
function formatLogs(logs: string[], maxTextChars: number): string | undefined {
  if (logs.length === 0) return undefined;
  const text = `console output:\n${logs.join("\n")}`;
  const room = Number.isFinite(maxTextChars) ? Math.max(500, Math.floor(maxTextChars / 5)) : text.length;
  return text.length <= room
    ? text
    : `${text.slice(0, room)}\n[console output cut: ${formatCount(text.length - room)} more characters]`;
}
