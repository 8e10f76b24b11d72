/**
 * Error answers an API documents the same way on most of its operations (Spotify's 401, 403
 * and 429 texts on all 89, each a few sentences): describe shows those statuses without their
 * text, which tells the agent nothing about the operation it is about to call and cost about a
 * third of a one-operation answer. When such an error happens, its result still quotes the
 * documented text (results/failure.ts reads the tool's own responses).
 */
import { isErrorStatus } from "../../model/error-status.js";
import type { ToolNode } from "../../model/types.js";

/** An error text is the API's boilerplate from this share of its operations… */
const BOILERPLATE_SHARE = 0.5;
/** …and at least this many: in a small API, two operations agreeing says little. */
const MIN_OPERATIONS = 8;

/** `status` and `text` as one key of the set findBoilerplateResponses gives. */
export function toResponseKey(status: string, text: string): string {
  return `${status}\u0000${text}`;
}

/**
 * The error statuses and texts (toResponseKey) that at least half of `tools` (and at least
 * eight) document alike. One pass over the HTTP bindings, which a lazy model holds in its index.
 */
export function findBoilerplateResponses(tools: readonly ToolNode[]): ReadonlySet<string> {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    for (const response of tool.http.responses) {
      if (response.description === "" || !isErrorStatus(response.status)) continue;
      const key = toResponseKey(response.status, response.description);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const least = Math.max(MIN_OPERATIONS, Math.ceil(tools.length * BOILERPLATE_SHARE));
  return new Set([...counts].filter(([, count]) => count >= least).map(([key]) => key));
}
