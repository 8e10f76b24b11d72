/**
 * The printer's check on what it wrote: each module skeleton is tokenised here and must hold
 * balanced brackets, strings that end on their line, no template literal, no comment and no
 * character outside the few a skeleton is made of; the check says where each placeholder is,
 * so that values, docs and fixed code can be put in after it.
 *
 * This used to be the TypeScript compiler's scanner. A skeleton is made of names, keywords,
 * punctuation and double-quoted strings only (every comment and value is a placeholder), so a
 * tokeniser of those does the same check, stricter (anything else is refused), without loading
 * the compiler: 9 MB of JavaScript, a third of a cached `generate` (bench/results/generate.md).
 */

import type { ValueNode } from "./module-spec.js";

/**
 * What replaces a placeholder identifier once the skeleton is checked: a constant's value, a
 * TSDoc block (its lines, indented like the placeholder), or fixed generator code.
 */
export type Filling =
  | { kind: "value"; value: ValueNode }
  | { kind: "docs"; lines: string[] }
  | { kind: "code"; text: string };

/**
 * Placeholders start with U+01C2, a letter TypeScript takes in identifiers but that no printed
 * name can hold (property names that are not ASCII identifiers are quoted, type names are
 * ASCII): a placeholder can only be one the printer wrote.
 */
export const PLACEHOLDER_PREFIX = "\u01c2";
const PLACEHOLDER_CODE = 0x01c2;

interface Splice {
  start: number;
  end: number;
  filling: Filling;
}

export interface CheckOptions {
  /**
   * Comments (and so slashes) may be there: fixed generator code has them, a skeleton never
   * (its documentation blocks are placeholders).
   */
  comments?: boolean;
}

/** Character codes. */
const Code = {
  Tab: 9,
  NewLine: 10,
  CarriageReturn: 13,
  Space: 32,
  DoubleQuote: 34,
  Dollar: 36,
  SingleQuote: 39,
  OpenParen: 40,
  CloseParen: 41,
  Asterisk: 42,
  Slash: 47,
  Digit0: 48,
  Digit9: 57,
  UpperA: 65,
  UpperZ: 90,
  OpenBracket: 91,
  BackSlash: 92,
  CloseBracket: 93,
  Underscore: 95,
  BackTick: 96,
  LowerA: 97,
  LowerZ: 122,
  OpenBrace: 123,
  CloseBrace: 125,
  LineSeparator: 0x2028,
  ParagraphSeparator: 0x2029,
} as const;

/** Punctuation a skeleton or fixed code may hold besides brackets, quotes and slashes. */
const PUNCTUATION = new Set([..."!%&*+,-.:;<=>?^|~"].map((c) => c.charCodeAt(0)));

function isNamePart(code: number): boolean {
  return (
    (code >= Code.LowerA && code <= Code.LowerZ) ||
    (code >= Code.UpperA && code <= Code.UpperZ) ||
    (code >= Code.Digit0 && code <= Code.Digit9) ||
    code === Code.Underscore ||
    code === Code.Dollar ||
    code === PLACEHOLDER_CODE
  );
}

function isLineBreak(code: number): boolean {
  return (
    code === Code.NewLine ||
    code === Code.CarriageReturn ||
    code === Code.LineSeparator ||
    code === Code.ParagraphSeparator
  );
}

/** Where the string starting at `start` (its quote) ends, after its closing quote; -1: it does not on its line. */
function findStringEnd(text: string, start: number): number {
  const quote = text.charCodeAt(start);
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === quote) return i + 1;
    if (isLineBreak(code)) return -1;
    if (code === Code.BackSlash) {
      i++;
      if (i >= text.length || isLineBreak(text.charCodeAt(i))) return -1;
    }
  }
  return -1;
}

/** Where the comment starting at `start` (its slash) ends; -1: a block comment never closed. */
function findCommentEnd(text: string, start: number): number {
  if (text.charCodeAt(start + 1) === Code.Slash) {
    const end = text.indexOf("\n", start);
    return end < 0 ? text.length : end;
  }
  const end = text.indexOf("*/", start + 2);
  return end < 0 ? -1 : end + 2;
}

/**
 * Every module goes through this check as it is printed: a string that does not end where the
 * printer meant it to, a template literal (the printer never writes one, so a backtick outside a
 * string means spec text escaped), a comment, an unexpected character or unbalanced brackets
 * stop the generation; nothing is written. The skeleton is checked with a placeholder for each
 * filling, and the check returns where each is: values are printed by `valueText` (escaped
 * strings, balanced brackets by construction), documentation blocks are checked not to end early
 * (see blockCommentLines), and each distinct fixed code block is checked once on its own, with
 * comments (it starts and ends at the top level, so it checks the same wherever it is put).
 */
export function checkTokens(
  path: string,
  text: string,
  fillings: Map<string, Filling>,
  options: CheckOptions = {},
): Splice[] {
  const splices: Splice[] = [];
  const found = new Set<string>();
  const open: number[] = [];
  let problem: string | undefined;
  let i = 0;
  while (i < text.length && problem === undefined) {
    const code = text.charCodeAt(i);
    if (code === Code.Space || code === Code.NewLine || code === Code.Tab || code === Code.CarriageReturn) {
      i++;
    } else if (isNamePart(code)) {
      const start = i;
      while (i < text.length && isNamePart(text.charCodeAt(i))) i++;
      if (code === PLACEHOLDER_CODE) {
        const name = text.slice(start, i);
        const filling = fillings.get(name);
        if (filling === undefined || found.has(name)) problem = `a stray placeholder ${name}`;
        else {
          found.add(name);
          splices.push({ start, end: i, filling });
        }
      }
    } else if (code === Code.DoubleQuote || code === Code.SingleQuote) {
      i = findStringEnd(text, i);
      if (i < 0) problem = "an unterminated string literal";
    } else if (code === Code.OpenBrace || code === Code.OpenParen || code === Code.OpenBracket) {
      open.push(code);
      i++;
    } else if (code === Code.CloseBrace || code === Code.CloseParen || code === Code.CloseBracket) {
      const opener =
        code === Code.CloseBrace
          ? Code.OpenBrace
          : code === Code.CloseParen
            ? Code.OpenParen
            : Code.OpenBracket;
      if (open.pop() !== opener) problem = `unbalanced ${text[i]}`;
      i++;
    } else if (code === Code.BackTick) {
      problem = "a template literal";
    } else if (code === Code.Slash && options.comments === true) {
      const next = text.charCodeAt(i + 1);
      if (next === Code.Slash || next === Code.Asterisk) {
        i = findCommentEnd(text, i);
        if (i < 0) problem = "an unterminated comment";
      } else i++;
    } else if (PUNCTUATION.has(code)) {
      i++;
    } else {
      problem = `an unexpected character ${JSON.stringify(text[i])}`;
    }
  }
  if (problem === undefined && open.length > 0) problem = "an unclosed bracket";
  if (problem === undefined && found.size !== fillings.size) problem = "a constant without its value";
  if (problem !== undefined) throw new Error(`generated ${path} is not well-formed: ${problem}`);
  return splices;
}
