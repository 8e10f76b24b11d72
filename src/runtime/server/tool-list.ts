/**
 * tools/list: each tool as clients see it, in pages of at most a byte budget, with opaque
 * cursors that stay valid for the life of the model.
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { ToolNode } from "../../model/types.js";
import { createInvalidParamsError } from "../results/protocol-error.js";

/**
 * Bytes of one tools/list page: as much as the SDK's stdio client reads in one message
 * (10 MiB, STDIO_DEFAULT_MAX_BUFFER_SIZE) less room for the JSON-RPC envelope and one 64 KiB
 * pipe chunk of the next message, which its buffer holds alongside. A naive client that reads
 * only the first page then sees every tool that can reach it at all.
 */
export const DEFAULT_PAGE_BYTES = 10 * 1024 * 1024 - 512 * 1024;

/**
 * A tool as tools/list shows it. The display title travels in `annotations.title` only (MCP:
 * `title`, then `annotations.title`, then `name`): saying it twice costs every tool tokens.
 */
export function toListedTool(tool: ToolNode): Tool {
  const listed: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    annotations: { ...tool.annotations },
  };
  if (tool.outputSchema) listed.outputSchema = tool.outputSchema as Tool["outputSchema"];
  return listed;
}

/**
 * Pages of tools of at most `maxBytes` of JSON each (at least one tool a page), cut lazily:
 * the first page is ready after serialising only its own tools. Cursors are tool offsets, so
 * they stay valid for the life of the model. `reservedBytesPerTool` is room kept for what is
 * added to each tool after paging (its contract `_meta`, reload/live-runtime.ts).
 */
export function createToolPager(
  tools: ToolNode[],
  maxBytes: number,
  reservedBytesPerTool = 0,
): (start: number) => { tools: Tool[]; next: number } {
  const listed = new Map<number, Tool>();
  const ends = new Map<number, number>();
  const listedAt = (index: number) => {
    let tool = listed.get(index);
    if (!tool) {
      tool = toListedTool(tools[index]!);
      listed.set(index, tool);
    }
    return tool;
  };
  return (start) => {
    let end = ends.get(start);
    if (end === undefined) {
      end = start;
      let size = 0;
      while (end < tools.length) {
        const bytes = Buffer.byteLength(JSON.stringify(listedAt(end))) + reservedBytesPerTool;
        if (end > start && size + bytes > maxBytes) break;
        size += bytes;
        end++;
      }
      ends.set(start, end);
    }
    const page: Tool[] = [];
    for (let i = start; i < end; i++) page.push(listedAt(i));
    return { tools: page, next: end };
  };
}

export function encodeCursor(index: number): string {
  return Buffer.from(`tools:${index}`).toString("base64url");
}

export function decodeCursor(cursor: string, toolCount: number): number {
  const match = /^tools:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const index = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(index) || index < 0 || index >= toolCount) {
    throw createInvalidParamsError("Invalid cursor: start again without a cursor.");
  }
  return index;
}
