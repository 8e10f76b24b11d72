/**
 * The differential check of the bounded regex engine against V8's RegExp: seeded random
 * patterns (atoms, groups, alternatives, quantifiers, assertions, classes, Unicode), 8 random
 * inputs each; the first disagreement is the answer. bounded-regexp.test.ts runs a sample of it
 * in the everyday loop, bounded-regexp.slow.test.ts all 20,000 patterns.
 */
import { boundedRegExp, withMatchBudget } from "../../../../src/runtime/regex/bounded-regexp.js";

/** A small seeded generator, so a failure is reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS = [
  "a",
  "b",
  ".",
  "[ab]",
  "[^a]",
  "\\d",
  "\\w",
  "\\s",
  "\\b",
  "\\B",
  "^",
  "$",
  "x",
  "😀",
  "[a-c]",
  "\\u0061",
  "\\x62",
  "(?:a|b)",
  "(a)",
  "(?=a)",
  "(?!b)",
  "[]",
  "[^]",
  "\\p{L}",
  "\\P{L}",
];
const QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?", "{0,2}?"];
const CHARS = ["a", "b", "c", "x", "1", " ", "😀", "é", "_", "-"];
const UNQUANTIFIED = new Set(["^", "$", "\\b", "\\B", "(?=a)", "(?!b)"]);

/** What one run checked: the inputs compared, and the first disagreement if any. */
export interface DifferentialResult {
  checked: number;
  disagreement?: string;
}

/** Compares `patterns` random patterns (those V8 compiles), 8 inputs each, from `seed`. */
export function runDifferential(patterns: number, seed = 1234): DifferentialResult {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const pattern = (depth: number): string => {
    let out = "";
    const terms = 1 + Math.floor(next() * 4);
    for (let i = 0; i < terms; i++) {
      const group = depth < 2 && next() < 0.2;
      const atom = group
        ? `(${pattern(depth + 1)}${next() < 0.3 ? `|${pattern(depth + 1)}` : ""})`
        : pick(ATOMS);
      out += UNQUANTIFIED.has(atom) ? atom : atom + pick(QUANTIFIERS);
    }
    return out;
  };
  let checked = 0;
  for (let i = 0; i < patterns; i++) {
    const source = pattern(0);
    let native: RegExp;
    try {
      native = new RegExp(source, "u");
    } catch {
      continue;
    }
    const bounded = boundedRegExp(source, "u");
    // V8 also tries \b and \B between the halves of a surrogate pair; the matcher does not.
    const pool = /\\[bB]/.test(source) ? CHARS.filter((c) => c !== "😀") : CHARS;
    for (let j = 0; j < 8; j++) {
      let input = "";
      for (let k = Math.floor(next() * 7); k > 0; k--) input += pick(pool);
      const mine = withMatchBudget(() => bounded.test(input));
      if (mine !== native.test(input))
        return {
          checked,
          disagreement: `/${source}/u on ${JSON.stringify(input)}: V8 ${!mine}, bounded ${mine}`,
        };
      checked++;
    }
  }
  return { checked };
}
