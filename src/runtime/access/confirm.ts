/**
 * `--destructive confirm`: the user is asked before a destructive call, through the connection's
 * confirm hook: an MCP elicitation on 2025-era connections (answered within the call), or on the
 * 2026-07-28 wire an input-required result (the hook throws ConfirmationPending: this round asks,
 * the client's retry answers; server/confirm-rounds.ts).
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { messageOf } from "../../model/error-message.js";
import { formatCount } from "../../model/format-count.js";
import type { ToolNode } from "../../model/types.js";
import type { CallState } from "../audit/audited-call.js";
import type { CallContext } from "../engine/bridge-options.js";
import { toErrorResult } from "../results/error-result.js";

/**
 * Thrown by a confirm hook that can only ask by ending this round (the 2026-07-28 wire): the
 * call becomes a `confirmation_pending` result, which the server answers with the question.
 */
export class ConfirmationPending extends Error {
  constructor() {
    super("the user is asked in another round of the call");
    this.name = "ConfirmationPending";
  }
}

/**
 * Thrown by a confirm hook given an answer it cannot believe (a confirmation state that was
 * altered, has expired, or was asked for another call): the message says which, for the model.
 */
export class ConfirmationInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfirmationInvalid";
  }
}

/**
 * Asks the user to confirm a destructive call; returns the refusal (or the pending question) to
 * give back, or undefined when the call may go ahead. `state` records for the audit line what
 * happened: asked, accepted, declined, or refused (an answer that could not be believed).
 */
export async function askConfirmation(
  tool: ToolNode,
  args: Record<string, unknown>,
  context: CallContext,
  state?: CallState,
): Promise<CallToolResult | undefined> {
  const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
  if (!context.confirm) {
    return toErrorResult(
      `Refused: ${tool.name} (${operation}) is destructive, and this bridge only runs destructive ` +
        "operations after the user confirms them (--destructive confirm), but the MCP client cannot " +
        "ask the user (it does not support elicitation). Nothing was sent. Tell the user: they can " +
        "carry it out themselves, or use a client that supports elicitation.",
      "confirmation_unavailable",
    );
  }
  const shown = neutralise(describeArguments(tool, args));
  let accepted = false;
  try {
    accepted = await context.confirm(
      `The assistant wants to run ${neutralise(tool.name)} (${neutralise(operation)}), which may change or delete data, with ${shown}. Allow it?`,
    );
  } catch (error) {
    if (error instanceof ConfirmationPending) return askLater(tool, operation, context, state);
    if (error instanceof ConfirmationInvalid) {
      if (state) state.confirmation = "refused";
      return toErrorResult(
        `Refused: ${tool.name} (${operation}) is destructive and needs the user's confirmation, but the ` +
          `answer that came with this call cannot be trusted: ${error.message}. Nothing was sent.`,
        "confirmation_invalid",
      );
    }
    return toErrorResult(
      `Refused: ${tool.name} (${operation}) is destructive and needs the user's confirmation, which ` +
        `could not be obtained (${messageOf(error)}). Nothing was sent.`,
      "confirmation_unavailable",
    );
  }
  if (state) state.confirmation = accepted ? "accepted" : "declined";
  if (accepted) return undefined;
  return toErrorResult(
    `Refused: the user did not allow ${tool.name} (${operation}). Nothing was sent. Do not retry ` +
      "unless the user asks for it.",
    "confirmation_declined",
  );
}

/**
 * The question goes out as the answer to this round. Not from a program (code mode): the
 * client's retry would run the whole program again, repeating the calls it made before this one.
 */
function askLater(
  tool: ToolNode,
  operation: string,
  context: CallContext,
  state: CallState | undefined,
): CallToolResult {
  if (context.wholeAnswer) {
    return toErrorResult(
      `Refused: ${tool.name} (${operation}) is destructive and needs the user's confirmation, which this ` +
        "client (MCP 2026-07-28) can give only between the rounds of a tool call, and a program cannot be " +
        "paused for it (a retry would run its other calls again). Nothing was sent for this call. Do not " +
        "retry it from a program; tell the user it needs their confirmation, which a client on an earlier " +
        "protocol version, or the bridge in tools or discovery mode, can ask for.",
      "confirmation_unavailable",
    );
  }
  if (state) state.confirmation = "asked";
  return toErrorResult(
    `Waiting: ${tool.name} (${operation}) is destructive and the user is asked to confirm it. Nothing was sent yet.`,
    "confirmation_pending",
  );
}

/** Characters of the arguments the question shows beyond the path and query values. */
const SHOWN_CHARS = 1000;

/**
 * The arguments as the question shows them: path and query values first, in full (they say
 * which record the call changes: `id: "PRODUCTION-DATABASE"` is never cut off behind a long
 * body, whatever order the caller sent them in), then the rest, cut at the budget saying so.
 */
export function describeArguments(tool: ToolNode, args: Record<string, unknown>): string {
  const target = new Set(
    tool.http.parameters.filter((p) => p.in === "path" || p.in === "query").map((p) => p.argument),
  );
  const entries = Object.entries(args);
  const first = entries.filter(([name]) => target.has(name));
  const text = JSON.stringify(
    Object.fromEntries([...first, ...entries.filter(([name]) => !target.has(name))]),
  );
  const budget = JSON.stringify(Object.fromEntries(first)).length + SHOWN_CHARS;
  if (text.length <= budget) return text;
  return `${text.slice(0, budget)}… (${formatCount(text.length - budget)} more characters)`;
}

/**
 * Characters that change how text reads rather than what it says: C0 and C1 controls, bidi
 * embeddings, overrides and isolates (U+202E shows `evil.exe` as `exe.live`), zero-width and
 * other invisible format characters, line and paragraph separators. In the question the user
 * answers, each is shown as its `\uXXXX` escape, so what they read is what will be sent.
 */
const DECEPTIVE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it finds
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\ufff9-\ufffb]/g;

export function neutralise(text: string): string {
  return text.replace(
    DECEPTIVE,
    (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
}
