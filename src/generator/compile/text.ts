/**
 * Spec prose → text for a model: HTML and markdown noise removed, links reduced to their words,
 * "see the docs" sentences dropped, and cut at a sentence boundary within a budget. Specs are
 * written for people reading docs pages; a model reads every character of every tool, every time.
 */

/** Sentences that only point elsewhere: they cost tokens and a model cannot follow them. */
const POINTER_SENTENCE =
  /(^|\s)(For more (information|details)|For (details|information)|(See|Read) (the |our )?(docs|documentation|guide|\[)|Learn more)[^.!?\n]*[.!?]?["'”’)\]]*/gi;

/**
 * Results a memo of this file keeps (cleanProse's, compactDescription's, restatesName's) before
 * it is emptied: specs repeat the same prose (shared parameters) thousands of times.
 */
const MAX_CACHED = 50_000;
/** Marks a line break to keep (HTML breaks, table rows) while soft ones are joined; removed after. */
const HARD_BREAK = "\uE000";
const SOFT_BREAK = /([^\n\uE000])\n(?!\n|- |\d+[.)] )/g;

/** Removes markup and noise; keeps paragraphs (blank lines) when `keepParagraphs`. */
export function cleanProse(value: unknown, keepParagraphs = true): string {
  if (typeof value !== "string" || value === "") return "";
  const memo = cleaned[keepParagraphs ? 0 : 1];
  return recall(memo, "", value) ?? store(memo, "", value, cleanUncached(value, keepParagraphs));
}

function cleanUncached(value: string, keepParagraphs: boolean): string {
  // Each step runs only when its text holds the character the step needs: GitHub's spec has
  // megabytes of prose, mostly plain, and every pass of a regex over it costs (about a fifth
  // of a cold start went here). The steps and their order are as before.
  let text = value;
  if (text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
  if (text.includes("<")) {
    text = text
      .replace(/<br\s*\/?>/gi, `${HARD_BREAK}\n`)
      .replace(/<\/(p|div|li|h\d)>/gi, `${HARD_BREAK}\n`)
      .replace(/<[a-z/!][^>]*>/gi, "");
  }
  if (text.includes("&")) {
    text = text
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&#(\d{1,6});/g, (entity, code: string) => fromCodePoint(Number(code), entity))
      .replace(/&#x([0-9a-f]{1,6});/gi, (entity, code: string) =>
        fromCodePoint(Number.parseInt(code, 16), entity),
      )
      .replace(/&amp;/g, "&");
  }
  if (text.includes("```")) text = text.replace(/```[\s\S]*?```/g, " ");
  if (text.includes("[")) {
    text = text
      .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1");
  }
  if (text.includes("#")) text = text.replace(/^\s{0,3}#{1,6}\s+/gm, "");
  // markdown tables: the separator row goes, cells are kept as "a; b"
  if (text.includes("--")) {
    text = text.replace(/^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*(\n|$)/gm, "");
  }
  if (text.includes("|")) {
    text = text.replace(/^[ \t]*\|(.*)\|[ \t]*$/gm, (_, cells: string) =>
      cells
        .split("|")
        .map((cell) => cell.trim())
        .join("; ")
        .concat(HARD_BREAK),
    );
  }
  // list bullets (*, +, -) become "- "
  if (text.includes("*") || text.includes("+") || text.includes("-")) {
    text = text.replace(/^[ \t]*[*+-][ \t]+/gm, "- ");
  }
  if (text.includes(">")) text = text.replace(/^\s{0,3}>\s?/gm, "");
  if (text.includes("[!")) {
    text = text.replace(
      /\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*/g,
      (_, kind: string) => `${kind[0]}${kind.slice(1).toLowerCase()}: `,
    );
  }
  if (text.includes("**") || text.includes("__")) text = text.replace(/(\*\*|__)(.+?)\1/g, "$2");
  if (text.includes("*") || text.includes("_")) {
    text = text.replace(/(^|[\s(])([*_])([A-Za-z0-9][^*_\n]*?[A-Za-z0-9.!?])\2(?=[\s.,;:!?)]|$)/gm, "$1$3");
  }
  if (text.includes("`")) text = text.replace(/`([^`]+)`/g, "$1");
  text = text.replace(POINTER_SENTENCE, "$1");
  text = text
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (!keepParagraphs) return text.replaceAll(HARD_BREAK, "").replace(/\s*\n+\s*/g, " ");
  // A single line break inside a paragraph is a space in markdown (specs wrap their prose at
  // some width); list items, table rows and paragraph breaks keep theirs.
  return text.replace(SOFT_BREAK, "$1 ").replaceAll(HARD_BREAK, "");
}

/** Words a period ends without ending the sentence: "(e.g. Paris)", "No. 5", "red, blue, etc. The". */
const ABBREVIATIONS = new Set(
  "e.g eg i.e ie etc vs approx no nos cf incl esp resp ca viz al fig mr mrs ms dr st".split(" "),
);
/** The end of a sentence: . ! or ? (and closing quotes), then space and no lower-case letter. */
const SENTENCE_END = /[.!?]+["'”’]*(?=\s+[^a-z\s])/g;
/** Sentences a description may have and still be kept whole when it fits its budget. */
const MAX_WHOLE_SENTENCES = 3;

/**
 * Where each sentence of `text` ends (the index after its punctuation). A period after a known
 * abbreviation ends none, and nothing inside parentheses or brackets that close does: cutting
 * there leaves "…to search around (e.g." and an unclosed parenthesis.
 */
export function findSentenceEnds(text: string): number[] {
  const depths = bracketDepths(text);
  const ends: number[] = [];
  for (const match of text.matchAll(SENTENCE_END)) {
    if ((depths[match.index] ?? 0) > 0) continue;
    if (match[0].startsWith(".") && endsAbbreviation(text, match.index)) continue;
    ends.push(match.index + match[0].length);
  }
  return ends;
}

function endsAbbreviation(text: string, dot: number): boolean {
  const word = /([A-Za-z][A-Za-z.]*)$/.exec(text.slice(Math.max(0, dot - 12), dot))?.[1];
  return word !== undefined && ABBREVIATIONS.has(word.toLowerCase());
}

/** The bracket depth at each index, counting only brackets that close (a stray "(" opens nothing). */
function bracketDepths(text: string): Int32Array {
  const delta = new Int32Array(text.length + 1);
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "(" || char === "[") open.push(i);
    else if ((char === ")" || char === "]") && open.length > 0) {
      const start = open.pop()!;
      delta[start] = (delta[start] ?? 0) + 1;
      delta[i] = (delta[i] ?? 0) - 1;
    }
  }
  let depth = 0;
  for (let i = 0; i < delta.length; i++) {
    depth += delta[i]!;
    delta[i] = depth;
  }
  return delta;
}

/**
 * Cuts text to at most `budget` characters, at the end of a sentence when one ends late
 * enough, else at a word, marking the cut with an ellipsis.
 */
export function fitText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  if (budget <= 1) return "";
  const cut = text.slice(0, budget - 1);
  const sentenceEnd = Math.max(
    findSentenceEnds(text.slice(0, budget + 1)).findLast((end) => end < budget) ?? -1,
    cut.lastIndexOf(".\n") + 1,
    cut.lastIndexOf("\n\n"),
  );
  if (sentenceEnd >= budget * 0.5) return cut.slice(0, sentenceEnd).trim();
  const wordEnd = cut.lastIndexOf(" ");
  return `${(wordEnd >= budget * 0.5 ? cut.slice(0, wordEnd) : cut).trimEnd()}…`;
}

/**
 * One-line description of a parameter or property within the budget: the whole text when it
 * fits and is short (a few sentences), else its first sentence (two when the first is very
 * short, and what follows when it ends with ":" and announces a list). Later sentences of long
 * argument docs are mostly caveats and cross-references; a model reads the first for what to
 * put there. `keepWhole` false (a text the API repeats on many operations) takes the lead even
 * when the whole would fit.
 */
export function compactDescription(value: unknown, budget: number, keepWhole = true): string {
  if (typeof value !== "string") return compactText(value, budget, keepWhole);
  const memo = compacted[keepWhole ? 0 : 1];
  return recall(memo, budget, value) ?? store(memo, budget, value, compactText(value, budget, keepWhole));
}

/**
 * Results of pure text functions, by the texts themselves (a string read from the spec keeps
 * its hash, a key made by joining texts would be hashed again at each look-up): a large API
 * repeats the same parameter texts on thousands of operations (Microsoft Graph's `$select`,
 * `$expand`, `ConsistencyLevel`...), each cut and compared again per operation. Bounded:
 * emptied when full, so a long-lived bridge planning many specs keeps no more.
 * compactDescription's: one per keepWhole, by budget then text.
 */
const compacted = [createMemo<number, string>(), createMemo<number, string>()] as const;
const restated = createMemo<string, boolean>();
/** cleanProse's, one per keepParagraphs, each bounded on its own. */
const cleaned = [createMemo<string, string>(), createMemo<string, string>()] as const;

interface Memo<K, T> {
  tables: Map<K, Map<string, T>>;
  size: number;
}

/** Results by a key and a text; emptied when it holds MAX_CACHED of them. */
function createMemo<K, T>(): Memo<K, T> {
  return { tables: new Map(), size: 0 };
}

/**
 * The result remembered for `outer` and `inner`, if any. Looked up and stored apart (no closure
 * to compute it): each argument and property description of every operation comes here.
 */
function recall<K, T>(memo: Memo<K, T>, outer: K, inner: string): T | undefined {
  return memo.tables.get(outer)?.get(inner);
}

function store<K, T>(memo: Memo<K, T>, outer: K, inner: string, value: T): T {
  if (memo.size >= MAX_CACHED) {
    memo.tables.clear();
    memo.size = 0;
  }
  let table = memo.tables.get(outer);
  if (table === undefined) {
    table = new Map();
    memo.tables.set(outer, table);
  }
  table.set(inner, value);
  memo.size += 1;
  return value;
}

function compactText(value: unknown, budget: number, keepWhole: boolean): string {
  const text = cleanProse(value, false);
  const ends = findSentenceEnds(text);
  if (
    keepWhole &&
    text.length <= budget &&
    ends.filter((end) => end < text.length).length < MAX_WHOLE_SENTENCES
  )
    return text;
  let taken = 0;
  let lead = "";
  const extend = () => {
    const end = ends[taken++] ?? text.length;
    lead = text.slice(0, end).trim();
    return end < text.length;
  };
  let more = extend();
  if (lead.length < 24 && more) more = extend();
  while (lead.endsWith(":") && more) more = extend();
  return fitText(lead, budget);
}

const FILLER_WORDS = new Set(
  "a an the of in on for to from by with and or this that these those its it is are be will all any given specified specific one".split(
    " ",
  ),
);

/** Content words, lower case, plural and third-person "s" taken off ("Lists" and "list" match). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((word) => !FILLER_WORDS.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word,
    );
}

/**
 * True when a description says nothing its argument's name does not ("secret_name": "The name
 * of the secret.", "deployment_id": "deployment_id parameter"): every content word is in the name.
 */
export function restatesName(name: string, description: string): boolean {
  return (
    recall(restated, name, description) ?? store(restated, name, description, compareWords(name, description))
  );
}

function compareWords(name: string, description: string): boolean {
  const known = new Set(contentWords(name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ")));
  return contentWords(description).every((word) => known.has(word) || word === "parameter");
}

/** `getPetById` → `Get pet by id`; `list_user-repos` → `List user repos`. */
export function humanizeIdentifier(identifier: string): string {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.\s/]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A numeric character reference's character, or the reference itself when it is not one. */
function fromCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
