/**
 * What an error body adds to the lines an error result already has. An API's error body is
 * mostly its message (`{"title": "Not Found", "detail": "no pet 7"}`, problem+json's `status`),
 * which the result quotes as "The API says"; showing the body whole after it had an agent read
 * the same words twice on every failure. The body's other values (codes, request ids, links, a
 * field's name) are kept, in their places, so nothing the API returned is lost.
 */

import { isRecord } from "../../model/records.js";

/**
 * Shorter strings are kept even when the text has them: "id", "en", "Error" are found inside
 * any sentence, so their presence there says nothing.
 */
const MIN_TOLD_LENGTH = 6;

/** The longest error body (as compact JSON) whose told values are left out. */
export const MAX_SCANNED_BODY_CHARS = 65_536;

/**
 * The body with every string the told text already holds and every number equal to the
 * status left out (objects and lists emptied so are left out too); undefined when nothing is
 * left. The body's depth is bounded by the caller (MAX_JSON_DEPTH).
 */
function removeToldValues(value: unknown, told: string, status: number): unknown {
  if (typeof value === "string") {
    const trimmed = value.trim();
    return trimmed.length >= MIN_TOLD_LENGTH && told.includes(trimmed) ? undefined : value;
  }
  if (typeof value === "number") return value === status ? undefined : value;
  if (Array.isArray(value)) {
    const kept = value
      .map((item) => removeToldValues(item, told, status))
      .filter((item) => item !== undefined);
    return kept.length === 0 ? undefined : kept;
  }
  if (isRecord(value)) {
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const rest = removeToldValues(item, told, status);
      if (rest !== undefined) kept[key] = rest;
    }
    return Object.keys(kept).length === 0 ? undefined : kept;
  }
  return value;
}

/**
 * The line that shows a JSON error body after the told lines: the whole body when none of it
 * was told, what is left of it when some was, nothing when all was.
 */
export function describeUntoldJson(value: unknown, told: string, status: number): string | undefined {
  const { whole, rest } = splitToldBody(value, told, status);
  if (rest === "") return undefined;
  return rest === whole ? `Response body:\n${whole}` : `The rest of the response body:\n${rest}`;
}

/**
 * A body (read as JSON) as compact JSON, and what is left of it once the told values are out:
 * "" when nothing is, the whole when nothing was told. A long body is shown cut anyway; the scan
 * of each of its strings through the told text is kept to bodies of a bounded size (a longer
 * one's rest is the whole).
 */
export function splitToldBody(value: unknown, told: string, status: number): { whole: string; rest: string } {
  const whole = JSON.stringify(value);
  if (whole.length > MAX_SCANNED_BODY_CHARS) return { whole, rest: whole };
  const left = removeToldValues(value, told, status);
  return { whole, rest: left === undefined ? "" : JSON.stringify(left) };
}
