/**
 * JSON with comments (JSONC, what VS Code reads its settings and mcp.json as): `//` and `/* *\/`
 * comments wherever white space may stand, and a trailing comma before `}` or `]`, comments
 * between them or not. `parseJsonc` reads it into values and a tree of offsets;
 * `setJsoncMember` changes one member of the text (sets, adds or removes it) and leaves every
 * other byte where it was, so a user's comments and layout survive `install` and `uninstall`
 * (the way VS Code's own jsonc-parser `modify` edits a file; that package is not a dependency).
 */

/** A value's place in the text: [start, end) and, for objects and arrays, its members. */
export interface JsoncNode {
  kind: "object" | "array" | "value";
  start: number;
  end: number;
  /** Object properties or array items, in order. */
  members: JsoncMember[];
}

export interface JsoncMember {
  /** The property's key; undefined for an array item. */
  key?: string;
  /** Where the member starts: its key, or the item's value. */
  start: number;
  value: JsoncNode;
}

/** Text that is not JSONC (or, with `relaxed: false`, not JSON): where and why. */
export class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export interface ParsedJsonc {
  value: unknown;
  root: JsoncNode;
}

/** Reads `text`; `relaxed: false` refuses comments and trailing commas (plain JSON). */
export function parseJsonc(text: string, options: { relaxed: boolean } = { relaxed: true }): ParsedJsonc {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsoncSyntaxError(
      i >= text.length ? `unexpected end of text, expected ${what}` : `expected ${what}`,
      i,
    );
  };
  const skip = () => {
    i = skipBlank(text, i, options.relaxed);
  };
  const readValue = (): { value: unknown; node: JsoncNode } => {
    skip();
    const start = i;
    const char = text[i];
    if (char === "{" || char === "[") {
      const isObject = char === "{";
      const close = isObject ? "}" : "]";
      const members: JsoncMember[] = [];
      const value: Record<string, unknown> | unknown[] = isObject ? {} : [];
      i++;
      skip();
      while (text[i] !== close) {
        const memberStart = i;
        let key: string | undefined;
        if (isObject) {
          if (text[i] !== '"') fail(members.length === 0 ? 'a property name or "}"' : "a property name");
          const keyStart = i;
          i = endOfString(text, i);
          key = readString(text, keyStart, i);
          skip();
          if (text[i] !== ":") fail('":"');
          i++;
        }
        const item = readValue();
        members.push({ ...(key !== undefined ? { key } : {}), start: memberStart, value: item.node });
        if (key !== undefined) {
          // An own property even for "__proto__", as JSON.parse makes it.
          Object.defineProperty(value, key, {
            value: item.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else (value as unknown[]).push(item.value);
        skip();
        if (text[i] === ",") {
          i++;
          skip();
          if (text[i] === close && !options.relaxed) fail("a value after the comma");
        } else if (text[i] !== close) fail(`"," or "${close}"`);
      }
      i++;
      return { value, node: { kind: isObject ? "object" : "array", start, end: i, members } };
    }
    let end: number;
    if (char === '"') end = endOfString(text, i);
    else {
      const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
        text.slice(i, i + 400),
      );
      if (literal === null) return fail("a value");
      end = i + literal[0].length;
    }
    const value = char === '"' ? readString(text, i, end) : JSON.parse(text.slice(i, end));
    i = end;
    return { value, node: { kind: "value", start, end, members: [] } };
  };
  const { value, node } = readValue();
  skip();
  if (i < text.length) fail("the end of the text");
  return { value, root: node };
}

/**
 * `text` with the member at `path` (object keys, array indexes; the index one past the last
 * item appends) set to `value`, or removed when `value` is undefined. Missing objects on the way
 * are created. Everything else in the text stays as it was; new text takes the file's indent.
 */
export function setJsoncMember(text: string, path: readonly (string | number)[], value: unknown): string {
  const { root } = parseJsonc(text);
  const unit = detectIndentUnit(text);
  let node = root;
  for (let depth = 0; depth < path.length; depth++) {
    const step = path[depth]!;
    const index =
      node.kind === "array" && typeof step === "number"
        ? step < node.members.length
          ? step
          : -1
        : node.members.findIndex((m) => m.key === step);
    const last = depth === path.length - 1;
    if (index === -1) {
      if (value === undefined) return text; // nothing to remove
      const rest = path
        .slice(depth + 1)
        .reduceRight<unknown>((inner, key) => (typeof key === "number" ? [inner] : { [key]: inner }), value);
      return insertMember(text, node, node.kind === "object" ? String(step) : undefined, rest, unit);
    }
    const member = node.members[index]!;
    if (last) {
      if (value === undefined) return removeMember(text, node, index);
      const indent = lineIndent(text, member.start);
      return splice(text, member.value.start, member.value.end, formatValue(value, indent, unit));
    }
    node = member.value;
  }
  return text;
}

/** `text` with a new member (key: a property) at the end of `container`. */
function insertMember(
  text: string,
  container: JsoncNode,
  key: string | undefined,
  value: unknown,
  unit: string,
) {
  const prefix = key === undefined ? "" : `${JSON.stringify(key)}: `;
  const last = container.members.at(-1);
  const containerIndent = lineIndent(text, container.start);
  if (last === undefined) {
    const inner = text.slice(container.start + 1, container.end - 1);
    const indent = containerIndent + unit;
    const member = `\n${indent}${prefix}${formatValue(value, indent, unit)}`;
    return inner.trim() === ""
      ? splice(text, container.start + 1, container.end - 1, `${member}\n${containerIndent}`)
      : splice(text, container.start + 1, container.start + 1, member); // only comments inside: kept after
  }
  const afterValue = scanLineTail(text, last.value.end);
  if (!startsLine(text, last.start) || afterValue.stop !== "newline") {
    // An inline container ({ "a": 1 }): the member goes on the same line, right after the last.
    const member = `${prefix}${JSON.stringify(value)}`;
    return afterValue.comma === undefined
      ? splice(text, last.value.end, last.value.end, `, ${member}`)
      : splice(text, afterValue.comma + 1, afterValue.comma + 1, ` ${member}`);
  }
  const indent = lineIndent(text, last.start);
  // A file that ends its members with a trailing comma gets one after the new member too.
  const member = `\n${indent}${prefix}${formatValue(value, indent, unit)}${afterValue.comma === undefined ? "" : ","}`;
  const added = splice(text, afterValue.end, afterValue.end, member);
  // The comma that now separates the last member from the new one (a trailing one already does).
  return afterValue.comma === undefined ? splice(added, last.value.end, last.value.end, ",") : added;
}

/** `text` without `container`'s member `index`, its separating comma, and its line when it had one to itself. */
function removeMember(text: string, container: JsoncNode, index: number): string {
  const member = container.members[index]!;
  const tail = scanLineTail(text, member.value.end);
  let start = member.start;
  let end = tail.comma === undefined ? member.value.end : tail.comma + 1;
  if (startsLine(text, start) && tail.stop === "newline") {
    start = text.lastIndexOf("\n", start - 1) + 1;
    end = tail.end + (text[tail.end] === "\r" ? 2 : 1); // with its line comment and line break
  } else if (tail.comma !== undefined) {
    while (text[end] === " " || text[end] === "\t") end++; // `[1, 2, 3]` → `[1, 3]`
  }
  let result = splice(text, start, end, "");
  if (tail.comma === undefined && index > 0) {
    // It was the last member: the comma before it would be left trailing (not JSON).
    const previous = container.members[index - 1]!;
    const comma = scanLineTail(text, previous.value.end).comma ?? findComma(text, previous.value.end);
    if (comma !== undefined && comma < start) result = splice(result, comma, comma + 1, "");
  }
  return result;
}

interface LineTail {
  /** Offset of the comma right after the value, if any. */
  comma?: number;
  /** Where the line's tail ends: at its line break, or before the next token. */
  end: number;
  stop: "newline" | "token";
}

/** What follows a value on its line: blanks, block comments, a comma, a line comment. */
function scanLineTail(text: string, from: number): LineTail {
  let i = from;
  let comma: number | undefined;
  while (i < text.length) {
    const char = text[i]!;
    if (char === "\n" || (char === "\r" && text[i + 1] === "\n"))
      return { ...(comma !== undefined ? { comma } : {}), end: i, stop: "newline" };
    if (char === " " || char === "\t") i++;
    else if (char === "," && comma === undefined) comma = i++;
    else if (text.startsWith("//", i)) {
      const eol = text.indexOf("\n", i);
      i = eol === -1 ? text.length : eol;
      if (text[i - 1] === "\r") i--;
    } else if (text.startsWith("/*", i) && !text.slice(i, text.indexOf("*/", i + 2)).includes("\n")) {
      i = text.indexOf("*/", i + 2) + 2;
    } else break;
  }
  return {
    ...(comma !== undefined ? { comma } : {}),
    end: i,
    stop: i >= text.length ? "newline" : "token",
  };
}

/** The offset of the comma after `from` (past blanks and comments), if the next token is one. */
function findComma(text: string, from: number): number | undefined {
  const at = skipBlank(text, from, true);
  return text[at] === "," ? at : undefined;
}

/** Past white space and (relaxed) comments from `i`. */
function skipBlank(text: string, i: number, comments: boolean): number {
  for (;;) {
    const char = text[i];
    if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\uFEFF") i++;
    else if (comments && text.startsWith("//", i)) {
      const eol = text.indexOf("\n", i);
      i = eol === -1 ? text.length : eol;
    } else if (comments && text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      if (end === -1) throw new JsoncSyntaxError("unterminated /* comment", i);
      i = end + 2;
    } else return i;
  }
}

/** The offset just past the string starting at `i`. */
function endOfString(text: string, i: number): number {
  let end = i + 1;
  while (end < text.length && text[end] !== '"') {
    if (text[end] === "\n") break;
    end += text[end] === "\\" ? 2 : 1;
  }
  if (text[end] !== '"') throw new JsoncSyntaxError("unterminated string", i);
  return end + 1;
}

/** The string literal at [start, end) (its escapes and characters checked as JSON checks them). */
function readString(text: string, start: number, end: number): string {
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    throw new JsoncSyntaxError("a valid string", start);
  }
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === "";
}

/** The white space that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The file's indent step: the first indented line's white space, else two spaces. */
function detectIndentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
}

/** `value` as JSON indented by `unit`, its lines after the first at `indent`. */
function formatValue(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit).split("\n").join(`\n${indent}`);
}
