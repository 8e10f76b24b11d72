/**
 * Every configured, passed-through or fetched secret, replaced in a result before it leaves the
 * bridge: in its text, its structured copy (keys too) and its `_meta`. The forms a secret takes
 * (percent-encoded, base64, JSON-escaped ...) come from auth/secret-forms.ts; a JSON string in
 * the text that an API escaped some other way (`\u0061` for `a`) is decoded and checked too.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { MAX_JSON_DEPTH } from "../../model/json-depth.js";

export const REDACTED = "[REDACTED]";

/**
 * A JSON string literal with a `\uXXXX` or `\/` escape: where encoders differ. Literals with
 * only `\"`, `\\`, `\n` ... are written the one way JSON_ENCODINGS already has.
 */
const ESCAPED_JSON_STRING = /"(?:[^"\\\n]|\\[^u/])*\\[u/](?:[^"\\\n]|\\.)*"/g;

/** Replaces every form in `forms` (secret-forms.ts) with [REDACTED]; the identity when there are none. */
export function createScrubber(forms: readonly string[]): (text: string) => string {
  const ordered = [...new Set(forms)].filter((f) => f !== "").sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  // Longest first: `Basic <base64>` goes before a part of it could.
  const pattern = new RegExp(ordered.map(escapeRegExp).join("|"), "g");
  const plain = (text: string) => text.replace(pattern, REDACTED);
  return (text) => {
    const once = plain(text);
    if (!once.includes("\\u") && !once.includes("\\/")) return once;
    return once.replace(ESCAPED_JSON_STRING, (literal) => {
      let decoded: unknown;
      try {
        decoded = JSON.parse(literal);
      } catch {
        return literal;
      }
      if (typeof decoded !== "string") return literal;
      const scrubbed = plain(decoded);
      return scrubbed === decoded ? literal : JSON.stringify(scrubbed);
    });
  };
}

/** Replaces every configured secret, in each of its forms, in a result with [REDACTED]. */
export function redactSecrets(result: CallToolResult, forms: readonly string[]): CallToolResult {
  if (forms.length === 0) return result;
  const scrub = createScrubber(forms);
  for (const item of result.content) {
    if (item.type === "text") item.text = scrub(item.text);
    else if (item.type === "resource" && "text" in item.resource)
      item.resource.text = scrub(item.resource.text);
  }
  // The structured copy too: an API that echoes a credential must not hand it to the model.
  if (result.structuredContent)
    result.structuredContent = scrubDeep(
      result.structuredContent,
      scrub,
      0,
    ) as typeof result.structuredContent;
  // And `_meta`: error facts carry the API's message and field errors, truncation facts its cursors.
  if (result._meta) result._meta = scrubDeep(result._meta, scrub, 0) as typeof result._meta;
  return result;
}

/** Deeper than any structured content a result carries (json-depth.ts): what is below is dropped, never shown unredacted. */
const MAX_SCRUB_DEPTH = MAX_JSON_DEPTH + 28;

function scrubDeep(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return scrub(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_SCRUB_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub, depth + 1));
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) out[scrub(key)] = scrubDeep(item, scrub, depth + 1);
  return Object.setPrototypeOf(out, Object.prototype);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
