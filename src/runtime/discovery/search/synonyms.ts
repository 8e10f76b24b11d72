/**
 * A few words that tasks and specs use for the same thing, each group as stems. Deliberately
 * short: only everyday words whose groups helped on every evaluation set (bench/search), none
 * tied to one API. A synonym counts for less than the word itself (rank.ts).
 */
import { stem } from "./stem.js";

const GROUPS = [
  "image picture photo pic",
  "movie film",
  "email mail",
  "song track",
  "car vehicle",
  "cost price",
];

const SYNONYMS = new Map<string, string[]>();
for (const group of GROUPS) {
  const stems = group.split(" ").map(stem);
  for (const term of stems)
    SYNONYMS.set(
      term,
      stems.filter((other) => other !== term),
    );
}

/** The other stems of a stem's group, or none. */
export function findSynonyms(term: string): readonly string[] {
  return SYNONYMS.get(term) ?? [];
}
