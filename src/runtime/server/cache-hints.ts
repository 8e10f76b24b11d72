/**
 * The cache hints of the 2026-07-28 list results: how long a client may reuse a `tools/list`
 * page or the `server/discover` answer (`ttlMs`) and whether a shared cache may hand it to
 * other callers (`cacheScope`). The SDK writes them into 2026-07-28 answers only (the 2025 codec
 * never sees them), so 2025-era bytes do not change.
 *
 * - A fixed catalog (a generated server, `serve` without `--watch`) never changes within the
 *   process: the list may be reused for minutes. A redeploy is seen within that time even by
 *   clients that never list again on their own; a call made from a stale list meanwhile meets
 *   the contract guard (the catalog version and each tool's digest, tool-contracts.ts) or the
 *   argument check, never a silent mismatch.
 * - `serve --watch` may change the tools at any moment: the TTL is capped short, so a client
 *   with no notification channel (a stateless 2026-07-28 client without `subscriptions/listen`)
 *   sees a reload within seconds; clients with one get `list_changed` (2025) or the listen
 *   stream's tools-changed (2026) at once, which makes their cached list stale whatever its TTL.
 * - `private` when access to the bridge is controlled per caller: pass-through credentials (each
 *   caller's own credential decides what the tools reach) or a bearer token on the endpoint. The
 *   list itself is the same for everyone who gets through (the bridge never filters tools/list
 *   by caller), but a `public` answer may be served by a shared cache to callers who never
 *   passed that control (the spec's Security Considerations). `public` otherwise.
 */
import type { CacheHint, ServerOptions } from "@modelcontextprotocol/server";

/** How long a list answer of a fixed catalog may be reused (`--list-ttl` cites it): 5 minutes. */
export const DEFAULT_LIST_TTL_MS = 5 * 60_000;

/** The longest reuse while the tools may reload (`serve --watch`), whatever `--list-ttl` says. */
export const RELOADING_LIST_TTL_MS = 5_000;

/** What decides the hints, known at start-up. */
export interface ListCacheFacts {
  /** The tools may change while the process runs (`serve --watch`). */
  reloads: boolean;
  /** Access is controlled per caller: pass-through credentials, or a bearer token on the endpoint. */
  accessControlled: boolean;
  /** `--list-ttl`, when given. */
  ttlMs?: number;
}

export type ListCacheHint = Required<CacheHint>;

/** The hint of every cacheable list answer the bridge gives (tools/list pages, server/discover). */
export function resolveListCacheHint(facts: ListCacheFacts): ListCacheHint {
  const ttlMs = facts.ttlMs ?? DEFAULT_LIST_TTL_MS;
  return {
    ttlMs: facts.reloads ? Math.min(ttlMs, RELOADING_LIST_TTL_MS) : ttlMs,
    cacheScope: facts.accessControlled ? "private" : "public",
  };
}

/**
 * The Server's per-operation hints: the same for every page of tools/list (the spec wants one
 * scope across the pages of a list) and for server/discover, whose instructions name the tools
 * served and so change with them.
 */
export function toCacheHints(hint: ListCacheHint): NonNullable<ServerOptions["cacheHints"]> {
  return { "tools/list": hint, "server/discover": hint };
}
