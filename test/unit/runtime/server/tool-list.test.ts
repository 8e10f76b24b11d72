/**
 * tools/list pages: as large as the SDK's stdio client reads in one message (10 MiB), never
 * smaller than needed, so a client that reads only the first page sees all it can.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import {
  createToolPager,
  DEFAULT_PAGE_BYTES,
  encodeCursor,
} from "../../../../src/runtime/server/tool-list.js";
import { planSpec } from "../../../e2e/safety-support.js";

/** `count` tools of about `bytes` bytes of JSON each. */
function bigTools(count: number, bytes: number): ToolNode[] {
  const [template] = planSpec({
    paths: { "/x": { get: { operationId: "x", responses: { "200": { description: "OK" } } } } },
  }).tools;
  const values = Array.from({ length: Math.ceil(bytes / 12) }, (_, i) => `value-${i}`);
  return Array.from({ length: count }, (_, i) => ({
    ...template!,
    name: `tool${i}`,
    inputSchema: { type: "object", properties: { choice: { type: "string", enum: values } } },
  }));
}

/** The JSON-RPC message a page travels in over stdio, as the SDK writes it. */
function messageBytes(page: { tools: unknown[] }, next: string | undefined): number {
  const result = next === undefined ? { tools: page.tools } : { tools: page.tools, nextCursor: next };
  return Buffer.byteLength(`${JSON.stringify({ result, jsonrpc: "2.0", id: 123456 })}\n`);
}

describe("tools/list pages", () => {
  it("default to what the stdio client reads, less one pipe chunk and the envelope", () => {
    expect(DEFAULT_PAGE_BYTES).toBeGreaterThanOrEqual(9 * 1024 * 1024);
    expect(DEFAULT_PAGE_BYTES).toBeLessThanOrEqual(STDIO_DEFAULT_MAX_BUFFER_SIZE - 64 * 1024);
  });

  it("of 30 MB of tools: full pages that each fit one stdio message", () => {
    const tools = bigTools(300, 100_000);
    const pager = createToolPager(tools, DEFAULT_PAGE_BYTES);
    const sizes: number[] = [];
    let start = 0;
    let seen = 0;
    while (start < tools.length) {
      const page = pager(start);
      seen += page.tools.length;
      const next = page.next < tools.length ? encodeCursor(page.next) : undefined;
      sizes.push(messageBytes(page, next));
      start = page.next;
    }
    expect(seen).toBe(300);
    expect(sizes.length).toBe(4);
    for (const size of sizes) expect(size).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE - 64 * 1024);
    // Every page but the last is full: no more than one tool of room is left.
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan(DEFAULT_PAGE_BYTES - 110_000);
  });
});
