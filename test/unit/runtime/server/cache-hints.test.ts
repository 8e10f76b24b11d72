/**
 * The list answers' cache hints, from the settings and what the start knows to the hint sent:
 * reload caps the TTL, per-caller access makes the scope private, --list-ttl sets the TTL.
 */
import { describe, expect, it } from "vitest";
import type { Settings } from "../../../../src/runtime/config/option-table.js";
import { toListCacheFacts } from "../../../../src/runtime/config/to-options.js";
import {
  DEFAULT_LIST_TTL_MS,
  type ListCacheHint,
  RELOADING_LIST_TTL_MS,
  resolveListCacheHint,
  toCacheHints,
} from "../../../../src/runtime/server/cache-hints.js";

interface Case {
  name: string;
  settings: Settings;
  reloads?: boolean;
  perCallerCredentials?: boolean;
  want: ListCacheHint;
}

const cases: Case[] = [
  {
    name: "a fixed catalog over stdio",
    settings: {},
    want: { ttlMs: DEFAULT_LIST_TTL_MS, cacheScope: "public" },
  },
  {
    name: "a fixed catalog over HTTP without a token",
    settings: { transport: "http" },
    want: { ttlMs: DEFAULT_LIST_TTL_MS, cacheScope: "public" },
  },
  {
    name: "a fixed catalog over HTTP behind --http-token",
    settings: { transport: "http", httpToken: "s3cret" },
    want: { ttlMs: DEFAULT_LIST_TTL_MS, cacheScope: "private" },
  },
  {
    name: "--http-token given but served over stdio (no endpoint to guard)",
    settings: { httpToken: "s3cret" },
    want: { ttlMs: DEFAULT_LIST_TTL_MS, cacheScope: "public" },
  },
  {
    name: "pass-through credentials",
    settings: { transport: "http" },
    perCallerCredentials: true,
    want: { ttlMs: DEFAULT_LIST_TTL_MS, cacheScope: "private" },
  },
  {
    name: "serve --watch",
    settings: {},
    reloads: true,
    want: { ttlMs: RELOADING_LIST_TTL_MS, cacheScope: "public" },
  },
  {
    name: "serve --watch with pass-through credentials",
    settings: { transport: "http" },
    reloads: true,
    perCallerCredentials: true,
    want: { ttlMs: RELOADING_LIST_TTL_MS, cacheScope: "private" },
  },
  {
    name: "--list-ttl on a fixed catalog",
    settings: { listTtl: 3_600_000 },
    want: { ttlMs: 3_600_000, cacheScope: "public" },
  },
  {
    name: "--list-ttl 0: never reuse",
    settings: { listTtl: 0 },
    want: { ttlMs: 0, cacheScope: "public" },
  },
  {
    name: "--list-ttl above the reload cap with --watch: the cap",
    settings: { listTtl: 3_600_000 },
    reloads: true,
    want: { ttlMs: RELOADING_LIST_TTL_MS, cacheScope: "public" },
  },
  {
    name: "--list-ttl below the reload cap with --watch: the shorter one",
    settings: { listTtl: 1_000 },
    reloads: true,
    want: { ttlMs: 1_000, cacheScope: "public" },
  },
];

describe("list cache hints", () => {
  it.each(cases)("$name", ({ settings, reloads = false, perCallerCredentials = false, want }) => {
    expect(resolveListCacheHint(toListCacheFacts(settings, { reloads, perCallerCredentials }))).toEqual(want);
  });

  it("keeps a reload visible within seconds, and a fixed catalog's list for minutes", () => {
    expect(RELOADING_LIST_TTL_MS).toBeLessThanOrEqual(10_000);
    expect(DEFAULT_LIST_TTL_MS).toBeGreaterThanOrEqual(60_000);
  });

  it("gives tools/list and server/discover the same hint", () => {
    const hint: ListCacheHint = { ttlMs: 5, cacheScope: "private" };
    expect(toCacheHints(hint)).toEqual({ "tools/list": hint, "server/discover": hint });
  });
});
