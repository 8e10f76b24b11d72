/**
 * The last resort when the ranker finds nothing: a query of one or two words the ranker reads
 * as noise ("me", "get", "all") or a word no operation's terms have whole ("calendarview"). An
 * empty answer tells the model nothing, so any operation whose path segment or name word the
 * query's words begin is returned, and for "me" / "my" the current user's operations: each
 * scored by how many of the words it has, times the intent's factor for its shape (rank.ts),
 * so that the shallow GET of a collection comes first (`GET /me` for "me").
 */
import type { ToolNode } from "../../../model/types.js";
import { matchAction, type OperationShape, type QueryIntent } from "./intent.js";
import { weighShape } from "./rank.js";
import { splitWords } from "./tokenize.js";

/** Query words read by the fallback (each is compared with every operation's words). */
const MAX_WORDS = 8;

export interface Fallback {
  tools: readonly ToolNode[];
  shapes: readonly OperationShape[];
  allowed?: (doc: number) => boolean;
}

/** Per operation: the lower-case words of its path's fixed segments and of its name. */
const wordsCache = new WeakMap<readonly ToolNode[], string[][]>();

function readToolWords(tools: readonly ToolNode[]): string[][] {
  let words = wordsCache.get(tools);
  if (words === undefined) {
    words = tools.map((tool) => {
      const segments = tool.http.path
        .split("/")
        .filter((segment) => segment !== "" && !segment.startsWith("{"))
        .map((segment) => segment.toLowerCase().replace(/\(.*$/, ""));
      return [...new Set([...segments, ...splitWords(tool.http.path), ...splitWords(tool.name)])];
    });
    wordsCache.set(tools, words);
  }
  return words;
}

export function rankFallback(
  context: Fallback,
  words: readonly string[],
  intent: QueryIntent,
  limit: number,
): { doc: number; score: number }[] {
  const wanted = [...new Set(words.filter((word) => word.length >= 2))].slice(0, MAX_WORDS);
  if (wanted.length === 0 && !intent.self) return [];
  const toolWords = readToolWords(context.tools);
  const none = new Set<string>();
  const ranked: { doc: number; score: number }[] = [];
  const allowed = (doc: number) => context.allowed === undefined || context.allowed(doc);
  toolWords.forEach((own, doc) => {
    if (!allowed(doc)) return;
    let matched = 0;
    for (const word of wanted) if (own.some((w) => w.startsWith(word))) matched++;
    const shape = context.shapes[doc]!;
    if (intent.self && shape.self) matched++;
    if (matched === 0) return;
    ranked.push({ doc, score: matched * weighShape(intent, none, shape, true) });
  });
  // Only verbs ("show all", "create"): the operations that do them, shallow ones first.
  if (ranked.length === 0 && intent.actions.size > 0) {
    context.shapes.forEach((shape, doc) => {
      if (allowed(doc) && matchAction(intent, shape) > 0)
        ranked.push({ doc, score: weighShape(intent, none, shape, true) });
    });
  }
  ranked.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return ranked.slice(0, limit);
}
