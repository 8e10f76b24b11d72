/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), with the two
 * changes of his later reference version (`abli` → `able` became `bli` → `ble`, and `logi` →
 * `log`): `users` and `user`, `messages` and `message`, `created` and `creating` meet. Written
 * here from the paper's rules: five steps, each removing or replacing one suffix when what
 * remains is long enough (its "measure", the number of vowel-consonant sequences).
 * Words of one or two letters, and words with a digit or a letter outside a-z, stay as they are.
 */

const cache = new Map<string, string>();
const CACHE_LIMIT = 50_000;

/** The stem of a lower-case word. */
export function stem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let cached = cache.get(word);
  if (cached === undefined) {
    cached = stemWord(word);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, cached);
  }
  return cached;
}

/** `y` is a consonant at the start and after a vowel, a vowel after a consonant. */
function isConsonant(word: string, i: number): boolean {
  switch (word.charCodeAt(i)) {
    case 97: // a
    case 101: // e
    case 105: // i
    case 111: // o
    case 117: // u
      return false;
    case 121: // y
      return i === 0 ? true : !isConsonant(word, i - 1);
    default:
      return true;
  }
}

/** The number of vowel-consonant sequences in `word[0, end)`: [C](VC){m}[V]. */
function measure(word: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(word, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(word, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(word, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(word, i)) return true;
  return false;
}

/** Ends in a double consonant (`tt`, `ss`). */
function endsDouble(word: string, end: number): boolean {
  return end >= 2 && word[end - 1] === word[end - 2] && isConsonant(word, end - 1);
}

/** Ends consonant-vowel-consonant, the last not w, x or y (`hop`, not `snow`). */
function endsCvc(word: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(word, end - 1) || isConsonant(word, end - 2) || !isConsonant(word, end - 3)) return false;
  const last = word[end - 1];
  return last !== "w" && last !== "x" && last !== "y";
}

/** Replaces the first suffix of `rules` the word ends with, when the rest has measure > `min`. */
function replaceSuffix(word: string, rules: readonly (readonly [string, string])[], min: number): string {
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix)) {
      const base = word.length - suffix.length;
      return measure(word, base) > min ? word.slice(0, base) + replacement : word;
    }
  }
  return word;
}

const STEP2: readonly (readonly [string, string])[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

const STEP3: readonly (readonly [string, string])[] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

/** Longest first where one suffix ends another (`ement` before `ment` before `ent`). */
const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

function step1a(word: string): string {
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ies")) return word.slice(0, -2);
  if (word.endsWith("ss")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith("eed")) return measure(word, word.length - 3) > 0 ? word.slice(0, -1) : word;
  let base: string | undefined;
  if (word.endsWith("ed") && hasVowel(word, word.length - 2)) base = word.slice(0, -2);
  else if (word.endsWith("ing") && hasVowel(word, word.length - 3)) base = word.slice(0, -3);
  if (base === undefined) return word;
  if (base.endsWith("at") || base.endsWith("bl") || base.endsWith("iz")) return `${base}e`;
  if (endsDouble(base, base.length) && !/[lsz]$/.test(base)) return base.slice(0, -1);
  if (measure(base, base.length) === 1 && endsCvc(base, base.length)) return `${base}e`;
  return base;
}

function step1c(word: string): string {
  return word.endsWith("y") && hasVowel(word, word.length - 1) ? `${word.slice(0, -1)}i` : word;
}

function step4(word: string): string {
  // The longest matching suffix decides, whether or not its condition then holds.
  let match = "";
  for (const suffix of STEP4) if (word.endsWith(suffix) && suffix.length > match.length) match = suffix;
  if (match === "") return word;
  const base = word.length - match.length;
  if (measure(word, base) <= 1) return word;
  if (match === "ion" && !/[st]$/.test(word.slice(0, base))) return word;
  return word.slice(0, base);
}

function step5(word: string): string {
  if (word.endsWith("e")) {
    const base = word.length - 1;
    const m = measure(word, base);
    if (m > 1 || (m === 1 && !endsCvc(word, base))) word = word.slice(0, -1);
  }
  if (word.endsWith("ll") && measure(word, word.length) > 1) word = word.slice(0, -1);
  return word;
}

function stemWord(word: string): string {
  let w = step1a(word);
  w = step1b(w);
  w = step1c(w);
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}
