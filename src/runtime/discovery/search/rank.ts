/**
 * Ranking one query over the postings: BM25F (saturated, length-normalised field frequencies,
 * postings.ts) times what the task's intent says of each operation's shape (intent.ts):
 *
 *   score = Σ over query terms of idf × f / (K1 + f)
 *           × (1 + ACTION × fit of method and path to the task's action)
 *           × (1 + SELF) when the task says "my" and the path is the current user's
 *           × (1 + RESOURCE) when the task names the path's resource
 *           / (1 + DEPTH × fixed segments past the first, an `/api` or `/v2` prefix not counted)
 *           × (1 + NAMED) when the task names something ("Titanic", "'Naruto'") and the
 *             operation searches (its id for the name is what the next step needs)
 *           × (1 + NAMED_API) when the task names the operation's API ("the Anime DB API")
 *           × (1 + PHRASE × Σ over the task's word pairs that one of the operation's fields
 *             (name, title, path, tags, parameters, description) has side by side of
 *             (1 - the share of the first 50 that have it) ** 8; the task's "me" is the
 *             user in a pair, query-pairs.ts)
 *
 * so that a task naming a collection finds it before its sub-resources and before the same
 * collection deeper in the tree (`/me/events` before `/me/calendars/{id}/events`). Synonyms
 * (synonyms.ts) count at half weight. A long task that asks for several things ("Also, ...")
 * gets one answer per request among its first results, not another API's copy of an answer
 * already there (requests.ts).
 *
 * A short phrase (intent.ts, SHORT_QUERY_WORDS) is read more loosely, since it says less: the
 * vocabulary bridges of synonyms.ts, at full weight when the API names no resource by the
 * person's word and does by the bridged one ("mail" → `/messages`); an API's abbreviations
 * ("repos"); a word begun or two run together, and two words the API writes as one ("to do":
 * `todo`); "I" as the signed-in user (intent.ts); and the collection asked for before the one it
 * lives in (a container's words and their synonyms count at a quarter weight, its own operations
 * lose the resource factor: "all users in the organization"); a word of the API as the verb
 * that starts it ("fork a repository": a POST or PUT, intent.ts startsWithVerb); and in a
 * phrase that says which of the things it wants ("issues assigned to me"), the search whose name
 * has the thing before the operations named for the participle's act. On long multi-step tasks
 * each of these cost recall on some set (bench/search/decided.md).
 *
 * Measured and dropped (bench/results/search.md): ranking a long task clause by clause and
 * interleaving the rankings, and re-ranking for the coverage of the task's words; both lowered
 * recall on every multi-step set, whose gold operations share words more often than not.
 * Word pairs as extra terms were dropped too (a pair that dozens of near-identical operations
 * share, "qr code", crowded the other half of a two-part task out); weighed by how few of the
 * leading operations have them, as here, they separate the operation the task names.
 * Deterministic: equal scores keep the operations' order.
 */
import {
  hasFirstPerson,
  hasName,
  matchAction,
  type OperationShape,
  type QueryIntent,
  readQueryIntent,
  startsWithVerb,
} from "./intent.js";
import type { Postings } from "./postings.js";
import { readQueryPairs } from "./query-pairs.js";
import { asksSeveral, spreadRequests, type WeightedTerm } from "./requests.js";
import { stem } from "./stem.js";
import { findSynonyms } from "./synonyms.js";
import { splitWords, toTerms } from "./tokenize.js";

export const TUNING = {
  k1: 1.2,
  action: 0.25,
  self: 0.5,
  resource: 0.25,
  /**
   * Per fixed path segment past the first: sub-resources after their collection, and Graph's
   * deep navigation copies of a resource after the resource.
   */
  depth: 0.25,
  /** What a synonym's match is worth against the word's own. */
  synonym: 0.5,
  /** What a word of the place the task's object lives in is worth ("in the organization"). */
  container: 0.25,
  /** A task that names something ("the movie Titanic") may need the search that finds it first. */
  named: 0.15,
  /**
   * The operations of an API the task names as one ("fetch an anime by its ID using the Anime DB
   * API"; rank.ts findNamedGroups): StableToolBench's tasks name the RapidAPI tool that many
   * near-identical ones would answer alike. At 1, R@1 fell on G2_category and G1_instruction.
   */
  namedApi: 0.5,
  /** A short phrase naming a time span ("this week") and an operation that takes one (calendarView). */
  span: 0.25,
  /**
   * An administrator's operation when the task does not say "admin": Slack's
   * `admin.usergroups.listChannels` came before `conversations.list` for "list channels".
   */
  admin: 0.25,
  /**
   * Per pair of the task's words that one of the operation's fields has side by side ("exchange
   * rate", "user data", a description's "expiring domain names"), at most `phraseMax` pairs,
   * each worth (1 - the share of the leading operations that have it) ** `phraseShare`: a pair
   * most of them share separates none. Read in the name, title and path only, at 0.2 and ** 4,
   * until round 7 (bench/search/decided.md).
   */
  phrase: 0.5,
  phraseShare: 8,
  phraseMax: 2,
  /**
   * A filtered phrase ("issues assigned to me"): an operation named for doing what the
   * participle says (`assignIssue`) counts 1/(1 + doer); one that finds and whose name has the
   * thing asked for (`searchForIssuesUsingJql`) 1 + finder. Jira's JQL search 6th -> 2nd, for "find
   * issues assigned to me" and "issues assigned to me" alike.
   */
  doer: 0.5,
  finder: 0.5,
};

/** Distinct terms of a query ranked; the rest are not read. */
export const MAX_QUERY_TERMS = 64;

/** The leading operations that the phrase factor re-orders (and whose share of a pair it weighs). */
const PHRASE_WINDOW = 50;

export interface RankContext {
  postings: Postings;
  shapes: readonly OperationShape[];
  /** Operations that may be returned (the filters), or undefined for all. */
  allowed?: (doc: number) => boolean;
  /** Buffers of the postings' size, reused by every search (all zero between searches). */
  scratch: { scores: Float64Array; touched: Int32Array; owned: Uint8Array };
  /**
   * Per operation: its terms in order, every field in FIELDS order, as numbers into
   * `vocabulary`, FIELD_END between fields (word pairs).
   */
  sequences?: readonly Int32Array[];
  vocabulary?: readonly string[];
  /** Every resource an operation's path names (OperationShape.resource): the API's nouns. */
  resources?: ReadonlySet<string>;
}

export function createScratch(size: number): RankContext["scratch"] {
  return { scores: new Float64Array(size), touched: new Int32Array(size), owned: new Uint8Array(size) };
}

export interface Ranked {
  doc: number;
  score: number;
}

export function rankQuery(context: RankContext, query: string, limit: number): Ranked[] {
  const words = splitWords(query);
  const sequence = toTerms(words);
  const intent = readQueryIntent(words, hasName(query), hasFirstPerson(query));
  // "fork a repository", "reboot a droplet": a word of the API as the phrase's verb.
  if (intent.short && intent.actions.size === 0 && startsWithVerb(query, knowsTerm(context), isBridged))
    intent.actions.add("apply");
  // At most MAX_QUERY_TERMS distinct terms: a hostile query of thousands of words costs no more
  // than a task's.
  const terms = [...new Set(sequence)].slice(0, MAX_QUERY_TERMS);
  // In a short phrase, two words an API writes as one ("to do": `todo`, "sign in": `signin`).
  if (intent.short) {
    for (const compound of findCompounds(context.postings, words)) {
      if (!terms.includes(compound)) terms.push(compound);
    }
  }
  const { sequences, vocabulary } = context;
  const weighted = weighTerms(context, terms, intent);
  const named = findNamedGroups(sequence);
  if (sequences === undefined || vocabulary === undefined || sequence.length < 2)
    return scoreTerms(context, weighted, terms, intent, named, limit);
  // The task's word pairs, in its order ("list of users" gives "list user"; "me" is the user).
  const pairs = readQueryPairs(words);
  // Always the same leading operations, whatever the limit, so a result's rank does not depend on it.
  const candidates = scoreTerms(context, weighted, terms, intent, named, Math.max(limit, PHRASE_WINDOW));
  if (intent.filtered) weighFiltered(candidates, context, intent);
  const wanted = numberPairs(vocabulary, pairs);
  const found = candidates.map(({ doc }) => findPairs(sequences[doc]!, vocabulary, wanted));
  const share = new Map<string, number>();
  for (const seen of found) {
    for (const pair of seen) share.set(pair, (share.get(pair) ?? 0) + 1 / candidates.length);
  }
  candidates.forEach((candidate, i) => {
    let bonus = 0;
    for (const pair of found[i]!) bonus += (1 - share.get(pair)!) ** TUNING.phraseShare;
    candidate.score *= 1 + TUNING.phrase * Math.min(bonus, TUNING.phraseMax);
  });
  candidates.sort((a, b) => b.score - a.score || a.doc - b.doc);
  // "... Also, I need ...": one answer for each request first (requests.ts).
  if (!intent.short && asksSeveral(query))
    spreadRequests(
      { postings: context.postings, shapes: context.shapes, k1: TUNING.k1 },
      candidates,
      weighted,
    );
  return candidates.slice(0, limit);
}

const knowsTerm =
  (context: RankContext) =>
  (term: string): boolean =>
    context.postings.terms.has(term);

const isBridged = (term: string): boolean => findSynonyms(term, true).length > 0;

/**
 * "issues assigned to me": the search that finds the things asked for by what the participle
 * says of them, not the operations named for doing it. An operation whose name starts with the
 * participle's verb (`assignIssue`, `findAssignableUsers` reads "assign user") does the act; one
 * that finds (`searchForIssuesUsingJql`) and whose name has the thing asked for is the answer.
 */
function weighFiltered(candidates: Ranked[], context: RankContext, intent: QueryIntent): void {
  const { sequences, vocabulary, shapes } = context;
  if (sequences === undefined || vocabulary === undefined) return;
  const numbers = numberTerms(vocabulary);
  const targets = new Set([...intent.targets].map((t) => numbers.get(t)).filter((n) => n !== undefined));
  const acts = new Set([...intent.qualifiers].map((t) => numbers.get(t)).filter((n) => n !== undefined));
  for (const candidate of candidates) {
    const sequence = sequences[candidate.doc]!;
    // The name is the sequence's first field.
    let end = sequence.indexOf(FIELD_END);
    if (end < 0) end = sequence.length;
    if (end === 0) continue;
    if (acts.has(sequence[0]!)) candidate.score /= 1 + TUNING.doer;
    else if (shapes[candidate.doc]!.finds && sequence.subarray(0, end).some((n) => targets.has(n)))
      candidate.score *= 1 + TUNING.finder;
  }
}

function numberTerms(vocabulary: readonly string[]): Map<string, number> {
  let numbers = termNumbers.get(vocabulary);
  if (numbers === undefined) {
    numbers = new Map(vocabulary.map((term, n) => [term, n]));
    termNumbers.set(vocabulary, numbers);
  }
  return numbers;
}

/** Between two fields of a sequence (RankContext.sequences): no pair spans it. */
export const FIELD_END = -1;

/** Per vocabulary: each term's number (built on the first search that reads pairs). */
const termNumbers = new WeakMap<readonly string[], Map<string, number>>();

/**
 * The task's pairs that an operation has side by side in one of its fields (a pair never spans
 * two fields), compared as numbers: a candidate's sequence is read without making a string of
 * each of its pairs.
 */
function findPairs(
  sequence: Int32Array,
  vocabulary: readonly string[],
  wanted: ReadonlyMap<number, string>,
): Set<string> {
  const seen = new Set<string>();
  const size = vocabulary.length;
  for (let i = 1; i < sequence.length; i++) {
    const a = sequence[i - 1]!;
    const b = sequence[i]!;
    if (a === FIELD_END || b === FIELD_END) continue;
    const pair = wanted.get(a * size + b);
    if (pair !== undefined) seen.add(pair);
  }
  return seen;
}

/** The task's pairs by the numbers of their terms (a pair of a term no operation has is none). */
function numberPairs(vocabulary: readonly string[], pairs: ReadonlySet<string>): Map<number, string> {
  const numbers = numberTerms(vocabulary);
  const wanted = new Map<number, string>();
  for (const pair of pairs) {
    const [a, b] = pair.split(" ");
    const first = numbers.get(a!);
    const second = numbers.get(b!);
    if (first !== undefined && second !== undefined) wanted.set(first * vocabulary.length + second, pair);
  }
  return wanted;
}

/**
 * The terms ranked: the task's own and what stands for them (synonyms, an API's abbreviations,
 * the words an unknown word begins), each [term, weight, the task's term it stands for].
 */
function weighTerms(context: RankContext, terms: readonly string[], intent: QueryIntent): WeightedTerm[] {
  const { postings, resources } = context;
  const own = new Set(terms);
  // A container's term ("organization" in "users in the organization") says where, not what: it
  // counts for less.
  const weighted: [string, number, string][] = terms.map((term) => [
    term,
    intent.containers.has(term) ? TUNING.container : 1,
    term,
  ]);
  // "how many" asks for a count operation (idioms.ts gives `$count` paths the word).
  if (intent.actions.has("count") && !own.has("count")) weighted.push(["count", TUNING.synonym, "count"]);
  const lead = intent.lead === "" ? "" : stem(intent.lead);
  for (const term of terms) {
    const synonyms = findSynonyms(term, intent.short, term === lead).filter((synonym) => !own.has(synonym));
    // The task's noun is not the API's ("mail" where the API has `/messages`): when no
    // operation is named by the word and one is by its synonym, the synonym is what it means.
    const swap =
      intent.short &&
      resources !== undefined &&
      !resources.has(term) &&
      synonyms.some((s) => resources.has(s));
    if (swap) weighted[weighted.findIndex(([own]) => own === term)]![1] *= TUNING.synonym;
    // A container's synonyms say where, as the container's own word does ("attachments of an
    // email": `message` is where the attachments are, not what is asked for).
    const where = intent.containers.has(term) ? TUNING.container : 1;
    for (const synonym of synonyms) weighted.push([synonym, (swap ? 1 : TUNING.synonym) * where, term]);
    // An API's abbreviation of the word ("repos" for "repositories"), in a short phrase.
    if (intent.short) {
      for (const other of findAbbreviations(postings, term)) {
        if (!own.has(other)) weighted.push([other, TUNING.synonym, term]);
      }
    }
    // In a short phrase, a word no operation has may be the start of one ("calend") or two run
    // together ("directreports"): the operations' words it begins, or the two it is made of. (In
    // a long task such a word is more often a name or a value: there it cost recall.)
    if (intent.short && !postings.terms.has(term)) {
      for (const other of expandUnknown(postings, term)) {
        if (!own.has(other)) weighted.push([other, TUNING.synonym, term]);
      }
    }
  }
  return weighted;
}

/**
 * The groups (intent.ts OperationShape.group, an API's tag) the task names as an API: the
 * group's terms side by side in the task, then "API" ("using the Anime DB API", "the tes API"),
 * or a group whose name ends with it ("Shazam API"). Keyed by the shapes' own arrays, as read.
 */
function findNamedGroups(sequence: readonly string[]): (group: readonly string[]) => boolean {
  const memo = new Map<readonly string[], boolean>();
  return (group) => {
    let named = memo.get(group);
    if (named === undefined) {
      named = namesGroup(sequence, group);
      memo.set(group, named);
    }
    return named;
  };
}

/** Whether the task's terms have the group's, in order, followed by "api" unless it ends with it. */
export function namesGroup(sequence: readonly string[], group: readonly string[]): boolean {
  const api = group.at(-1) === API_TERM;
  // A group named "API" alone is named by every task that says the word.
  if (group.length === (api ? 1 : 0)) return false;
  for (let i = 0; i + group.length <= sequence.length; i++) {
    let j = 0;
    while (j < group.length && sequence[i + j] === group[j]) j++;
    if (j === group.length && (api || sequence[i + j] === API_TERM)) return true;
  }
  return false;
}

/** The term of the word "API". */
const API_TERM = "api";

function scoreTerms(
  context: RankContext,
  weighted: readonly WeightedTerm[],
  terms: readonly string[],
  intent: QueryIntent,
  named: (group: readonly string[]) => boolean,
  limit: number,
): Ranked[] {
  const { postings, shapes, allowed, scratch } = context;
  const n = postings.size;
  const scores = scratch.scores;
  const touched = scratch.touched;
  let count = 0;
  const owned = scratch.owned;
  for (const [term, weight, origin] of weighted) {
    const list = postings.terms.get(term);
    if (list === undefined) continue;
    const df = list.docs.length;
    const idf = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const { docs, frequencies } = list;
    const marks = intent.owned.has(origin);
    for (let j = 0; j < docs.length; j++) {
      const doc = docs[j]!;
      const f = frequencies[j]!;
      if (scores[doc] === 0) touched[count++] = doc;
      scores[doc]! += (idf * f) / (TUNING.k1 + f);
      if (marks) owned[doc] = 1;
    }
  }
  // What the task names: in a short phrase by its words or theirs (a bridge's "message" for
  // "mail"); in a long task by its own words (the synonyms' resources there cost recall).
  const termSet = intent.short ? new Set(weighted.map(([term]) => term)) : new Set(terms);
  // The best `limit`, kept sorted (best first, then the earlier operation) as they come.
  const best: Ranked[] = [];
  for (let i = 0; i < count; i++) {
    const doc = touched[i]!;
    const lexical = scores[doc]!;
    // "my messages" favours the user's paths that have messages; "my" alone, all of them.
    const owns = intent.owned.size === 0 || owned[doc] === 1;
    scores[doc] = 0;
    owned[doc] = 0;
    if (allowed !== undefined && !allowed(doc)) continue;
    const shape = shapes[doc]!;
    let score = lexical * weighShape(intent, termSet, shape, owns);
    if (named(shape.group)) score *= 1 + TUNING.namedApi;
    if (best.length === limit && !isBetter(score, doc, best[limit - 1]!)) continue;
    let at = best.length;
    while (at > 0 && isBetter(score, doc, best[at - 1]!)) at--;
    best.splice(at, 0, { doc, score });
    if (best.length > limit) best.pop();
  }
  return best;
}

/** Sorted vocabularies of the postings, for prefix look-ups (built on the first unknown word). */
const vocabularies = new WeakMap<Postings, string[]>();

/** Most operation words an unknown query word stands for. */
const MAX_EXPANSIONS = 4;
/** Shortest unknown word read as the start of others. */
const MIN_PREFIX = 3;

/**
 * The operation words an unknown query term stands for: those it begins (the most common
 * first, at most MAX_EXPANSIONS), else the two known words it is made of.
 */
export function expandUnknown(postings: Postings, term: string): string[] {
  if (term.length < MIN_PREFIX || !/^[a-z]+$/.test(term)) return [];
  let vocabulary = vocabularies.get(postings);
  if (vocabulary === undefined) {
    vocabulary = [...postings.terms.keys()].sort();
    vocabularies.set(postings, vocabulary);
  }
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (vocabulary[middle]! < term) low = middle + 1;
    else high = middle;
  }
  const begun: string[] = [];
  // Bounded: a short prefix may begin thousands of words; the first 256 are weighed.
  for (let i = low; i < vocabulary.length && i < low + 256 && vocabulary[i]!.startsWith(term); i++)
    begun.push(vocabulary[i]!);
  if (begun.length > 0) {
    const df = (word: string) => postings.terms.get(word)!.docs.length;
    return begun.sort((a, b) => df(b) - df(a) || (a < b ? -1 : 1)).slice(0, MAX_EXPANSIONS);
  }
  for (let cut = MIN_PREFIX; cut <= term.length - MIN_PREFIX; cut++) {
    const head = stem(term.slice(0, cut));
    const tail = stem(term.slice(cut));
    if (postings.terms.has(head) && postings.terms.has(tail)) return [head, tail];
  }
  return [];
}

/** Shortest word two query words run together may make. */
const MIN_COMPOUND = 4;

/**
 * The API's terms that two neighbouring query words make run together ("to do" → `todo`, "sign
 * in" → `signin`, "web hook" → `webhook`): an API writes as one identifier what a person writes
 * as two words, often of stop words a term never has ("to", "do").
 */
export function findCompounds(postings: Postings, words: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const joined = `${words[i - 1]}${words[i]}`;
    if (joined.length < MIN_COMPOUND || !/^[a-z]+$/.test(joined)) continue;
    const term = stem(joined);
    if (postings.terms.has(term) && !found.includes(term)) found.push(term);
  }
  return found;
}

/** Shortest abbreviation read, and the least a word must be longer than it. */
const MIN_ABBREVIATION = 3;
const ABBREVIATED_BY = 3;

/** The operation words that begin a query term and are much shorter ("repo" of "repositori"). */
export function findAbbreviations(postings: Postings, term: string): string[] {
  const found: string[] = [];
  if (!/^[a-z]+$/.test(term)) return found;
  for (let end = MIN_ABBREVIATION; end <= term.length - ABBREVIATED_BY; end++) {
    const head = term.slice(0, end);
    if (postings.terms.has(head)) found.push(head);
  }
  return found;
}

function isBetter(score: number, doc: number, than: Ranked): boolean {
  return score > than.score || (score === than.score && doc < than.doc);
}

function hasContainerParent(intent: QueryIntent, shape: OperationShape): boolean {
  if (intent.containers.size === 0) return false;
  for (const parent of shape.parents) if (intent.containers.has(parent)) return true;
  return false;
}

/**
 * A POST whose last segment is the verb a short phrase starts with, after an item: an action
 * on it (Graph's `/teams/{id}/schedule`, read and replaced, is a resource named like a verb).
 */
function acts(intent: QueryIntent, shape: OperationShape): boolean {
  return (
    intent.lead !== "" &&
    shape.method === "post" &&
    shape.lastWord === intent.lead &&
    shape.itemDepth > 0 &&
    !shape.item
  );
}

/** The factor of the task's intent for one operation. */
export function weighShape(
  intent: QueryIntent,
  terms: Set<string>,
  shape: OperationShape,
  owns: boolean,
): number {
  let factor = 1 + TUNING.action * matchAction(intent, shape);
  if (intent.self && shape.self && owns) factor *= 1 + TUNING.self;
  // The collection the task asks for before the one it says it lives in ("users in the
  // organization": /users, then /organization).
  if (shape.resource !== "" && intent.containers.has(shape.resource)) factor /= 1 + TUNING.resource;
  else if (shape.resource !== "" && terms.has(shape.resource)) factor *= 1 + TUNING.resource;
  // "cards on a board": the board's own cards (`/boards/{id}/cards`) are the answer, one level
  // deeper than `/cards/{id}`; that level costs nothing when it is the place the task names.
  const nested = shape.depth > 1 && terms.has(shape.resource) && hasContainerParent(intent, shape);
  // "attach a volume": `/volumes/{id}/actions/attach` is the phrase's verb done to one volume,
  // as deep as the volume, not two levels below it (Hetzner's attach came after POST /volumes).
  const depth = acts(intent, shape) ? shape.itemDepth : shape.depth;
  if (depth > 1) factor /= 1 + TUNING.depth * (depth - (nested ? 2 : 1));
  if ((intent.named || intent.filtered) && shape.finds) factor *= 1 + TUNING.named;
  if (intent.timed && shape.spans) factor *= 1 + TUNING.span;
  if (shape.admin && !terms.has("admin")) factor /= 1 + TUNING.admin;
  return factor;
}
