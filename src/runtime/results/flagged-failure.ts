/**
 * A 2xx answer whose success flag says it failed (Slack's `{"ok": false, "error":
 * "channel_not_found"}` with HTTP 200; compile/success-flags.ts plans the flags from the spec):
 * an error result like any status's, with the API's words, so an agent (and a program's call)
 * does not take an unsent message for a sent one.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";
import type { UpstreamResponse } from "../upstream/send.js";
import { clip, noteCutAnswer, parseJsonBody } from "./body-text.js";
import { categoryLabel, ERROR_META_KEY, type ErrorFacts } from "./error-result.js";
import { classifyStatus, findErrorMessage } from "./failure.js";
import { describeUntoldJson } from "./untold-body.js";

export interface FlaggedFailure {
  flag: string;
  /** The value a success has. */
  success: boolean;
  body: Record<string, unknown>;
}

/** The flag a 2xx JSON answer contradicts, if the operation has flags and one is. */
export function findFlaggedFailure(tool: ToolNode, response: UpstreamResponse): FlaggedFailure | undefined {
  const flags = tool.http.successFlags;
  if (flags === undefined) return undefined;
  const body = parseJsonBody(response);
  if (!isRecord(body)) return undefined;
  for (const [flag, success] of Object.entries(flags)) {
    if (body[flag] === !success) return { flag, success, body };
  }
  return undefined;
}

/**
 * The status a flagged failure reads as, by the API's error code: Slack's `ratelimited`,
 * `invalid_auth`, `missing_scope`, `channel_not_found`; anything else is the arguments'.
 */
const CODE_STATUSES: [RegExp, number][] = [
  [/rate_?limit/i, 429],
  [/not_authed|invalid_auth|token_(revoked|expired)|account_inactive/i, 401],
  [/missing_scope|not_allowed|permission|forbidden|restricted|not_in_/i, 403],
  [/not_found|does_not_exist|unknown_/i, 404],
];

export function toFlaggedFailureResult(
  tool: ToolNode,
  response: UpstreamResponse,
  found: FlaggedFailure,
  maxTextChars: number,
): CallToolResult {
  const message = findErrorMessage(found.body);
  const code = message ?? "";
  const status = CODE_STATUSES.find(([pattern]) => pattern.test(code.slice(0, 200)))?.[1] ?? 400;
  const { category, retryable, next } = classifyStatus(status);
  const lines = [
    `${categoryLabel(category)}: HTTP ${response.status} from ${tool.http.method.toUpperCase()} ${tool.http.path}, ` +
      `but the answer says ${found.flag}: ${!found.success} (a success says ${found.flag}: ${found.success}).`,
  ];
  if (message !== undefined) lines.push(`The API says: ${clip(message, 500)}`);
  lines.push(`Next step: ${next}`);
  // The first line says the flag's value.
  const unflagged = { ...found.body };
  delete unflagged[found.flag];
  const body = describeUntoldJson(unflagged, lines.join("\n"), response.status);
  if (body !== undefined) lines.push(clip(body, Math.min(maxTextChars, 4000)));
  const facts: ErrorFacts = { category, status: response.status, retryable };
  if (message !== undefined) facts.message = clip(message, 500);
  return noteCutAnswer(
    {
      isError: true,
      content: [{ type: "text", text: lines.join("\n") }],
      _meta: { [ERROR_META_KEY]: { ...facts } },
    },
    response,
  );
}
