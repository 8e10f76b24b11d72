/**
 * Spec-supplied regular expressions (`pattern`, `patternProperties`, the regex `format`s), run
 * in bounded time, so that one argument cannot block the event loop: with V8's backtracking
 * engine, `^(a+)+$` against 41 characters takes minutes, and every session and `/healthz` wait.
 *
 * - A pattern whose shape cannot make V8 backtrack more than a constant per character
 *   (anchored with `^`, one unbounded repetition at most, no repetition inside a repetition, no
 *   repeated alternatives, no lookaround, small counted repetitions) runs natively: most spec
 *   patterns (`^[a-z0-9-]{1,63}$`, `^[A-Za-z0-9+/]+={0,2}$`) are like that, and V8 is 50 to 100
 *   times faster than the matcher below.
 * - Any other the linear-time matcher can run (everything but lookbehinds and backreferences)
 *   runs there, its steps counted against the budget of the current validation
 *   (`withMatchBudget`): a value that would exceed it fails the call with PatternLimitError.
 * - Any other runs natively, on values up to a length that bounds its worst case: 16 characters
 *   when a repetition is nested in a repetition (exponential), else a length that keeps n^k
 *   under 10^7 steps for its k unbounded repetitions; longer values fail with PatternLimitError.
 *
 * A linear-time engine from npm (re2js, pure JavaScript) would run every pattern, lookbehinds
 * and backreferences aside; this needs no package, and generated projects ship it as it is.
 */
import {
  compileLinear,
  type LinearMatcher,
  MatchBudgetError,
  matchBudget,
  startsAnchored,
} from "./linear-match.js";
import { type PatternNode, parsePattern } from "./parse-pattern.js";

/** Steps one validation (or one response check) may spend in spec regexes: tens of milliseconds. */
export const DEFAULT_MATCH_STEPS = 20_000_000;

/** Thrown by `test` when a value cannot be checked against the pattern in bounded time. */
export class PatternLimitError extends Error {
  constructor(
    readonly pattern: string,
    /** The longest value the pattern is run on natively; absent when the step budget ran out. */
    readonly maxLength?: number,
  ) {
    super(
      maxLength === undefined
        ? `the value is too long to be checked against the pattern ${JSON.stringify(pattern)} in bounded time`
        : `the pattern ${JSON.stringify(pattern)} (lookbehind or backreference) is only checked on values of at most ${maxLength} characters`,
    );
    this.name = "PatternLimitError";
  }
}

export interface RegExpLike {
  test(input: string): boolean;
}

/** Patterns nested deeper than this (parentheses) are not parsed: run with the strictest cap. */
const MAX_GROUP_DEPTH = 200;
/** Values a pattern with nested repetition is run on natively at most (2^16 steps). */
const NESTED_MAX_LENGTH = 16;
const FALLBACK_MAX_STEPS = 1e7;
const FALLBACK_MAX_LENGTH = 1000;

const compiled = new Map<string, RegExpLike>();
const MAX_CACHED = 2000;

/**
 * `new RegExp(pattern, flags)` with the guarantees above; a pattern no dialect compiles tests
 * true (written for another engine, it must not make a whole tool unusable).
 */
export function boundedRegExp(pattern: string, flags = "u"): RegExpLike {
  const key = `${flags}/${pattern}`;
  const known = compiled.get(key);
  if (known) return known;
  // Ajv keys the regexes of one instance by toString(): each must have its own.
  const made = Object.assign(makeBounded(pattern, flags), { toString: () => `/${pattern}/${flags}` });
  if (compiled.size >= MAX_CACHED) compiled.clear();
  compiled.set(key, made);
  return made;
}

function makeBounded(pattern: string, flags: string): RegExpLike {
  let native: RegExp;
  let unicode = flags.includes("u");
  try {
    native = new RegExp(pattern, flags);
  } catch {
    try {
      native = new RegExp(pattern, flags.replace("u", ""));
      unicode = false;
    } catch {
      return { test: () => true };
    }
  }
  let cap = NESTED_MAX_LENGTH;
  if (unicode && groupDepth(pattern) <= MAX_GROUP_DEPTH) {
    const parsed = parsePattern(pattern);
    if (parsed.ok) {
      if (backtracksLinearly(parsed.node)) return { test: (input) => native.test(input) };
      const matcher = compileLinear(parsed.node, flags);
      if (matcher) return linear(pattern, matcher);
    } else if (!parsed.nested) {
      cap = Math.min(
        FALLBACK_MAX_LENGTH,
        Math.max(NESTED_MAX_LENGTH, Math.floor(FALLBACK_MAX_STEPS ** (1 / Math.max(1, parsed.unbounded)))),
      );
    }
  }
  const maxLength = cap;
  return {
    test: (input) => {
      if (input.length > maxLength) throw new PatternLimitError(pattern, maxLength);
      return native.test(input);
    },
  };
}

function linear(pattern: string, matcher: LinearMatcher): RegExpLike {
  return {
    test: (input) => {
      try {
        return matcher.test(input);
      } catch (error) {
        if (error instanceof MatchBudgetError) throw new PatternLimitError(pattern);
        throw error;
      }
    },
  };
}

/** The product of counted repetitions' sizes a natively run pattern may have. */
const MAX_NATIVE_PRODUCT = 10_000;

/**
 * True when backtracking cannot cost more than a constant per character: the match can only
 * start at 0, so only one unbounded repetition can give back characters, and what follows it
 * is tried in a bounded number of ways for each (the counted repetitions' sizes multiplied).
 */
function backtracksLinearly(root: PatternNode): boolean {
  if (!startsAnchored(root)) return false;
  let unbounded = 0;
  let product = 1;
  const visit = (node: PatternNode, inRepeat: boolean): boolean => {
    switch (node.type) {
      case "repeat": {
        if (inRepeat) return false;
        if (node.max === Number.POSITIVE_INFINITY) unbounded++;
        else product *= node.max + 1;
        if (unbounded > 1 || product > MAX_NATIVE_PRODUCT) return false;
        return visit(node.node, node.max > 1);
      }
      case "alt":
        return !inRepeat && node.options.every((option) => visit(option, inRepeat));
      case "seq":
        return node.items.every((item) => visit(item, inRepeat));
      case "look":
        return false;
      default:
        return true;
    }
  };
  return visit(root, false);
}

function groupDepth(pattern: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "(") max = Math.max(max, ++depth);
    else if (c === ")") depth--;
  }
  return max;
}

/**
 * Runs `fn` (a validation) with `steps` for all the spec regexes it tests; then no budget.
 * Validation is synchronous, so one module-wide counter is enough.
 */
export function withMatchBudget<T>(fn: () => T, steps = DEFAULT_MATCH_STEPS): T {
  const saved = matchBudget.left;
  // Inside another budgeted run (a branch check during a validation), that run's budget applies.
  if (saved !== Number.POSITIVE_INFINITY) return fn();
  matchBudget.left = steps;
  try {
    return fn();
  } finally {
    matchBudget.left = saved;
  }
}

/** The engine Ajv takes as `code.regExp`. */
export const boundedRegExpEngine = Object.assign(boundedRegExp, { code: "new RegExp" });
