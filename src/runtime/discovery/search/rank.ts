/**
 * Ranking one query over the postings: BM25F (saturated, length-normalised field frequencies,
 * postings.ts) times what the task's intent says of each operation's shape (intent.ts):
 *
 *   score = Σ over query terms of idf × f / (K1 + f)
 *           × (1 + ACTION × fit of method and path to the task's action)
 *           × (1 + SELF) when the task says "my" and the path is the current user's
 *           × (1 + RESOURCE) when the task names the path's resource (the collection before
 *             its sub-resources)
 *
 * A long task of several steps ("find X. Then get Y, and also Z") is ranked whole and clause by
 * clause, and the rankings are interleaved, so each step's best operations reach the first
 * results instead of the step with the rarest words taking them all.
 * Deterministic: equal scores keep the operations' order.
 */
import { matchAction, type OperationShape, type QueryIntent, readQueryIntent } from "./intent.js";
import type { Postings } from "./postings.js";
import { splitWords, toTerms } from "./tokenize.js";

export const TUNING = {
  k1: 1.2,
  action: 0.25,
  self: 0.5,
  resource: 0.25,
  /** A clause needs this many terms to be ranked on its own. */
  clauseTerms: 2,
};

export interface RankContext {
  postings: Postings;
  shapes: readonly OperationShape[];
  /** Operations that may be returned (the filters), or undefined for all. */
  allowed?: (doc: number) => boolean;
  /** Buffers of the postings' size, reused by every search (all zero between searches). */
  scratch: { scores: Float64Array; touched: Int32Array };
}

export function createScratch(size: number): RankContext["scratch"] {
  return { scores: new Float64Array(size), touched: new Int32Array(size) };
}

export interface Ranked {
  doc: number;
  score: number;
}

export function rankQuery(context: RankContext, query: string, limit: number): Ranked[] {
  const clauses = splitClauses(query)
    .map((clause) => toTerms(splitWords(clause)))
    .filter((terms) => new Set(terms).size >= TUNING.clauseTerms);
  const whole = rankWords(context, splitWords(query), limit);
  if (clauses.length < 2) return whole;
  const intent = readQueryIntent(splitWords(query));
  const lists = [whole, ...clauses.map((terms) => rankTerms(context, terms, intent, limit))];
  return interleave(lists, limit);
}

function rankWords(context: RankContext, words: string[], limit: number): Ranked[] {
  return rankTerms(context, toTerms(words), readQueryIntent(words), limit);
}

function rankTerms(context: RankContext, queryTerms: string[], intent: QueryIntent, limit: number): Ranked[] {
  const { postings, shapes, allowed, scratch } = context;
  const terms = [...new Set(queryTerms)];
  const n = postings.size;
  const scores = scratch.scores;
  const touched = scratch.touched;
  let count = 0;
  for (const term of terms) {
    const list = postings.terms.get(term);
    if (list === undefined) continue;
    const df = list.docs.length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const { docs, frequencies } = list;
    for (let j = 0; j < docs.length; j++) {
      const doc = docs[j]!;
      const f = frequencies[j]!;
      if (scores[doc] === 0) touched[count++] = doc;
      scores[doc]! += (idf * f) / (TUNING.k1 + f);
    }
  }
  const termSet = new Set(terms);
  // The best `limit`, kept sorted (best first, then the earlier operation) as they come.
  const best: Ranked[] = [];
  for (let i = 0; i < count; i++) {
    const doc = touched[i]!;
    const lexical = scores[doc]!;
    scores[doc] = 0;
    if (allowed !== undefined && !allowed(doc)) continue;
    const score = lexical * weighShape(intent, termSet, shapes[doc]!);
    if (best.length === limit && !isBetter(score, doc, best[limit - 1]!)) continue;
    let at = best.length;
    while (at > 0 && isBetter(score, doc, best[at - 1]!)) at--;
    best.splice(at, 0, { doc, score });
    if (best.length > limit) best.pop();
  }
  return best;
}

function isBetter(score: number, doc: number, than: Ranked): boolean {
  return score > than.score || (score === than.score && doc < than.doc);
}

/** The factor of the task's intent for one operation. */
function weighShape(intent: QueryIntent, terms: Set<string>, shape: OperationShape): number {
  let factor = 1 + TUNING.action * matchAction(intent, shape);
  if (intent.self && shape.self) factor *= 1 + TUNING.self;
  if (shape.resource !== "" && terms.has(shape.resource)) factor *= 1 + TUNING.resource;
  return factor;
}

/** Sentences, and the parts of a sentence joined by "then", "also", "additionally"... */
export function splitClauses(query: string): string[] {
  return query
    .split(
      /[.!?;:\n]+(?:\s|$)|\b(?:then|also|additionally|furthermore|moreover|finally|afterwards|besides|plus)\b|,\s*and\b/i,
    )
    .map((clause) => (clause ?? "").trim())
    .filter((clause) => clause !== "");
}

/** The first of each list, then the second of each, ...: each once, at its best place. */
function interleave(lists: Ranked[][], limit: number): Ranked[] {
  const seen = new Set<number>();
  const out: Ranked[] = [];
  const depth = Math.max(...lists.map((list) => list.length));
  for (let rank = 0; rank < depth && out.length < limit; rank++) {
    for (const list of lists) {
      const hit = list[rank];
      if (hit === undefined || seen.has(hit.doc)) continue;
      seen.add(hit.doc);
      out.push(hit);
      if (out.length >= limit) break;
    }
  }
  return out;
}
