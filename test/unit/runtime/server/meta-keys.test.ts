/**
 * The bridge's `_meta` keys: one reverse-DNS prefix, the old one-label keys for 2025-era
 * connections (same JSON text as before the move), and both read from what clients send.
 */
import { describe, expect, it } from "vitest";
import { ERROR_META_KEY } from "../../../../src/runtime/results/error-result.js";
import { TRUNCATION_META_KEY } from "../../../../src/runtime/results/truncate.js";
import {
  META_PREFIX,
  readMetaValue,
  toLegacyListing,
  toLegacyMeta,
  toLegacyMetaKey,
} from "../../../../src/runtime/server/meta-keys.js";
import { CATALOG_META_KEY, CONTRACT_META_KEY } from "../../../../src/runtime/server/tool-contracts.js";

describe("the bridge's _meta keys", () => {
  it.each([
    [CATALOG_META_KEY, "openapi-mcp-bridge/catalog"],
    [CONTRACT_META_KEY, "openapi-mcp-bridge/contract"],
    [ERROR_META_KEY, "openapi-mcp-bridge/error"],
    [TRUNCATION_META_KEY, "openapi-mcp-bridge/truncated"],
  ])("%s was %s", (key, legacy) => {
    expect(key.startsWith(META_PREFIX)).toBe(true);
    expect(toLegacyMetaKey(key)).toBe(legacy);
  });

  it("has a prefix MCP accepts: dot-separated labels, reverse DNS, not reserved", () => {
    const labels = META_PREFIX.slice(0, -1).split(".");
    for (const label of labels) expect(label).toMatch(/^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/);
    expect(["modelcontextprotocol", "mcp"]).not.toContain(labels[1]);
  });
});

describe("toLegacyMeta", () => {
  it("renames in place, so the JSON text is what the bridge wrote before", () => {
    const meta = { progressToken: 1, [ERROR_META_KEY]: { category: "x" }, other: true };
    expect(JSON.stringify(toLegacyMeta(meta))).toBe(
      '{"progressToken":1,"openapi-mcp-bridge/error":{"category":"x"},"other":true}',
    );
  });

  it("gives the same object when there is nothing to rename", () => {
    const meta = { "com.example/x": 1 };
    expect(toLegacyMeta(meta)).toBe(meta);
  });

  it("renames a listing's own _meta and every tool's", () => {
    const page = {
      tools: [{ name: "a", _meta: { [CONTRACT_META_KEY]: { contractVersion: 1 } } }, { name: "b" }],
      _meta: { [CATALOG_META_KEY]: { catalogVersion: "1.0.0" } },
    };
    expect(JSON.stringify(toLegacyListing(page))).toBe(
      '{"tools":[{"name":"a","_meta":{"openapi-mcp-bridge/contract":{"contractVersion":1}}},{"name":"b"}],' +
        '"_meta":{"openapi-mcp-bridge/catalog":{"catalogVersion":"1.0.0"}}}',
    );
    expect(page._meta).toHaveProperty([CATALOG_META_KEY]); // the runtime's own page is left alone
  });
});

describe("readMetaValue", () => {
  const cases: { meta: Record<string, unknown> | undefined; want: unknown; why: string }[] = [
    { meta: { [CATALOG_META_KEY]: "new" }, want: "new", why: "the new key" },
    { meta: { "openapi-mcp-bridge/catalog": "old" }, want: "old", why: "the old key (deprecated)" },
    {
      meta: { "openapi-mcp-bridge/catalog": "old", [CATALOG_META_KEY]: "new" },
      want: "new",
      why: "the new key wins",
    },
    { meta: {}, want: undefined, why: "neither" },
    { meta: undefined, want: undefined, why: "no _meta" },
  ];
  it.each(cases)("$why", ({ meta, want }) => {
    expect(readMetaValue(meta, CATALOG_META_KEY)).toBe(want);
  });
});
