/**
 * The built-in MCP App (`io.modelcontextprotocol/ui`): one `ui://` resource that renders a
 * tool's structured result as a sortable table of records with paging, and one record at a
 * time. Tools whose answer is a list of records point at it (`_meta.ui.resourceUri`) for a
 * client that said it renders views (ui-extension.ts); every other client sees the tools as
 * before. The page comes from result-view-html.ts: one self-contained document, no network.
 */
import type { ReadResourceResult, Resource } from "@modelcontextprotocol/server";
import { isJsonMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { JsonSchema, ToolNode } from "../../model/types.js";
import { findNextPage, findPaginationArguments } from "../results/pagination.js";
import { toMetaKey } from "../server/meta-keys.js";
import { RESULT_VIEW_HTML } from "./result-view-html.js";
import { UI_LEGACY_RESOURCE_URI_KEY, UI_RESOURCE_MIME_TYPE } from "./ui-extension.js";

export const RESULT_VIEW_URI = "ui://openapi-mcp-bridge/result-view";

/** Key of a result's paging facts in its `_meta`: the tool, its arguments, the next page's. */
export const PAGE_META_KEY = toMetaKey("page");

/**
 * The view's metadata on the resource: no origin at all for the network, scripts, styles,
 * frames or base URIs (empty lists: the extension's restrictive default CSP applies).
 */
const VIEW_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

export function listResultViews(): Resource[] {
  return [
    {
      uri: RESULT_VIEW_URI,
      name: "result-view",
      title: "Records",
      description: "A table of the records a tool answered with (sortable, paged), and a view of one record.",
      mimeType: UI_RESOURCE_MIME_TYPE,
      _meta: VIEW_META,
    },
  ];
}

/** The view's document, or undefined for another URI. */
export function readResultView(uri: string): ReadResourceResult | undefined {
  if (uri !== RESULT_VIEW_URI) return undefined;
  return { contents: [{ uri, mimeType: UI_RESOURCE_MIME_TYPE, text: RESULT_VIEW_HTML, _meta: VIEW_META }] };
}

/**
 * True when the tool's answer is a list of records: its output schema (or code mode's result
 * schema) is an array of objects or an object holding one; without either, a GET answering
 * JSON that pages, or whose path does not end at one item (`/pets`, not `/pets/{id}`).
 */
export function showsRecords(tool: ToolNode): boolean {
  const schema = tool.outputSchema ?? tool.resultSchema;
  if (schema !== undefined)
    return holdsRecordList(schema, tool.outputSchema !== undefined && tool.outputWrapped === true);
  if (tool.http.method !== "get") return false;
  const json = tool.http.responses.some(
    (response) => /^2/.test(response.status) && response.mediaTypes.some((type) => isJsonMediaType(type)),
  );
  if (!json) return false;
  return findPaginationArguments(tool).length > 0 || !/\}$/.test(tool.http.path);
}

function holdsRecordList(schema: JsonSchema, wrapped: boolean): boolean {
  const root = wrapped && isRecord(schema.properties) ? schema.properties.result : schema;
  if (isRecordList(root)) return true;
  if (!isRecord(root) || !isRecord(root.properties)) return false;
  return Object.values(root.properties).some((property) => isRecordList(property));
}

function isRecordList(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes("array") || !isRecord(schema.items)) return false;
  const itemTypes = Array.isArray(schema.items.type) ? schema.items.type : [schema.items.type];
  return itemTypes.includes("object") || isRecord(schema.items.properties);
}

/** A listed tool with the view's URI in its `_meta` (both the `ui` object and the older flat key). */
export function withResultView<T extends { _meta?: Record<string, unknown> }>(tool: T): T {
  return {
    ...tool,
    _meta: {
      ...tool._meta,
      ui: { ...(isRecord(tool._meta?.ui) ? tool._meta.ui : {}), resourceUri: RESULT_VIEW_URI },
      [UI_LEGACY_RESOURCE_URI_KEY]: RESULT_VIEW_URI,
    },
  };
}

/** A tools/list page with the view on every tool that lists records (mode tools have no node). */
export function withResultViews<P extends { tools: { name: string; _meta?: Record<string, unknown> }[] }>(
  page: P,
  nodeOf: (name: string) => ToolNode | undefined,
): P {
  return {
    ...page,
    tools: page.tools.map((tool) => {
      const node = nodeOf(tool.name);
      return node !== undefined && showsRecords(node) ? withResultView(tool) : tool;
    }),
  };
}

/**
 * What the view needs to page: the tool, the arguments of this call and those of the next page
 * (the answer's Link header or next cursor, else the page or offset argument moved on by one
 * page), or no `next` when there is none to be had.
 */
export function toPageFacts(
  tool: ToolNode,
  args: Record<string, unknown>,
  headers: Record<string, string>,
  body: unknown,
): Record<string, unknown> {
  const facts: Record<string, unknown> = { tool: tool.name, arguments: args };
  const count = countRecords(body);
  if (count === 0) return facts;
  const pointed = findNextPage(tool, headers, body);
  if (pointed !== undefined && Object.keys(pointed.arguments).length > 0) {
    return { ...facts, next: { ...args, ...pointed.arguments } };
  }
  const paging = findPaginationArguments(tool);
  const page = paging.find((p) => p.role === "page");
  const offset = paging.find((p) => p.role === "offset");
  const size = paging.find((p) => p.role === "size");
  if (page !== undefined) {
    const current = Number(args[page.argument] ?? 1);
    if (Number.isFinite(current)) return { ...facts, next: { ...args, [page.argument]: current + 1 } };
  }
  if (offset !== undefined) {
    const current = Number(args[offset.argument] ?? 0);
    const step =
      size !== undefined && args[size.argument] !== undefined ? Number(args[size.argument]) : count;
    if (Number.isFinite(current) && Number.isFinite(step) && step > 0) {
      return { ...facts, next: { ...args, [offset.argument]: current + step } };
    }
  }
  return facts;
}

/** How many records the answer holds: the array, or the longest array of objects in it. */
function countRecords(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (!isRecord(body)) return 0;
  let most = 0;
  for (const value of Object.values(body)) {
    if (Array.isArray(value) && value.some((item) => isRecord(item))) most = Math.max(most, value.length);
  }
  return most;
}
