/**
 * The operation search of discovery mode: a lexical ranker designed for API operations, with no
 * model and no network (search/: tokenize, stem, fields, saved-index, postings, intent, rank).
 * Deterministic; equal scores keep the tools' order. The index is built from the tools, or read
 * from the one saved with a model (`buildSearchIndex`: `generate` and `model` store it), and
 * only when the first search needs it (discovery.ts warms it after the first tools/list).
 */

import { isRecord } from "../../model/records.js";
import { runToEnd } from "../../model/run-steps.js";
import type { BridgeModel, SearchIndexNode, ToolNode } from "../../model/types.js";
import { runInSlices, SLICE_MS } from "../engine/run-in-slices.js";
import { isNameInWords } from "./describe-budget.js";
import { rankFallback } from "./search/fallback.js";
import { hasFirstPerson, hasName, readOperationShape, readQueryIntent } from "./search/intent.js";
import { buildPostingsSteps, type Postings } from "./search/postings.js";
import { createScratch, FIELD_END, rankQuery } from "./search/rank.js";
import {
  buildSavedIndex,
  buildSavedIndexSteps,
  createTermsReader,
  INDEX_VERSION,
} from "./search/saved-index.js";
import { splitWords } from "./search/tokenize.js";

export interface SearchOptions {
  /** Results at most (default 8, at most 50). */
  limit?: number;
  /** Only operations with this tag (case-insensitive). */
  tag?: string;
  /** Only this HTTP method (case-insensitive). */
  method?: string;
  /** Only read-only operations. */
  readOnly?: boolean;
  /** Only operations the caller may call (the OAuth front door's scopes, access/caller.ts). */
  allows?: (tool: ToolNode) => boolean;
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

const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 50;

/** The index saved with a model: every tool's terms by field (search/saved-index.ts). */
export function buildSearchIndex(tools: ToolNode[]): SearchIndexNode {
  return buildSavedIndex(tools);
}

/**
 * The index `model` carries (a cached or saved model's) when it is of this version and covers
 * exactly its tools, else one built over them: the same terms either way (each entry also keeps
 * a hash of what its terms came from, checked where it is read), without reading every tool's
 * text again (half a second of a cached GitHub generation, 1.3 s of Graph beta's `model`).
 */
export function readOrBuildSearchIndex(model: BridgeModel): SearchIndexNode {
  const index = model.searchIndex;
  const docs = index?.docs;
  const fits =
    index?.version === INDEX_VERSION &&
    isRecord(docs) &&
    Object.keys(docs).length === model.tools.length &&
    model.tools.every((tool) => Object.hasOwn(docs, tool.name));
  return fits ? index : buildSearchIndex(model.tools);
}

/** The same index, a tool a step, for a caller that runs it in slices (the model cache). */
export function buildSearchIndexSteps(tools: readonly ToolNode[]): Generator<void, SearchIndexNode, void> {
  return buildSavedIndexSteps(tools);
}

/**
 * A search over `tools` (what discovery may find: the selected tools). `index` may cover more
 * tools than `tools` (a saved model's, before selection): only the given tools are searched.
 */
export function createOperationSearch(tools: ToolNode[], index?: SearchIndexNode): OperationSearch {
  return runToEnd(buildSearchSteps(tools, index));
}

/**
 * The same search, being built in slices of a few milliseconds (runInSlices) with the event loop
 * free in between: on a huge API (Graph beta: 22,361 operations, seconds of work) calls keep
 * being answered while it builds. A search that cannot wait calls `finish`, which runs the steps
 * left at once: the build goes on from where the slices left it rather than starting over (a
 * first search during the warm-up built the whole index a second time, 1.3 s on Graph beta).
 */
export interface SearchBuild {
  /** The search, the steps left run now; the same search `done` resolves to. */
  finish(): OperationSearch;
  /** Resolves to the search once built, by the slices or by `finish`; rejects if the build fails. */
  done: Promise<OperationSearch>;
}

export function startOperationSearch(
  tools: ToolNode[],
  index?: SearchIndexNode,
  sliceMs = SLICE_MS,
): SearchBuild {
  // One generator, run by whichever comes first: the slices, or `finish` with the steps left
  // (the slices then find it ended). What it built, or the error that ended it, is kept for both.
  let built: OperationSearch | undefined;
  let failure: { error: unknown } | undefined;
  const steps = (function* (): Generator<void, void> {
    try {
      built = yield* buildSearchSteps(tools, index);
    } catch (error) {
      failure = { error };
      throw error;
    }
  })();
  const finish = (): OperationSearch => {
    if (failure !== undefined) throw failure.error;
    if (built === undefined) runToEnd(steps);
    return built!;
  };
  return { finish, done: runInSlices(steps, sliceMs).then(finish) };
}

function* buildSearchSteps(
  tools: ToolNode[],
  index: SearchIndexNode | undefined,
): Generator<void, OperationSearch> {
  const reader = createTermsReader(index);
  const documents: number[][][] = [];
  const shapes = [];
  for (const tool of tools) {
    if (documents.length > 0) yield;
    documents.push(reader.read(tool));
    shapes.push(readOperationShape(tool));
  }
  const { terms } = reader;
  const postings = yield* buildPostingsSteps(documents, terms);
  yield;
  return toSearch(tools, shapes, postings, documents.map(toSequence), terms);
}

/**
 * An operation's terms in order, every field (FIELDS order), as numbers into the vocabulary
 * with FIELD_END between fields: what the ranker reads word pairs from. One typed array per
 * operation (Graph beta: some 2 million terms, 8 MB), not a string per term.
 */
function toSequence(document: readonly (readonly number[])[]): Int32Array {
  let size = document.length - 1;
  for (const field of document) size += field.length;
  const sequence = new Int32Array(Math.max(size, 0));
  let at = 0;
  document.forEach((field, f) => {
    if (f > 0) sequence[at++] = FIELD_END;
    for (const id of field) sequence[at++] = id;
  });
  return sequence;
}

function toSearch(
  tools: ToolNode[],
  shapes: ReturnType<typeof readOperationShape>[],
  postings: Postings,
  sequences: Int32Array[],
  vocabulary: readonly string[],
): OperationSearch {
  const resources = new Set(shapes.map((shape) => shape.resource).filter((resource) => resource !== ""));
  const scratch = createScratch(postings.size);
  let byName: Map<string, number> | undefined;
  return {
    search(whole, options = {}) {
      const query = clipQuery(whole);
      const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
      const tag = options.tag?.toLowerCase();
      const method = options.method?.toLowerCase();
      const { allows } = options;
      const filtered =
        tag !== undefined || method !== undefined || options.readOnly === true || allows !== undefined;
      const allowed = filtered
        ? (doc: number) => {
            const tool = tools[doc]!;
            if (allows !== undefined && !allows(tool)) return false;
            if (tag !== undefined && !tool.tags.some((t) => t.toLowerCase() === tag)) return false;
            if (method !== undefined && tool.http.method !== method) return false;
            return options.readOnly !== true || tool.annotations.readOnlyHint;
          }
        : undefined;
      byName ??= new Map(tools.map((tool, doc) => [tool.name.toLowerCase(), doc]));
      const named = findNamedDocs(query, byName, tools).filter(
        (doc) => allowed === undefined || allowed(doc),
      );
      let ranked = rankQuery(
        { postings, shapes, scratch, sequences, vocabulary, resources, ...(allowed ? { allowed } : {}) },
        query,
        limit + named.length,
      ).filter(({ doc }) => !named.includes(doc));
      // Never an empty answer while some operation's path or name has the query's words.
      if (ranked.length === 0 && named.length === 0) {
        const words = splitWords(query);
        ranked = rankFallback(
          { tools, shapes, ...(allowed ? { allowed } : {}) },
          words,
          readQueryIntent(words, hasName(query), hasFirstPerson(query)),
          limit,
        );
      }
      // An operation named in the query comes first, whatever its words: a name may be all
      // noise to the ranker (`op19999`, `getV2Item3f9a`), and the model that typed it means it.
      const top = (ranked[0]?.score ?? 0) + 1;
      return [...named.map((doc) => ({ doc, score: top })), ...ranked]
        .slice(0, limit)
        .map(({ doc, score }) => toHit(tools[doc]!, score));
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

/**
 * The most of a query the search reads: a task in a few sentences. The tools say so to the
 * model (discovery and code mode refuse a longer query as an argument error); any other caller
 * gets its first MAX_QUERY_CHARS characters, cut at a space, so no query makes the ranker's
 * work grow without bound.
 */
export const MAX_QUERY_CHARS = 1_000;

function clipQuery(query: string): string {
  if (query.length <= MAX_QUERY_CHARS) return query;
  const cut = query.slice(0, MAX_QUERY_CHARS);
  const space = cut.lastIndexOf(" ");
  return space > MAX_QUERY_CHARS / 2 ? cut.slice(0, space) : cut;
}

/**
 * What a result line says the operation does: its title, or when that is only its name in
 * words (EC2's `GET_DescribeInstances`, "Get describe instances"), the first line of its
 * description, which leads with the spec's first sentence ("Describes the specified instances
 * or all instances."): an agent tells DescribeInstances from DescribeFleetInstances by it.
 */
function summarizeTool(tool: ToolNode): string {
  if (tool.title !== "" && !isNameInWords(tool.title, tool.name)) return tool.title;
  const newline = tool.description.indexOf("\n");
  const lead = (newline < 0 ? tool.description : tool.description.slice(0, newline)).trim();
  return isNameInWords(lead, tool.name) ? "" : lead;
}

/**
 * Operations whose exact name (any case) is a word of the query, in the query's order. A name
 * that is a plain word (Zoom's `webinar`, Jira's `search`) is named only as the whole query:
 * in "add a registrant to a webinar" or "search issues" it is the person's word, and the
 * ranking says which operation it means (`GET /webinars/{id}` came first for the former).
 */
function findNamedDocs(query: string, byName: Map<string, number>, tools: readonly ToolNode[]): number[] {
  const docs: number[] = [];
  const words = query
    .toLowerCase()
    .split(/[\s,;"'`]+/)
    .filter((word) => word !== "");
  for (const word of words) {
    const doc = byName.get(word);
    if (doc === undefined || docs.includes(doc)) continue;
    if (words.length > 1 && PLAIN_WORD.test(tools[doc]!.name)) continue;
    docs.push(doc);
  }
  return docs;
}

/** A name that is a word of prose: letters only, lower-case after the first, or all capitals. */
const PLAIN_WORD = /^(\p{Lu}?\p{Ll}+|\p{Lu}+)$/u;

function toHit(tool: ToolNode, score: number): SearchHit {
  return {
    name: tool.name,
    method: tool.http.method.toUpperCase(),
    path: tool.http.path,
    summary: summarizeTool(tool),
    tags: tool.tags,
    readOnly: tool.annotations.readOnlyHint,
    score,
  };
}
