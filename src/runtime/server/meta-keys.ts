/**
 * The bridge's own `_meta` keys, defined here once. MCP asks for a reverse-DNS prefix on
 * implementation keys (2026-07-28, basic/index "_meta"); the bridge's is the namespace it has in
 * the MCP Registry (`io.github.openapi-mcp-bridge/openapi-mcp-bridge`, package.json `mcpName`),
 * so the two names cannot drift apart or be claimed by anyone else.
 *
 * Deprecation of the one-label prefix `openapi-mcp-bridge/` (bridge 0.x): everything the runtime
 * builds carries the new keys, and the edge (mcp-server.ts) rewrites them to the old ones for
 * 2025-era connections only, so their tools/list and results stay byte for byte what they were;
 * 2026-07-28 requests get the new keys only. What a client sends (the catalogVersion it holds)
 * is read under either key, the new one first. The old keys go at bridge 1.0.0.
 */

/** The reverse-DNS prefix of every `_meta` key the bridge writes. */
export const META_PREFIX = "io.github.openapi-mcp-bridge/";

/** The one-label prefix written before 2026-07-28: still served to 2025-era clients. */
export const LEGACY_META_PREFIX = "openapi-mcp-bridge/";

/** The key of `name` under the bridge's prefix: `io.github.openapi-mcp-bridge/<name>`. */
export function toMetaKey(name: string): string {
  return `${META_PREFIX}${name}`;
}

/** The old key of a key under the bridge's prefix; any other key as it is. */
export function toLegacyMetaKey(key: string): string {
  return key.startsWith(META_PREFIX) ? `${LEGACY_META_PREFIX}${key.slice(META_PREFIX.length)}` : key;
}

/** A value a client sent under `key`, or under its old name (deprecated; the new one wins). */
export function readMetaValue(meta: Record<string, unknown> | undefined, key: string): unknown {
  if (meta === undefined) return undefined;
  if (Object.hasOwn(meta, key)) return meta[key];
  const legacy = toLegacyMetaKey(key);
  return Object.hasOwn(meta, legacy) ? meta[legacy] : undefined;
}

/**
 * A `_meta` object with the bridge's keys renamed to the old prefix, in place in the key order
 * (so the JSON text is what the bridge wrote before the move); the same object when it has none.
 */
export function toLegacyMeta<T extends Record<string, unknown>>(meta: T): T {
  let changed = false;
  for (const key of Object.keys(meta)) {
    if (key.startsWith(META_PREFIX)) {
      changed = true;
      break;
    }
  }
  if (!changed) return meta;
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) renamed[toLegacyMetaKey(key)] = value;
  return renamed as T;
}

/** An object (a result, a tool, a tools/list page) whose `_meta` uses the old prefix. */
export function withLegacyMeta<T extends { _meta?: Record<string, unknown> }>(holder: T): T {
  if (holder._meta === undefined) return holder;
  const meta = toLegacyMeta(holder._meta);
  return meta === holder._meta ? holder : { ...holder, _meta: meta };
}

/** A tools/list page as a 2025-era client has always seen it: the page's and every tool's `_meta`. */
export function toLegacyListing<
  T extends { tools: { _meta?: Record<string, unknown> }[]; _meta?: Record<string, unknown> },
>(page: T): T {
  return withLegacyMeta({ ...page, tools: page.tools.map((tool) => withLegacyMeta(tool)) });
}
