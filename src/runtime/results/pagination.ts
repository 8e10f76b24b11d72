/**
 * How to get more of an operation's answer: its pagination arguments (found by name among its
 * query parameters and body properties) and the next page the answer itself points to (an
 * RFC 8288 `Link: <...>; rel="next"` header, or a next-cursor field in the body), as arguments
 * of the tool the model can pass.
 */

import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";

export type PaginationRole = "page" | "size" | "offset" | "cursor";

export interface PaginationArgument {
  /** The tool's argument name. */
  argument: string;
  /** The name on the wire. */
  name: string;
  role: PaginationRole;
}

/** Names (lower-case, without `_`, `-`, `$`, `.`, `[`, `]`) by the role they play. */
const ROLES: Record<string, PaginationRole> = {
  page: "page",
  pagenumber: "page",
  pageno: "page",
  pagenum: "page",
  pageindex: "page",
  perpage: "size",
  pagesize: "size",
  limit: "size",
  size: "size",
  maxresults: "size",
  top: "size",
  pagelimit: "size",
  maxitems: "size",
  resultsperpage: "size",
  pagesizelimit: "size",
  pagesizemax: "size",
  itemsperpage: "size",
  rows: "size",
  offset: "offset",
  skip: "offset",
  start: "offset",
  startindex: "offset",
  startat: "offset",
  cursor: "cursor",
  pagetoken: "cursor",
  nexttoken: "cursor",
  nextpagetoken: "cursor",
  continuationtoken: "cursor",
  continuation: "cursor",
  after: "cursor",
  startingafter: "cursor",
  startafter: "cursor",
  startcursor: "cursor",
  pagecursor: "cursor",
  marker: "cursor",
  next: "cursor",
  scrollid: "cursor",
  skiptoken: "cursor",
};

/** Names that page backwards: a description lists them, the truncation marker never uses them. */
const BACKWARD = new Set(["before", "endingbefore"]);

/** True when a query parameter or body property with this name pages a list (either way). */
export function isPaginationName(name: string): boolean {
  return roleOf(name) !== undefined || BACKWARD.has(normaliseName(name));
}

function roleOf(name: string): PaginationRole | undefined {
  return ROLES[normaliseName(name)] ?? ROLES[normaliseName(name.replace(/^page\[(\w+)\]$/, "page$1"))];
}

export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[_\-$.[\]\s]/g, "");
}

/** The tool's arguments that page its answer (query parameters and body properties). */
export function findPaginationArguments(tool: ToolNode): PaginationArgument[] {
  const found: PaginationArgument[] = [];
  const consider = (argument: string, name: string) => {
    const role = roleOf(name);
    if (role) found.push({ argument, name, role });
  };
  for (const p of tool.http.parameters) if (p.in === "query") consider(p.argument, p.name);
  if (tool.http.body?.mode === "properties") {
    for (const p of tool.http.body.properties ?? []) consider(p.argument, p.name);
  }
  return found;
}

/** Query and body arguments that are not pagination: the ones that can narrow a request. */
export function findNarrowingArguments(tool: ToolNode): string[] {
  const paging = new Set(findPaginationArguments(tool).map((p) => p.argument));
  const names = tool.http.parameters.filter((p) => p.in === "query").map((p) => p.argument);
  if (tool.http.method === "get" || tool.http.method === "head") return names.filter((n) => !paging.has(n));
  const body =
    tool.http.body?.mode === "properties" ? (tool.http.body.properties ?? []).map((p) => p.argument) : [];
  return [...names, ...body].filter((n) => !paging.has(n));
}

export interface NextPage {
  /** Arguments to pass for the next page, by our argument names. */
  arguments: Record<string, string | number>;
  /** Where the bridge found it: `the Link header`, or the body field (`` the `meta.next` field ``). */
  source: string;
  /** A next value the tool has no argument for (told to the model as it is). */
  unmapped?: string;
}

/** RFC 8288 Link header → the URL with `rel="next"`. */
export function parseNextLink(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(match[2]!);
    const rels = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (rels.includes("next")) return match[1];
  }
  return undefined;
}

/** Keys of a body field that holds the next page's cursor or URL (normalised names). */
const NEXT_KEYS = new Set([
  "nextcursor",
  "nextpagetoken",
  "nexttoken",
  "continuationtoken",
  "nextpage",
  "nextpageurl",
  "next",
  "nextlink",
  "odatanextlink",
  "nextmarker",
  "endcursor",
  "after",
  "nexturl",
  "nextpagecursor",
  "cursornext",
]);
/** Containers that hold pagination facts (`meta.next_cursor`, `paging.cursors.after`...). */
const CONTAINERS = new Set([
  "meta",
  "pagination",
  "paging",
  "links",
  "link",
  "responsemetadata",
  "pageinfo",
  "page",
  "cursors",
  "cursor",
  "metadata",
]);

/** A `next` value in the body: `{next_cursor}`, `{meta: {next_cursor}}`, `{links: {next: {href}}}`. */
function findNextInBody(
  body: unknown,
  depth = 0,
  path = "",
): { value: string | number; path: string } | undefined {
  if (!isRecord(body) || depth > 2) return undefined;
  if (isRecord(body.pageInfo) && body.pageInfo.hasNextPage === false) return undefined;
  if (body.has_more === false || body.hasMore === false) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (!NEXT_KEYS.has(normaliseName(key))) continue;
    const at = path ? `${path}.${key}` : key;
    if (typeof value === "string" && value !== "") return { value, path: at };
    if (typeof value === "number") return { value, path: at };
    if (isRecord(value) && typeof value.href === "string") return { value: value.href, path: `${at}.href` };
  }
  for (const [key, value] of Object.entries(body)) {
    if (!CONTAINERS.has(normaliseName(key))) continue;
    const found = findNextInBody(value, depth + 1, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/** A URL's query → our arguments (by the wire name of the tool's query parameters). */
function argumentsFromUrl(tool: ToolNode, url: string): Record<string, string | number> | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://bridge.invalid/");
  } catch {
    return undefined;
  }
  const out: Record<string, string | number> = {};
  for (const [name, value] of parsed.searchParams) {
    const parameter = tool.http.parameters.find((p) => p.in === "query" && p.name === name);
    if (!parameter) continue;
    out[parameter.argument] = /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function looksLikeUrl(value: string): boolean {
  return (
    /^https?:\/\//i.test(value) || (value.startsWith("/") && value.includes("?")) || value.startsWith("?")
  );
}

/**
 * The next page the answer points to, as the tool's arguments: the Link header's `next` URL,
 * or a next-cursor field of the body (a URL is read for its query parameters; a token goes to
 * the tool's cursor argument, a number to its page argument).
 */
export function findNextPage(
  tool: ToolNode,
  headers: Record<string, string>,
  body: unknown,
): NextPage | undefined {
  const link = parseNextLink(headers.link);
  if (link !== undefined) {
    const args = argumentsFromUrl(tool, link);
    if (args) return { arguments: args, source: "the Link header" };
  }
  const found = findNextInBody(body);
  if (!found) return undefined;
  const { value } = found;
  const source = `the \`${found.path}\` field`;
  if (typeof value === "string" && looksLikeUrl(value)) {
    const args = argumentsFromUrl(tool, value);
    return args ? { arguments: args, source } : { arguments: {}, source, unmapped: value };
  }
  const paging = findPaginationArguments(tool);
  const page = paging.find((p) => p.role === "page");
  const cursor = paging.find((p) => p.role === "cursor");
  const target =
    typeof value === "number" && page ? page : (cursor ?? (/^\d+$/.test(String(value)) ? page : undefined));
  if (!target) return { arguments: {}, source, unmapped: String(value) };
  return { arguments: { [target.argument]: value }, source };
}
