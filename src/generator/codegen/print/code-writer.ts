/**
 * The printer's code writer: text in parts, two-space indentation at the start of each line,
 * blank lines between declarations. It writes what ts-morph's code writer (the code-block-writer
 * package, which the printer used before) wrote for the same calls, byte for byte, at a fraction
 * of the cost: that writer follows every character written to know whether a line starts inside
 * a string (where it writes no indentation), and its per-write bookkeeping was about a quarter of
 * printing a GitHub project (profiles, bench/results/generate.md).
 *
 * A skeleton the printer writes has its strings on one line each and no comments or slashes
 * outside them (documentation and values are placeholders, see printer.ts), so a line never
 * starts inside a string, and this writer does not follow strings by default. The one case where
 * the old writer lost track is a string that ends with an escaped backslash (`"a\\"`): it took
 * the closing quote for an escaped one, and what followed on that line (a backtick in a later
 * string, say) could leave it "in a string" on the next line, unindented. The printer writes such
 * a module again with `followStrings` (see needsStringTracking), which tracks strings, comments
 * and regular expressions the way that writer did, so the bytes stay the same there too
 * (test/unit/codegen/code-writer.test.ts compares the two on random input).
 */

const NEW_LINE = 10;
const CARRIAGE_RETURN = 13;
const BACK_SLASH = 92;
const FORWARD_SLASH = 47;
const ASTERISK = 42;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACK_TICK = 96;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const DOLLAR_SIGN = 36;

const INDENTATION = "  ";
/** Characters that can change what the old writer thought it was in (a string, a comment...). */
const TRACKED = /[\\/\n\r*"'`{}]/;

/**
 * Whether a skeleton printed without following strings may differ from what the old writer
 * wrote: only a backslash right before a quote can make it lose track of a string.
 */
export function needsStringTracking(skeleton: string): boolean {
  return /\\["'`]/.test(skeleton);
}

/** Where the old writer thought the text it had written so far ended: in a comment, a string... */
interface Lexical {
  /** Open quotes (and `{` of `${` in a template), innermost last. */
  strings: number[];
  comment: "line" | "block" | undefined;
  regex: boolean;
}

export class CodeWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private level = 0;
  /** Line breaks at the end of the text (carriage returns skipped), for blank-line checks. */
  private trailingNewLines = 0;
  private lastIsNewLine = false;
  /** The last two character codes written (-1: none). */
  private last = -1;
  private beforeLast = -1;
  private newLineOnNextWrite = false;
  private readonly lexical: Lexical | undefined;

  constructor(options: { followStrings?: boolean } = {}) {
    this.lexical =
      options.followStrings === true ? { strings: [], comment: undefined, regex: false } : undefined;
  }

  getLength(): number {
    return this.length;
  }

  toString(): string {
    return this.parts.join("");
  }

  write(text: string): this {
    this.flushNewLine();
    this.writeLines(text);
    return this;
  }

  /** `text` on a line of its own. */
  writeLine(text: string): this {
    this.flushNewLine();
    if (this.length > 0) this.newLineIfLastNot();
    this.writeLines(text);
    this.newLine();
    return this;
  }

  newLine(): this {
    this.newLineOnNextWrite = false;
    this.breakLine();
    return this;
  }

  newLineIfLastNot(): this {
    this.flushNewLine();
    if (!this.lastIsNewLine) this.newLine();
    return this;
  }

  blankLineIfLastNot(): this {
    if (this.trailingNewLines < 2) this.newLineIfLastNot().newLine();
    return this;
  }

  /** `times` indentations written now, or `block` written one level deeper. */
  indent(timesOrBlock: number | (() => void)): this {
    if (typeof timesOrBlock === "number") {
      this.flushNewLine();
      return this.write(INDENTATION.repeat(timesOrBlock));
    }
    if (this.length > 0) this.newLineIfLastNot();
    this.level++;
    timesOrBlock();
    this.level = Math.max(0, this.level - 1);
    if (!this.lastIsNewLine) this.newLineOnNextWrite = true;
    return this;
  }

  private flushNewLine(): void {
    if (!this.newLineOnNextWrite) return;
    this.newLineOnNextWrite = false;
    this.newLine();
  }

  private writeLines(text: string): void {
    if (!text.includes("\n")) {
      this.writeInLine(text);
      return;
    }
    text.split(/\r?\n/).forEach((line, i) => {
      if (i > 0) this.breakLine();
      if (line.length > 0) this.writeInLine(line);
    });
  }

  /** Text without line breaks: indented first at the start of a line (not inside a string). */
  private writeInLine(text: string): void {
    if ((this.length === 0 || this.lastIsNewLine) && !this.isInString() && this.level > 0) {
      this.push(INDENTATION.repeat(this.level));
    }
    if (this.lexical !== undefined && TRACKED.test(text)) this.follow(this.lexical, text);
    this.push(text);
  }

  private breakLine(): void {
    const lexical = this.lexical;
    if (lexical !== undefined) {
      if (lexical.comment === "line") lexical.comment = undefined;
      const open = lexical.strings.at(-1);
      if ((open === DOUBLE_QUOTE || open === SINGLE_QUOTE) && this.last !== BACK_SLASH) lexical.strings.pop();
    }
    this.push("\n");
  }

  private push(text: string): void {
    if (text.length === 0) return;
    this.parts.push(text);
    this.length += text.length;
    let breaks = 0;
    let i = text.length - 1;
    for (; i >= 0; i--) {
      const code = text.charCodeAt(i);
      if (code === NEW_LINE) breaks++;
      else if (code !== CARRIAGE_RETURN) break;
    }
    this.trailingNewLines = i < 0 ? this.trailingNewLines + breaks : breaks;
    const end = text.charCodeAt(text.length - 1);
    this.lastIsNewLine = end === NEW_LINE || end === CARRIAGE_RETURN;
    this.beforeLast = text.length > 1 ? text.charCodeAt(text.length - 2) : this.last;
    this.last = end;
  }

  private isInString(): boolean {
    const strings = this.lexical?.strings;
    return strings !== undefined && strings.length > 0 && strings[strings.length - 1] !== OPEN_BRACE;
  }

  /** What the old writer made of `text`'s characters: strings, comments, regular expressions. */
  private follow(lexical: Lexical, text: string): void {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (!TRACKED.test(text[i]!)) continue;
      const past = i === 0 ? this.last : text.charCodeAt(i - 1);
      const pastPast = i === 0 ? this.beforeLast : i === 1 ? this.last : text.charCodeAt(i - 2);
      if (lexical.regex) {
        if ((past === FORWARD_SLASH && pastPast !== BACK_SLASH) || past === NEW_LINE) lexical.regex = false;
        else continue;
      } else if (!this.isInString() && lexical.comment === undefined && startsRegex(code, past, pastPast)) {
        lexical.regex = true;
        continue;
      }
      if (!this.isInString()) {
        if (lexical.comment === undefined && past === FORWARD_SLASH && code === FORWARD_SLASH) {
          lexical.comment = "line";
        } else if (lexical.comment === undefined && past === FORWARD_SLASH && code === ASTERISK) {
          lexical.comment = "block";
        } else if (lexical.comment === "block" && past === ASTERISK && code === FORWARD_SLASH) {
          lexical.comment = undefined;
        }
      }
      if (lexical.comment !== undefined) continue;
      const open = lexical.strings.at(-1);
      if (past !== BACK_SLASH && (code === DOUBLE_QUOTE || code === SINGLE_QUOTE || code === BACK_TICK)) {
        if (open === code) lexical.strings.pop();
        else if (open === OPEN_BRACE || open === undefined) lexical.strings.push(code);
      } else if (
        pastPast !== BACK_SLASH &&
        past === DOLLAR_SIGN &&
        code === OPEN_BRACE &&
        open === BACK_TICK
      ) {
        lexical.strings.push(code);
      } else if (code === CLOSE_BRACE && open === OPEN_BRACE) {
        lexical.strings.pop();
      }
    }
  }
}

/** A slash followed by what is neither a comment's start nor after one: the old writer's regex start. */
function startsRegex(code: number, past: number, pastPast: number): boolean {
  return (
    past === FORWARD_SLASH &&
    code !== FORWARD_SLASH &&
    code !== ASTERISK &&
    pastPast !== ASTERISK &&
    pastPast !== FORWARD_SLASH
  );
}
