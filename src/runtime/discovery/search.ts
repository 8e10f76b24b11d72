/**
 * STAND-IN for the operation search of issue 14 (the ranking is built and measured elsewhere;
 * at merge that search.ts replaces this file, with the same exports). Discovery mode only
 * needs this interface: a deterministic search over the tools it is given, with filters, and
 * the tags that exist. Here the score is plain token overlap with fields weighted (name, title
 * and path above tags above the description), so that the obvious operation is found.
 */
import type { JsonValue, SearchIndexNode, ToolNode } from "../../model/types.js";

export interface SearchOptions {
  /** Results at most (default 8, at most 50). */
  limit?: number;
  /** Only operations with this tag (case-insensitive). */
  tag?: string;
  /** Only this HTTP method (case-insensitive). */
  method?: string;
  /** Only read-only operations. */
  readOnly?: boolean;
}

export interface SearchHit {
  name: string;
  /** Upper-case: `GET`. */
  method: string;
  /** The spec's path template: `/pets/{petId}`. */
  path: string;
  summary: string;
  tags: string[];
  readOnly: boolean;
  score: number;
}

export interface OperationSearch {
  /** The best matches first; ties in the tools' order. */
  search(query: string, options?: SearchOptions): SearchHit[];
  /** Every tag of the tools, most used first. */
  tags(): { tag: string; count: number }[];
}

const INDEX_VERSION = 1;
const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 50;

/** Field weights: what a field says about the operation. */
const WEIGHTS = { name: 3, title: 3, path: 3, tags: 2, description: 1 } as const;
type Field = keyof typeof WEIGHTS;

/** Words of a text: camelCase, snake_case and kebab-case split, lower-cased, plural `s` dropped. */
function toWords(text: string): string[] {
  return text
    .replace(/\{[^}]*\}/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1)
    .map((word) =>
      word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word,
    );
}

type Document = Record<Field, string[]>;

function toDocument(tool: ToolNode): Document {
  return {
    name: toWords(tool.name),
    title: toWords(tool.title),
    path: toWords(tool.http.path),
    tags: tool.tags.flatMap(toWords),
    description: toWords(tool.description),
  };
}

/** The index: each tool's words by field, by tool name. */
export function buildSearchIndex(tools: ToolNode[]): SearchIndexNode {
  const documents: Record<string, JsonValue> = {};
  for (const tool of tools) documents[tool.name] = toDocument(tool) as unknown as JsonValue;
  return { version: INDEX_VERSION, documents };
}

function readDocuments(index: SearchIndexNode | undefined): Record<string, Document> | undefined {
  if (index?.version !== INDEX_VERSION) return undefined;
  const documents = index.documents;
  return typeof documents === "object" && documents !== null && !Array.isArray(documents)
    ? (documents as unknown as Record<string, Document>)
    : undefined;
}

/**
 * A search over `tools` (what discovery may find: the selected tools). `index` may cover more
 * tools than `tools` (a saved model's, before selection): only the given tools are searched.
 */
export function createOperationSearch(tools: ToolNode[], index?: SearchIndexNode): OperationSearch {
  const saved = readDocuments(index);
  const documents = tools.map((tool) => saved?.[tool.name] ?? toDocument(tool));
  return {
    search(query, options = {}) {
      const words = [...new Set(toWords(query))];
      const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
      const tag = options.tag?.toLowerCase();
      const method = options.method?.toLowerCase();
      const hits: SearchHit[] = [];
      tools.forEach((tool, i) => {
        if (tag !== undefined && !tool.tags.some((t) => t.toLowerCase() === tag)) return;
        if (method !== undefined && tool.http.method !== method) return;
        if (options.readOnly === true && !tool.annotations.readOnlyHint) return;
        const document = documents[i]!;
        let score = 0;
        for (const word of words) {
          for (const field of Object.keys(WEIGHTS) as Field[]) {
            if (document[field].includes(word)) score += WEIGHTS[field];
          }
        }
        if (score > 0) hits.push(toHit(tool, score));
      });
      // Stable: equal scores keep the tools' order.
      return hits.sort((a, b) => b.score - a.score).slice(0, limit);
    },
    tags() {
      const counts = new Map<string, number>();
      for (const tool of tools) for (const tag of tool.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      return [...counts]
        .map(([tag, count]) => ({ tag, count }))
        .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    },
  };
}

function toHit(tool: ToolNode, score: number): SearchHit {
  return {
    name: tool.name,
    method: tool.http.method.toUpperCase(),
    path: tool.http.path,
    summary: tool.title,
    tags: tool.tags,
    readOnly: tool.annotations.readOnlyHint,
    score,
  };
}
