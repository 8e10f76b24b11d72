/**
 * search_operations' answer: `structuredContent` `{ results: [{ name, method, path, summary }] }`
 * best first, and the same as compact text, one line a result (ten results are about 300
 * tokens). No match says so, with the filters that applied, and suggests broader words and the
 * tags that exist.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatCount } from "../../model/format-count.js";
import { clip } from "../results/body-text.js";
import { isNameInWords } from "./describe-budget.js";
import { nameApi } from "./discovery-tools.js";
import type { SearchHit, SearchOptions } from "./search.js";

/** Characters of a summary in a result. */
const SUMMARY_CHARS = 100;
/** Tags named in a no-match answer. */
const TAGS_SHOWN = 20;

export interface SearchRequest extends SearchOptions {
  query: string;
}

export interface SearchResultItem {
  name: string;
  method: string;
  path: string;
  summary: string;
  /** Code mode: the operation's TypeScript signature as a method of `api`. */
  signature?: string;
}

/** What code mode adds to discovery's search results. */
export interface SearchResultStyle {
  /** The signature of an operation by name. */
  signatureOf(name: string): string;
  /** The last line: what to do next. */
  next: string;
}

/** The answer to one search. `tags`: every tag of the searchable operations, most used first. */
export function toSearchResult(
  request: SearchRequest,
  hits: readonly SearchHit[],
  api: { title: string; operations: number; tags: readonly { tag: string; count: number }[] },
  style?: SearchResultStyle,
): CallToolResult {
  const results: SearchResultItem[] = hits.map((hit) => ({
    name: hit.name,
    method: hit.method.toUpperCase(),
    path: hit.path,
    // A summary that is only the name in words (EC2's "Get describe images") says nothing more.
    summary: isNameInWords(hit.summary, hit.name)
      ? ""
      : clip(hit.summary.replace(/\s+/g, " ").trim(), SUMMARY_CHARS),
    ...(style ? { signature: style.signatureOf(hit.name) } : {}),
  }));
  const structuredContent = { results };
  if (results.length === 0) {
    return { content: [{ type: "text", text: describeNoMatch(request, api) }], structuredContent };
  }
  const lines = [
    `${results.length === 1 ? "1 operation" : `${results.length} operations`} of ${formatCount(api.operations)} for ${JSON.stringify(request.query)}${describeFilters(request)}, best first:`,
    ...results.map((r) =>
      r.signature !== undefined
        ? `- ${r.method} ${r.path}${r.summary !== "" ? ` - ${r.summary}` : ""}\n  ${r.signature}`
        : `- ${r.name}: ${r.method} ${r.path}${r.summary !== "" ? ` - ${r.summary}` : ""}`,
    ),
    // Discovery's next step is in search_operations' own description; code mode's differs.
    ...(style ? [style.next] : []),
  ];
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent };
}

function describeFilters(request: SearchRequest): string {
  const filters = [
    ...(request.tag !== undefined ? [`tag ${JSON.stringify(request.tag)}`] : []),
    ...(request.method !== undefined ? [`method ${request.method.toUpperCase()}`] : []),
    ...(request.readOnly === true ? ["read-only"] : []),
  ];
  return filters.length > 0 ? ` (${filters.join(", ")})` : "";
}

function describeNoMatch(
  request: SearchRequest,
  api: { title: string; operations: number; tags: readonly { tag: string; count: number }[] },
): string {
  const parts = [
    `No operation of ${nameApi(clip(api.title, 60))} matches ${JSON.stringify(request.query)}${describeFilters(request)}.`,
  ];
  const tag = request.tag?.toLowerCase();
  if (tag !== undefined && !api.tags.some((t) => t.tag.toLowerCase() === tag)) {
    parts.push(`No operation has the tag ${JSON.stringify(request.tag)}.`);
  } else if (describeFilters(request) !== "") {
    parts.push("Try without the filters.");
  }
  parts.push(
    'Try fewer or broader words: what to do and to what ("create order", "list users"), without names or values.',
  );
  if (api.tags.length > 0) {
    const shown = api.tags.slice(0, TAGS_SHOWN).map((t) => `${clip(t.tag, 40)} (${t.count})`);
    const more = api.tags.length > TAGS_SHOWN ? `, and ${api.tags.length - TAGS_SHOWN} more` : "";
    parts.push(`Or search within one of its tags (the tag argument): ${shown.join(", ")}${more}.`);
  }
  return parts.join(" ");
}
