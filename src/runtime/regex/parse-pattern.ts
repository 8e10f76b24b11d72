/**
 * An ECMAScript regular expression (the `u` syntax JSON Schema patterns are compiled with) as a
 * tree the linear-time matcher can run: sequences, alternatives, repetitions, anchors, word
 * boundaries, lookaheads, and single-character atoms. What one character matches is left to the
 * native engine (each atom becomes a RegExp tested on one code point, which cannot backtrack),
 * so classes, escapes, `\p{...}` and the flags mean exactly what they mean natively; only the
 * structure is parsed here. The caller has already compiled the pattern natively, so the syntax
 * is known to be valid.
 *
 * Lookbehinds and backreferences are not regular: a pattern with one is `unsupported`, with the
 * facts the fallback needs to bound it (see bounded-regexp.ts).
 */

export type PatternNode =
  | { type: "empty" }
  | { type: "atom"; source: string; literal?: number }
  | { type: "seq"; items: PatternNode[] }
  | { type: "alt"; options: PatternNode[] }
  | { type: "repeat"; node: PatternNode; min: number; max: number }
  | { type: "assert"; kind: "start" | "end" | "word" | "notWord" }
  | { type: "look"; negate: boolean; node: PatternNode };

export type ParsedPattern =
  | { ok: true; node: PatternNode }
  | {
      ok: false;
      /** What the matcher cannot run: `lookbehind` or `backreference`. */
      reason: string;
      /** A repetition inside a repeated part, or repeated alternatives: exponential backtracking is possible. */
      nested: boolean;
      /** Unbounded repetitions (`*`, `+`, `{n,}`): the degree of polynomial backtracking. */
      unbounded: number;
    };

class Unsupported extends Error {}

export function parsePattern(pattern: string): ParsedPattern {
  const parser = new Parser(pattern, true);
  try {
    const node = parser.parseDisjunction();
    return { ok: true, node };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    // Parse again, treating what is unsupported as opaque, to measure how risky it is.
    const relaxed = new Parser(pattern, false);
    const node = relaxed.parseDisjunction();
    return {
      ok: false,
      reason: error.message,
      nested: hasNestedRepetition(node, false),
      unbounded: countUnbounded(node),
    };
  }
}

class Parser {
  private i = 0;
  constructor(
    private readonly source: string,
    private readonly strict: boolean,
  ) {}

  parseDisjunction(): PatternNode {
    const options = [this.parseAlternative()];
    while (this.source[this.i] === "|") {
      this.i++;
      options.push(this.parseAlternative());
    }
    return options.length === 1 ? options[0]! : { type: "alt", options };
  }

  private parseAlternative(): PatternNode {
    const items: PatternNode[] = [];
    while (this.i < this.source.length && this.source[this.i] !== "|" && this.source[this.i] !== ")") {
      const atom = this.parseTerm();
      items.push(this.parseQuantifier(atom));
    }
    if (items.length === 0) return { type: "empty" };
    return items.length === 1 ? items[0]! : { type: "seq", items };
  }

  private parseTerm(): PatternNode {
    const s = this.source;
    const c = s[this.i]!;
    if (c === "^") {
      this.i++;
      return { type: "assert", kind: "start" };
    }
    if (c === "$") {
      this.i++;
      return { type: "assert", kind: "end" };
    }
    if (c === "(") return this.parseGroup();
    if (c === "[") return this.parseClass();
    if (c === "\\") return this.parseEscape();
    if (c === ".") {
      this.i++;
      return { type: "atom", source: "." };
    }
    const point = s.codePointAt(this.i)!;
    const text = String.fromCodePoint(point);
    this.i += text.length;
    return { type: "atom", source: text, literal: point };
  }

  private parseGroup(): PatternNode {
    const s = this.source;
    this.i++; // (
    let look: { negate: boolean } | undefined;
    if (s.startsWith("?:", this.i)) this.i += 2;
    else if (s.startsWith("?=", this.i) || s.startsWith("?!", this.i)) {
      look = { negate: s[this.i + 1] === "!" };
      this.i += 2;
    } else if (s.startsWith("?<=", this.i) || s.startsWith("?<!", this.i)) {
      if (this.strict) throw new Unsupported("lookbehind");
      this.i += 3;
    } else if (s.startsWith("?<", this.i)) {
      this.i = s.indexOf(">", this.i) + 1;
    }
    const node = this.parseDisjunction();
    this.i++; // )
    return look ? { type: "look", negate: look.negate, node } : node;
  }

  private parseClass(): PatternNode {
    const s = this.source;
    const start = this.i;
    this.i++; // [
    if (s[this.i] === "^") this.i++;
    while (this.i < s.length && s[this.i] !== "]") this.i += s[this.i] === "\\" ? 2 : 1;
    this.i++; // ]
    return { type: "atom", source: s.slice(start, this.i) };
  }

  private parseEscape(): PatternNode {
    const s = this.source;
    const start = this.i;
    const c = s[this.i + 1]!;
    if (c === "b" || c === "B") {
      this.i += 2;
      return { type: "assert", kind: c === "b" ? "word" : "notWord" };
    }
    if ((c >= "1" && c <= "9") || c === "k") {
      if (this.strict) throw new Unsupported("backreference");
      this.i += 2;
      if (c === "k") this.i = s.indexOf(">", this.i) + 1;
      else while (/\d/.test(s[this.i] ?? "")) this.i++;
      return { type: "atom", source: "[^]" };
    }
    if (c === "c") this.i += 3;
    else if (c === "x") this.i += 4;
    else if (c === "p" || c === "P") this.i = s.indexOf("}", this.i) + 1;
    else if (c === "u") {
      this.i = s[this.i + 2] === "{" ? s.indexOf("}", this.i) + 1 : this.i + 6;
      // A surrogate pair written as two escapes is one code point with the `u` flag.
      const high = Number.parseInt(s.slice(start + 2, start + 6), 16);
      if (
        s[start + 2] !== "{" &&
        high >= 0xd800 &&
        high <= 0xdbff &&
        /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(s.slice(this.i))
      ) {
        this.i += 6;
      }
    } else this.i += 2;
    return { type: "atom", source: s.slice(start, this.i) };
  }

  private parseQuantifier(atom: PatternNode): PatternNode {
    const s = this.source;
    const c = s[this.i];
    let min: number;
    let max: number;
    if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i));
      if (!match) return atom;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Number.POSITIVE_INFINITY : Number(match[3]);
      this.i += match[0].length - 1;
    } else return atom;
    this.i++;
    if (s[this.i] === "?") this.i++; // lazy: the same for a yes/no test
    return { type: "repeat", node: atom, min, max };
  }
}

function hasNestedRepetition(node: PatternNode, inRepeat: boolean): boolean {
  switch (node.type) {
    case "repeat": {
      const repeats = node.max > 1;
      if (inRepeat && repeats) return true;
      if (repeats && node.node.type === "alt") return true;
      return hasNestedRepetition(node.node, inRepeat || repeats);
    }
    case "seq":
      return node.items.some((item) => hasNestedRepetition(item, inRepeat));
    case "alt":
      return node.options.some((option) => hasNestedRepetition(option, inRepeat));
    case "look":
      return hasNestedRepetition(node.node, inRepeat);
    default:
      return false;
  }
}

function countUnbounded(node: PatternNode): number {
  switch (node.type) {
    case "repeat":
      return (node.max === Number.POSITIVE_INFINITY ? 1 : 0) + countUnbounded(node.node);
    case "seq":
      return node.items.reduce((sum, item) => sum + countUnbounded(item), 0);
    case "alt":
      return node.options.reduce((sum, option) => sum + countUnbounded(option), 0);
    case "look":
      return countUnbounded(node.node);
    default:
      return 0;
  }
}
