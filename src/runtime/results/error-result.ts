/**
 * The one shape of an `isError` tool result's structured facts: `_meta[ERROR_META_KEY]` holds
 * the category (every category the runtime emits is in ErrorCategory), the HTTP status, whether
 * a retry can help, and the API's own message and rejected fields.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { toMetaKey } from "../server/meta-keys.js";
import type { MappedFieldError } from "./field-map.js";

/** Key of the structured error facts in a result's `_meta`. */
export const ERROR_META_KEY = toMetaKey("error");

export type ErrorCategory =
  | "invalid_argument"
  | "authentication"
  | "permission"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "upstream_unavailable"
  | "timeout"
  | "upstream_bug"
  | "redirect"
  | "unexpected_response"
  /** The bridge's own configuration (no usable server URL) stops the call. */
  | "configuration"
  /** The spec describes the operation's input in a way the bridge cannot check: it cannot be called. */
  | "operation_unavailable"
  /** A generated project's beforeCall or afterCall hook threw. */
  | "hook"
  /** A destructive call needs the user's confirmation, which the client cannot give. */
  | "confirmation_unavailable"
  | "confirmation_declined"
  /** A confirmation state that was altered, has expired or was asked for another call (2026-07-28). */
  | "confirmation_invalid"
  /** The user is being asked (2026-07-28: the server answers this round with the question). */
  | "confirmation_pending"
  /** Discovery mode: describe or call named an operation that is not served (see discovery/). */
  | "unknown_tool"
  /** Code mode: the program threw, or is not valid JavaScript (see code/). */
  | "program_error"
  /** Code mode: the program was stopped at one of the sandbox's limits. */
  | "program_limit"
  /** Hot reload removed or broke the tool since the client listed it (see reload/). */
  | "tool_changed"
  /** The client cancelled the call: the upstream request was aborted (the audit line says so). */
  | "cancelled"
  /** The user must sign in to the API first (per-user login): the result carries the link. */
  | "login_required"
  /** A long-running operation the API accepted ended failed or cancelled (tasks/). */
  | "operation_failed";

export interface ErrorFacts {
  category: ErrorCategory;
  status?: number;
  retryable: boolean;
  retryAfterSeconds?: number;
  /** The API's own message (problem+json title/detail, `error.message`, `message`...). */
  message?: string;
  /** Fields the API rejected, with the tool's argument each one is (when one matches). */
  fields?: MappedFieldError[];
  /** No connection to the API was made: nothing was sent. */
  unsent?: true;
}

/** How each category is named at the start of an error text. */
const CATEGORY_LABELS: Record<ErrorCategory, string> = {
  invalid_argument: "Invalid argument",
  authentication: "Authentication failed",
  permission: "Permission denied",
  not_found: "Not found",
  conflict: "Conflict",
  rate_limited: "Rate limited",
  upstream_unavailable: "Upstream unavailable",
  timeout: "Timeout",
  upstream_bug: "Upstream error",
  redirect: "Redirected",
  unexpected_response: "Unexpected response",
  configuration: "Configuration error",
  operation_unavailable: "Operation unavailable",
  hook: "Hook failed",
  confirmation_unavailable: "Refused",
  confirmation_declined: "Refused",
  confirmation_invalid: "Refused",
  confirmation_pending: "Waiting",
  unknown_tool: "Unknown operation",
  program_error: "Program error",
  program_limit: "Stopped",
  tool_changed: "Tool changed",
  cancelled: "Cancelled",
  login_required: "Sign-in needed",
  operation_failed: "Operation failed",
};

export function categoryLabel(category: ErrorCategory): string {
  return CATEGORY_LABELS[category];
}

/** An `isError` result with one text and the facts of a failure the bridge found itself. */
export function toErrorResult(text: string, category: ErrorCategory): CallToolResult {
  const facts: ErrorFacts = { category, retryable: false };
  return { isError: true, content: [{ type: "text", text }], _meta: { [ERROR_META_KEY]: { ...facts } } };
}
