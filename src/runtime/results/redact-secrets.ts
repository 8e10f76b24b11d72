/** Every configured, passed-through or fetched secret, replaced in a result before it leaves the bridge. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Replaces every configured secret in a result's text with [REDACTED]. */
export function redactSecrets(result: CallToolResult, secrets: string[]): CallToolResult {
  if (secrets.length === 0) return result;
  const ordered = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  const scrub = (text: string) => ordered.reduce((t, secret) => t.split(secret).join("[REDACTED]"), text);
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

function scrubDeep(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return scrub(value);
  if (typeof value !== "object" || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub, depth + 1));
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) out[key] = scrubDeep(item, scrub, depth + 1);
  return Object.setPrototypeOf(out, Object.prototype);
}
