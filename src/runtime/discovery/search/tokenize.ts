/**
 * Words of operation fields and of queries: identifiers split where their case or separators
 * change (`listUserRepos`, `list_user_repos`, `list-user-repos`, `HTMLPage`), path parameters
 * (`{petId}`) and OData parentheses removed, lower-cased; then terms: stop words dropped and
 * the rest stemmed (stem.ts), so that "messages" finds `message` and "created" `create`.
 */
import { stem } from "./stem.js";

/** English words that say nothing about which operation a task needs. */
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being " +
    "below between both but by can could did do does doing down during each few for from further had " +
    "has have having he her here hers herself him himself his how i if in into is it its itself just " +
    "let like more most much must no nor not now of off on once only or other our ours ourselves out " +
    "over own please same she should so some such than that the their theirs them themselves then " +
    "there these they this those through to too under until up us very via want was we were what when " +
    "where which while who whom why will with would you your yours yourself yourselves " +
    "need needs wants help kindly could may might shall able sure know tell give provide using use " +
    "also additionally furthermore moreover besides interested curious wondering planning going " +
    "get gets got fetch fetches retrieve retrieves show shows find finds"
  ).split(" "),
);

/**
 * Words of the current user ("my"), kept out of the terms: they match no field by their letters
 * and are read as the self intent (intent.ts).
 */
export const SELF_WORDS = new Set(["my", "me", "mine", "myself"]);

/** Separators of identifiers and prose alike, and `{param}` / `(...)` groups of paths. */
const CAMEL_LOWER_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu;
const CAMEL_ACRONYM = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Lower-case words of a text or identifier, in order; one-letter words dropped. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  const spaced = text.replace(CAMEL_LOWER_UPPER, "$1 $2").replace(CAMEL_ACRONYM, "$1 $2");
  for (const word of spaced.toLowerCase().split(NON_WORD)) {
    if (word.length > 1 || /\d/.test(word)) words.push(word);
  }
  return words;
}

/**
 * The words of a path template's fixed segments, in order: `{param}` segments, OData key and
 * function arguments (`(...)`) and the `microsoft.graph.` style namespaces dropped.
 */
export function splitPathWords(path: string): string[] {
  return splitWords(
    path
      .replace(/\{[^}]*\}/g, " ")
      .replace(/\([^)]*\)/g, " ")
      .replace(/\b[a-z]+\.[a-z]+\./gi, " "),
  );
}

/** A word that names nothing: a stop word, or a hash-like run of digits and letters (`c7043eb4`). */
export function isNoise(word: string): boolean {
  return (
    STOP_WORDS.has(word) ||
    SELF_WORDS.has(word) ||
    (/\d/.test(word) && /[a-z]/.test(word) && word.length >= 6)
  );
}

/** Terms of the words: noise dropped, stemmed. */
export function toTerms(words: readonly string[]): string[] {
  const terms: string[] = [];
  for (const word of words) if (!isNoise(word)) terms.push(stem(word));
  return terms;
}
