/**
 * How the text of a serve option becomes its value, one parser per kind: whole numbers, ports,
 * choices, switches, comma-separated lists, `NAME=VALUE` pairs, `"Name: value"` headers and
 * http(s) URLs. `serve` (through commander) and the generated server (through node:util
 * parseArgs) hand these the raw text, so a value means the same thing to both, and a bad one is
 * refused with the same words. A parser knows nothing of flags: the reader (read-settings.ts)
 * says which flag or variable the text came from.
 */
import { hasControlCharacters } from "../auth/credentials.js";
import type { ScopeRule } from "../transport/oauth/resource-options.js";

/**
 * A value a parser refuses: `problem` says what is wrong with the text, not where it came
 * from; `note` adds to what the option takes (`0 picks a free one`).
 */
export class OptionValueError extends Error {
  readonly note: string | undefined;

  constructor(problem: string, note?: string) {
    super(problem);
    this.name = "OptionValueError";
    this.note = note;
  }
}

/** The kinds of value an option takes. */
export type ValueKind = "text" | "whole-number" | "choice" | "switch" | "list" | "pairs" | "headers" | "url";

export interface ValueParser<T> {
  readonly kind: ValueKind;
  /** What a good value looks like, e.g. `a whole number` (for messages and help). */
  readonly expected: string;
  /** Repeated flags add up (lists and records); others take the last occurrence. */
  readonly repeatable: boolean;
  /** A switch takes no value (`--stateless`); its environment variable is `1` or `0`. */
  readonly isSwitch?: boolean;
  /** Every occurrence of the flag, in order: `["a,b", "c"]`. A switch gets `["true"]`. */
  fromFlags(values: readonly string[]): T;
  /** The environment variable's text (never empty: an empty variable counts as unset). */
  fromEnv(text: string): T;
  /**
   * The value when both the environment and the flags give one. Flags win: by default they
   * replace the variable; records keep the variable's names the flags do not set.
   */
  combine?(fromEnv: T, fromFlags: T): T;
}

/** The value of the last occurrence: a flag given twice means what it says the second time. */
function last(values: readonly string[]): string {
  return values[values.length - 1] ?? "";
}

function quote(text: string): string {
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}

/** Any text, as given (host, path, file names, tokens). */
export function parseText(expected = "a value"): ValueParser<string> {
  return { kind: "text", expected, repeatable: false, fromFlags: last, fromEnv: (text) => text };
}

/**
 * A secret of at least `minBytes` bytes of UTF-8 (an HMAC key): a short one is refused without
 * repeating it, so the message never shows the secret.
 */
export function parseSecret(minBytes: number): ValueParser<string> {
  const expected = `a secret of at least ${minBytes} bytes`;
  const parse = (text: string): string => {
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes < minBytes) throw new OptionValueError(`expected ${expected}, got ${bytes} bytes`);
    return text;
  };
  return {
    kind: "text",
    expected,
    repeatable: false,
    fromFlags: (values) => parse(last(values)),
    fromEnv: parse,
  };
}

/** A whole number of at least `min` (default 0) and at most `max`. */
export function parseWholeNumber(
  options: { min?: number; max?: number; expected?: string; note?: string } = {},
): ValueParser<number> {
  const min = options.min ?? 0;
  const expected =
    options.expected ??
    (options.max !== undefined
      ? `a whole number from ${min} to ${options.max}`
      : min > 0
        ? `a whole number of at least ${min}`
        : "a whole number");
  const parse = (text: string): number => {
    const n = Number(text);
    if (
      text.trim() === "" ||
      !Number.isSafeInteger(n) ||
      n < min ||
      (options.max !== undefined && n > options.max)
    ) {
      throw new OptionValueError(`expected ${expected}, got ${quote(text)}`, options.note);
    }
    return n;
  };
  return {
    kind: "whole-number",
    expected,
    repeatable: false,
    fromFlags: (values) => parse(last(values)),
    fromEnv: parse,
  };
}

/** A TCP port to listen on; 0 lets the system pick a free one. */
export function parsePort(): ValueParser<number> {
  return parseWholeNumber({
    max: 65_535,
    expected: "a port number from 0 to 65535",
    note: "0 picks a free one",
  });
}

/** One of `choices`, exactly as written. */
export function parseChoice<const C extends string>(choices: readonly C[]): ValueParser<C> {
  const expected = `one of ${choices.join(", ")}`;
  const parse = (text: string): C => {
    if (!(choices as readonly string[]).includes(text)) {
      throw new OptionValueError(`expected ${expected}, got ${quote(text)}`);
    }
    return text as C;
  };
  return {
    kind: "choice",
    expected,
    repeatable: false,
    fromFlags: (values) => parse(last(values)),
    fromEnv: parse,
  };
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** A switch: present or not as a flag; `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off` as a variable. */
export function parseSwitch(): ValueParser<boolean> {
  return {
    kind: "switch",
    expected: "1 or 0",
    repeatable: false,
    isSwitch: true,
    fromFlags: () => true,
    fromEnv: (text) => {
      const word = text.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw new OptionValueError(`expected 1 or 0 (true or false), got ${quote(text)}`);
    },
  };
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** Comma-separated values; a repeated flag adds more. Flags replace the variable. */
export function parseList(expected = "comma-separated values"): ValueParser<string[]> {
  return {
    kind: "list",
    expected,
    repeatable: true,
    fromFlags: (values) => values.flatMap(splitList),
    fromEnv: splitList,
  };
}

function splitPairs(
  values: readonly string[],
  separator: string,
  what: string,
  trim: boolean,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const index = value.indexOf(separator);
    const name = trim ? value.slice(0, index).trim() : value.slice(0, index);
    if (index <= 0 || name === "") throw new OptionValueError(`expected ${what}, got ${quote(value)}`);
    const rest = value.slice(index + separator.length);
    result[name] = trim ? rest.trim() : rest;
  }
  return result;
}

/** Names the variable's record has and the flags' do not, kept: the flags win name by name. */
function combineRecords(fromEnv: Record<string, string>, fromFlags: Record<string, string>) {
  return { ...fromEnv, ...fromFlags };
}

/**
 * `NAME=VALUE` (repeatable) → a record; the name ends at the first `=`, the value is taken as
 * written (spaces included). Records of this kind have no single variable: each name has its own
 * (`OPENAPI_MCP_AUTH_<SCHEME>`), read where the names are known.
 */
export function parsePairs(what = "NAME=VALUE"): ValueParser<Record<string, string>> {
  return {
    kind: "pairs",
    expected: what,
    repeatable: true,
    fromFlags: (values) => splitPairs(values, "=", what, false),
    fromEnv: (text) => splitPairs([text], "=", what, false),
    combine: combineRecords,
  };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new OptionValueError(`${quote(name)} is not a valid header name`);
    if (hasControlCharacters(value)) {
      throw new OptionValueError(`the value of the header ${name} has a control character (CR, LF, NUL...)`);
    }
    const wide = [...value].find((char) => char.codePointAt(0)! > 0xff);
    if (wide !== undefined) {
      // undici would refuse every request that carries it.
      throw new OptionValueError(
        `the value of the header ${name} has ${quote(wide)}, which an HTTP header cannot carry (Latin-1 only)`,
      );
    }
  }
  return headers;
}

/**
 * `"Name: value"` headers (repeatable; name and value trimmed) → a record. The variable holds a
 * JSON object of names to values, since a list of headers has no safe separator.
 */
export function parseHeaders(): ValueParser<Record<string, string>> {
  return {
    kind: "headers",
    expected: '"Name: value"',
    repeatable: true,
    fromFlags: (values) => checkHeaders(splitPairs(values, ":", '"Name: value"', true)),
    fromEnv: (text) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new OptionValueError(
          'expected a JSON object of header names to values, such as {"X-Tenant": "acme"}',
        );
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new OptionValueError(
          'expected a JSON object of header names to values, such as {"X-Tenant": "acme"}',
        );
      }
      return checkHeaders(Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)])));
    },
    combine: combineRecords,
  };
}

/** An absolute http(s) URL. */
export function parseHttpUrl(): ValueParser<string> {
  const parse = (text: string): string => {
    let ok = false;
    try {
      const url = new URL(text);
      ok = url.protocol === "http:" || url.protocol === "https:";
    } catch {
      // refused below
    }
    if (!ok) {
      throw new OptionValueError(`${quote(text)} is not an http(s) URL`, "such as http://127.0.0.1:8080/v1");
    }
    return text;
  };
  return {
    kind: "url",
    expected: "an http(s) URL",
    repeatable: false,
    fromFlags: (values) => parse(last(values)),
    fromEnv: parse,
  };
}

/**
 * Where users' own API tokens are kept: `memory`, or a Redis URL (`redis://`, `rediss://`).
 * A refused value is not repeated: the URL may carry a password.
 */
export function parseTokenStore(): ValueParser<string> {
  const parse = (text: string): string => {
    if (text === "memory") return text;
    let ok = false;
    try {
      const url = new URL(text);
      ok = (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== "";
      ok &&= /^\/?\d*$/.test(url.pathname);
    } catch {
      // refused below
    }
    if (!ok)
      throw new OptionValueError("expected memory or a redis:// URL", "such as redis://127.0.0.1:6379/0");
    return text;
  };
  return {
    kind: "text",
    expected: "memory or a redis:// URL",
    repeatable: false,
    fromFlags: (values) => parse(last(values)),
    fromEnv: parse,
  };
}

/**
 * A value given typed rather than as text (the library's BridgeOptions: `timeoutMs: 0`), checked
 * by the rules its text would meet: the same parser refuses it with the same words, so the CLI
 * and the library cannot drift. Returns the value as given; throws an OptionValueError.
 */
export function checkTypedValue<T>(parser: ValueParser<T>, value: unknown): unknown {
  const wrongType = (what: string) =>
    new OptionValueError(`expected ${parser.expected} (${what}), got ${describeTyped(value)}`);
  switch (parser.kind) {
    case "whole-number":
      if (typeof value !== "number") throw wrongType("a number");
      // String(1.5), String(NaN), String(1e21): text the parser refuses like a flag's.
      parser.fromEnv(String(value));
      return value;
    case "text":
    case "choice":
    case "url":
      if (typeof value !== "string") throw wrongType("a string");
      parser.fromEnv(value);
      return value;
    case "switch":
      if (typeof value !== "boolean") throw wrongType("a boolean");
      return value;
    case "list":
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
        throw wrongType("an array of strings");
      return value;
    case "pairs":
    case "headers":
      if (!isStringRecord(value)) throw wrongType("an object of strings");
      // Headers: the variable's form (a JSON object) meets the same name and value rules as flags.
      if (parser.kind === "headers") parser.fromEnv(JSON.stringify(value));
      return value;
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}

function describeTyped(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/**
 * `--auth-scope-map` rules: `PATTERN=SCOPES` (repeatable, in order: the first match wins), the
 * scopes separated by spaces or commas; the variable holds several rules separated by `;`.
 * An empty SCOPES says the tools the pattern names need no scope. In a --config file: a map of
 * patterns to scopes, in order, or a list of `PATTERN=SCOPES`.
 */
export function parseScopeMap(): ValueParser<ScopeRule[]> {
  const what = "PATTERN=SCOPES";
  const toRules = (entries: readonly string[]): ScopeRule[] =>
    entries.map((entry) => {
      const index = entry.indexOf("=");
      const pattern = entry.slice(0, index).trim();
      if (index <= 0 || pattern === "") throw new OptionValueError(`expected ${what}, got ${quote(entry)}`);
      const scopes = entry
        .slice(index + 1)
        .split(/[\s,]+/)
        .filter((scope) => scope !== "");
      const bad = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
      if (bad !== undefined)
        throw new OptionValueError(`${quote(bad)} is not an OAuth scope (RFC 6749 §3.3)`);
      return { pattern, scopes };
    });
  return {
    kind: "pairs",
    expected: what,
    repeatable: true,
    fromFlags: toRules,
    fromEnv: (text) => toRules(text.split(";").filter((entry) => entry.trim() !== "")),
    // The flags win: their rules come first, the variable's after them.
    combine: (fromEnv, fromFlags) => [...fromFlags, ...fromEnv],
  };
}

/** RFC 6749's scope-token: printable ASCII but space, `"` and `\\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
