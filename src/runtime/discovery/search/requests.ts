/**
 * A task that asks for several things ("Generate a QR code for the party. Also, I need a strong
 * password."): one answer for each is what the person needs among the first results, not five
 * near-identical answers to the first ask. StableToolBench's multi-tool tasks lost their second
 * half to a dozen QR code generators of a dozen APIs, each matching "qr code" as well as the last.
 *
 * So, in a task that says it asks for more ("Also, ...", "Additionally, ...", "Finally, ..." at a
 * sentence's start), the leading results are chosen one at a time: each of the task's terms
 * already matched by a chosen result of another API counts DISCOUNT less in the results still to
 * choose (once, however many matched it). Results of an API already chosen are not discounted:
 * one API's operations often answer a task together (a playlist's tracks and its metadata),
 * while another API's copy of a chosen operation adds little. The API is the operation's group
 * (intent.ts, its first tag; untagged operations are one group).
 *
 * Measured (bench/search/decided.md, round 11): without the gate, on every long task, the
 * ToolAlpaca single-step tasks in the pool lost (0.798 -> 0.784 recall@5): one request's best
 * operations share its words, and discounting them ranks incidental words' operations up.
 */
import type { OperationShape } from "./intent.js";
import type { Postings } from "./postings.js";

/** A sentence that starts by adding a request to the task's. */
const MORE_REQUESTS =
  /(?:^|[.?!]\s+)(?:also|additionally|furthermore|moreover|finally|lastly|besides|then|in addition|plus|next)\b/i;

/** Whether the task says that it asks for more than one thing. */
export function asksSeveral(query: string): boolean {
  return MORE_REQUESTS.test(query);
}

/** What a term already matched by a chosen result of another group is worth in the rest. */
export const DISCOUNT = 0.8;

/** Leading results chosen this way; the rest keep their order. */
export const SPREAD_RESULTS = 10;

/** A term of the ranking: the term, its weight, the task's term it stands for (rank.ts). */
export type WeightedTerm = readonly [term: string, weight: number, origin: string];

export interface Spread {
  postings: Postings;
  shapes: readonly OperationShape[];
  /** Saturation of BM25's term frequency (rank.ts TUNING.k1). */
  k1: number;
}

/**
 * Reorders `ranked` (best first) in place: its first SPREAD_RESULTS chosen one at a time, each
 * the best by its score with the terms other groups' chosen results matched discounted.
 */
export function spreadRequests(
  spread: Spread,
  ranked: { doc: number; score: number }[],
  weighted: readonly WeightedTerm[],
): void {
  const { shapes } = spread;
  const terms = listTerms(spread.postings, weighted);
  const left = ranked.map(({ doc, score }) => ({
    doc,
    score,
    group: shapes[doc]!.group.join(" "),
    parts: readTermScores(terms, doc, spread.k1),
  }));
  const chosen: typeof left = [];
  /** Per task term: the groups of the chosen results that matched it. */
  const matchedBy = new Map<string, Set<string>>();
  const chosenGroups = new Set<string>();
  while (left.length > 0 && chosen.length < SPREAD_RESULTS) {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    left.forEach((result, i) => {
      const score = chosenGroups.has(result.group) ? result.score : discount(result, matchedBy);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    const [next] = left.splice(best, 1);
    chosen.push(next!);
    chosenGroups.add(next!.group);
    for (const term of next!.parts.keys()) {
      const groups = matchedBy.get(term) ?? new Set<string>();
      groups.add(next!.group);
      matchedBy.set(term, groups);
    }
  }
  ranked.splice(0, ranked.length, ...[...chosen, ...left].map(({ doc, score }) => ({ doc, score })));
}

/** A result's score with its share from terms other groups' chosen results matched discounted. */
function discount(
  result: { score: number; group: string; parts: Map<string, number> },
  matchedBy: ReadonlyMap<string, ReadonlySet<string>>,
): number {
  let total = 0;
  let kept = 0;
  for (const [term, part] of result.parts) {
    total += part;
    kept += isMatchedElsewhere(matchedBy.get(term), result.group) ? part * DISCOUNT : part;
  }
  return total > 0 ? (result.score * kept) / total : result.score;
}

function isMatchedElsewhere(groups: ReadonlySet<string> | undefined, group: string): boolean {
  if (groups === undefined) return false;
  for (const other of groups) if (other !== group) return true;
  return false;
}

interface TermPostings {
  docs: readonly number[];
  frequencies: readonly number[];
  idf: number;
  origin: string;
}

/** The ranked terms that some operation has, each with its postings and weighted idf, once a task. */
function listTerms(postings: Postings, weighted: readonly WeightedTerm[]): TermPostings[] {
  const n = postings.size;
  const terms: TermPostings[] = [];
  for (const [term, weight, origin] of weighted) {
    const list = postings.terms.get(term);
    if (list === undefined) continue;
    const df = list.docs.length;
    terms.push({ ...list, idf: weight * Math.log(1 + (n - df + 0.5) / (df + 0.5)), origin });
  }
  return terms;
}

/** Per task term: what it adds to the operation's lexical score (rank.ts scoreTerms' sum). */
function readTermScores(terms: readonly TermPostings[], doc: number, k1: number): Map<string, number> {
  const parts = new Map<string, number>();
  for (const { docs, frequencies, idf, origin } of terms) {
    const at = findDoc(docs, doc);
    if (at < 0) continue;
    const f = frequencies[at]!;
    parts.set(origin, (parts.get(origin) ?? 0) + (idf * f) / (k1 + f));
  }
  return parts;
}

/** The operation's place in a term's (ascending) operations, or -1. */
function findDoc(docs: readonly number[], doc: number): number {
  let low = 0;
  let high = docs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (docs[middle]! < doc) low = middle + 1;
    else high = middle;
  }
  return low < docs.length && docs[low] === doc ? low : -1;
}
