/**
 * Parameter serialisation: tool argument values → path segments, query strings, header values and
 * cookies, following OpenAPI 3.1 §4.8.12.4 (Style Values, URL Percent-Encoding, Style Examples,
 * Appendix C–E) and RFC 6570 (simple, label `.`, matrix `;`, form `?` expansion).
 *
 * Choices where the specifications leave room (each one is tested in test/unit/params.test.ts):
 * - Every value is percent-encoded except RFC 3986 unreserved characters (`A-Za-z0-9-._~`), so
 *   `!'()*` are encoded too. Delimiters the style itself adds (`,` `.` `;` `=` `&`) stay literal.
 * - `|` (pipeDelimited), space (spaceDelimited), tab (tabDelimited, Swagger 2.0 `tsv`) and the
 *   deepObject brackets are not allowed unencoded in a query by RFC 3986, so they are sent as
 *   `%7C`, `%20`, `%09`, `%5B`/`%5D`, exactly as the OpenAPI 3.1.1 style examples show.
 * - `allowReserved: true` (query only) lets RFC 3986 reserved characters and existing `%XX`
 *   triples through, but still encodes `#`, `[`, `]` (not allowed in a query) and `&`, `=`, `+`
 *   (form-urlencoded delimiters), as the 3.1.1 `allowReserved` text and Appendix C require.
 * - deepObject: nested objects become `a[b][c]=v`, arrays (at the top too, which OpenAPI leaves
 *   undefined: Stripe's `expand` is one) become `a[b][]=v`, one pair per item, the convention
 *   PHP, Rack, qs and Stripe all parse as a list. An array holding objects or arrays is indexed,
 *   `a[0][k]=v&a[1][k]=w` (`[]` would let PHP split one item's fields into several items). A
 *   top-level primitive falls back to `form`.
 * - spaceDelimited / pipeDelimited / tabDelimited with `explode: true` are undefined by the
 *   spec and behave as `form` with `explode: true`.
 * - Cookies: `explode: true` pairs are joined by `; ` (Appendix D: `&` "is always incorrect" in
 *   a Cookie header; this is OpenAPI 3.2's `style: cookie`). Values keep RFC 6265 cookie-octets
 *   as they are; everything else (space, `"`, `,`, `;`, `\`, controls, non-ASCII) and `%` is
 *   percent-encoded (model/percent-encoding.ts, which a cookie credential goes through too),
 *   except the `,` that the non-exploded form style adds. CR, LF and NUL are refused outright.
 * - Headers are never percent-encoded (3.1.1: "URI percent-encoding MUST NOT be applied"),
 *   except non-ASCII characters, which HTTP cannot carry reliably: they are sent as UTF-8
 *   `%XX`. Control characters other than tab are refused (header injection).
 * - `null`/`undefined` values, empty arrays and empty objects are RFC 6570 "undefined": the
 *   parameter is left out (query, header, cookie) or refused (path, which always needs a value).
 *   `null` items inside arrays and objects are skipped; nested objects/arrays become JSON.
 */
import { isJsonMediaType } from "../../model/media-types.js";
import {
  encodeCookieName,
  encodeCookieValue,
  encodeUriComponentStrict,
} from "../../model/percent-encoding.js";
import { isRecord } from "../../model/records.js";
import type { ParameterBindingNode, ParameterStyle } from "../../model/types.js";
import { ArgumentError } from "./argument-error.js";

/** A value reduced to what RFC 6570 can expand: undefined, one string, a list or pairs. */
type ExpandableValue =
  | { kind: "undefined" }
  | { kind: "primitive"; text: string }
  | { kind: "array"; items: string[] }
  | { kind: "object"; entries: Array<[string, string]> };

type Encoder = (text: string) => string;

/** RFC 3986 reserved characters that may stay literal in a query value under allowReserved. */
const RESERVED_ALLOWED_IN_QUERY = /[:/?@!$'()*,;]/;

/** RFC 6570 reserved expansion for a query value (see the module comment for the exceptions). */
function encodeAllowReserved(text: string): string {
  let out = "";
  let rest = text;
  while (rest.length > 0) {
    const triple = /^%[0-9A-Fa-f]{2}/.exec(rest);
    if (triple) {
      out += triple[0];
      rest = rest.slice(3);
      continue;
    }
    const char = String.fromCodePoint(rest.codePointAt(0)!);
    out += RESERVED_ALLOWED_IN_QUERY.test(char) ? char : encodeUriComponentStrict(char);
    rest = rest.slice(char.length);
  }
  return out;
}

/** The text of one scalar: JSON numbers and booleans, strings as they are, nested values as JSON. */
function formatScalar(argument: string, value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      if (!Number.isFinite(value)) {
        throw new ArgumentError(argument, `${value} is not a number JSON can represent`);
      }
      return JSON.stringify(value);
    case "boolean":
    case "bigint":
      return String(value);
    case "object":
      return JSON.stringify(value);
    default:
      throw new ArgumentError(argument, `a ${typeof value} cannot be sent as a parameter value`);
  }
}

/** Reduces a value to the three RFC 6570 value kinds; empty lists and maps are undefined. */
function classifyValue(argument: string, value: unknown): ExpandableValue {
  if (value === undefined || value === null) {
    return { kind: "undefined" };
  }
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== undefined && item !== null);
    if (items.length === 0) return { kind: "undefined" };
    return { kind: "array", items: items.map((item) => formatScalar(argument, item)) };
  }
  if (isRecord(value)) {
    const entries: Array<[string, string]> = [];
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined && item !== null) entries.push([key, formatScalar(argument, item)]);
    }
    if (entries.length === 0) return { kind: "undefined" };
    return { kind: "object", entries };
  }
  return { kind: "primitive", text: formatScalar(argument, value) };
}

/** Content-based serialisation (`content` instead of `schema`): JSON for JSON media types. */
function serializeContentValue(contentType: string, argument: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (isJsonMediaType(contentType)) return JSON.stringify(value);
  return formatScalar(argument, value);
}

function joinPairs(entries: Array<[string, string]>, encode: Encoder, pair: string, join: string): string {
  return entries.map(([key, item]) => `${encode(key)}${pair}${encode(item)}`).join(join);
}

function flattenEntries(entries: Array<[string, string]>): string[] {
  return entries.flat();
}

function isDotSegment(text: string): boolean {
  return text === "." || text === "..";
}

function refuseDotSegments(binding: ParameterBindingNode, value: ExpandableValue): void {
  const texts = value.kind === "primitive" ? [value.text] : value.kind === "array" ? value.items : [];
  for (const text of texts) {
    if (isDotSegment(text)) {
      throw new ArgumentError(
        binding.argument,
        `"${text}" is not allowed in the path parameter "${binding.name}": it would change which resource the URL names`,
      );
    }
  }
}

/** RFC 6570 `;` expansion of one name/value pair: an empty value drops the `=`. */
function formatMatrixPair(name: string, text: string): string {
  return text === "" ? `;${name}` : `;${name}=${text}`;
}

/**
 * The text that replaces `{name}` in the path template (styles simple, label and matrix).
 * Every value is percent-encoded, so an argument can never add a segment, a query or a fragment.
 */
export function serializePathParameter(binding: ParameterBindingNode, value: unknown): string {
  const encode = encodeUriComponentStrict;
  let expandable: ExpandableValue;
  if (binding.contentType !== undefined) {
    const text = serializeContentValue(binding.contentType, binding.argument, value);
    expandable = text === undefined ? { kind: "undefined" } : { kind: "primitive", text };
  } else {
    expandable = classifyValue(binding.argument, value);
  }
  if (expandable.kind === "undefined") {
    throw new ArgumentError(
      binding.argument,
      `the path parameter "${binding.name}" needs a value (not null, an empty array or an empty object)`,
    );
  }
  refuseDotSegments(binding, expandable);

  const name = encode(binding.name);
  let result: string;
  if (binding.contentType !== undefined && expandable.kind === "primitive") {
    result = encode(expandable.text);
  } else if (binding.style === "label") {
    result = `.${expandValue(expandable, encode, binding.explode, ".")}`;
  } else if (binding.style === "matrix") {
    result = expandMatrix(name, expandable, encode, binding.explode);
  } else {
    result = expandValue(expandable, encode, binding.explode, ",");
  }

  if (result === "" || isDotSegment(result)) {
    throw new ArgumentError(
      binding.argument,
      `the path parameter "${binding.name}" would serialise to "${result}", which is not a usable path segment`,
    );
  }
  return result;
}

/** simple / label expansion; `separator` joins exploded items (`,` for simple, `.` for label). */
function expandValue(value: ExpandableValue, encode: Encoder, explode: boolean, separator: string): string {
  switch (value.kind) {
    case "primitive":
      return encode(value.text);
    case "array":
      return value.items.map(encode).join(explode ? separator : ",");
    case "object":
      return explode
        ? joinPairs(value.entries, encode, "=", separator)
        : flattenEntries(value.entries).map(encode).join(",");
    default:
      return "";
  }
}

function expandMatrix(name: string, value: ExpandableValue, encode: Encoder, explode: boolean): string {
  switch (value.kind) {
    case "primitive":
      return formatMatrixPair(name, encode(value.text));
    case "array":
      return explode
        ? value.items.map((item) => formatMatrixPair(name, encode(item))).join("")
        : `;${name}=${value.items.map(encode).join(",")}`;
    case "object":
      return explode
        ? value.entries.map(([key, item]) => formatMatrixPair(encode(key), encode(item))).join("")
        : `;${name}=${flattenEntries(value.entries).map(encode).join(",")}`;
    default:
      return "";
  }
}

const DELIMITERS: Partial<Record<ParameterStyle, string>> = {
  spaceDelimited: "%20",
  pipeDelimited: "%7C",
  tabDelimited: "%09",
};

export interface FormFieldInput {
  /** Argument name, for error messages. */
  argument: string;
  /** Field name on the wire (not yet encoded). */
  name: string;
  value: unknown;
  style: ParameterStyle;
  explode: boolean;
  allowReserved: boolean;
}

/**
 * Serialises one query parameter or one form-urlencoded body field (Encoding Object with
 * `style`/`explode`/`allowReserved`) into encoded `name=value` pairs, without `?` or `&`.
 */
export function serializeFormField(input: FormFieldInput): string[] {
  const encodeValue: Encoder = input.allowReserved ? encodeAllowReserved : encodeUriComponentStrict;
  const name = encodeUriComponentStrict(input.name);
  if (input.style === "deepObject" && (isRecord(input.value) || Array.isArray(input.value))) {
    const pairs: string[] = [];
    flattenDeepObject(input.argument, name, input.value, encodeValue, pairs);
    return pairs;
  }
  const value = classifyValue(input.argument, input.value);
  const delimiter = DELIMITERS[input.style];
  switch (value.kind) {
    case "undefined":
      return [];
    case "primitive":
      return [`${name}=${encodeValue(value.text)}`];
    case "array":
      if (input.explode || input.style === "deepObject") {
        return value.items.map((item) => `${name}=${encodeValue(item)}`);
      }
      return [`${name}=${value.items.map(encodeValue).join(delimiter ?? ",")}`];
    case "object":
      if (input.explode) {
        return value.entries.map(([key, item]) => `${encodeUriComponentStrict(key)}=${encodeValue(item)}`);
      }
      return [
        `${name}=${flattenEntries(value.entries)
          .map(encodeValue)
          .join(delimiter ?? ",")}`,
      ];
  }
}

function flattenDeepObject(
  argument: string,
  prefix: string,
  value: unknown,
  encode: Encoder,
  pairs: string[],
): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    const indexed = value.some((item) => isRecord(item) || Array.isArray(item));
    let index = 0;
    for (const item of value) {
      if (item === undefined || item === null) continue;
      // Indices count the items sent, so a skipped null leaves no gap a server could read as one.
      const child = indexed ? `${prefix}%5B${index++}%5D` : `${prefix}%5B%5D`;
      if (isRecord(item) || Array.isArray(item)) flattenDeepObject(argument, child, item, encode, pairs);
      else pairs.push(`${child}=${encode(formatScalar(argument, item))}`);
    }
    return;
  }
  if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const child = `${prefix}%5B${encodeUriComponentStrict(key)}%5D`;
      if (isRecord(item) || Array.isArray(item)) {
        flattenDeepObject(argument, child, item, encode, pairs);
      } else if (item !== undefined && item !== null) {
        pairs.push(`${child}=${encode(formatScalar(argument, item))}`);
      }
    }
    return;
  }
  pairs.push(`${prefix}=${encode(formatScalar(argument, value))}`);
}

/**
 * The query-string fragment for one parameter (pairs joined with `&`, no leading `?`), or ""
 * when the value is absent, null, an empty array or an empty object.
 */
export function serializeQueryParameter(binding: ParameterBindingNode, value: unknown): string {
  if (binding.contentType !== undefined) {
    const text = serializeContentValue(binding.contentType, binding.argument, value);
    if (text === undefined) return "";
    const encodeValue = binding.allowReserved ? encodeAllowReserved : encodeUriComponentStrict;
    return `${encodeUriComponentStrict(binding.name)}=${encodeValue(text)}`;
  }
  return serializeFormField({
    argument: binding.argument,
    name: binding.name,
    value,
    style: binding.style,
    explode: binding.explode,
    allowReserved: binding.allowReserved,
  }).join("&");
}

/** Refuses control characters (header injection) and percent-encodes non-ASCII characters. */
function sanitizeHeaderText(binding: ParameterBindingNode, text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) {
      throw new ArgumentError(
        binding.argument,
        `the header "${binding.name}" cannot contain control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
      );
    }
    out += code > 0x7e ? encodeUriComponentStrict(char) : char;
  }
  return out;
}

/**
 * The value of a header parameter (style simple), without the header name; "" when absent.
 * No percent-encoding except for non-ASCII characters; control characters are refused.
 */
export function serializeHeaderParameter(binding: ParameterBindingNode, value: unknown): string {
  const sanitize = (text: string) => sanitizeHeaderText(binding, text);
  if (binding.contentType !== undefined) {
    const text = serializeContentValue(binding.contentType, binding.argument, value);
    return text === undefined ? "" : sanitize(text);
  }
  return expandValue(classifyValue(binding.argument, value), sanitize, binding.explode, ",");
}

function refuseCookieBreakers(binding: ParameterBindingNode, text: string): string {
  if (/[\r\n\0]/.test(text)) {
    throw new ArgumentError(binding.argument, `the cookie "${binding.name}" cannot contain CR, LF or NUL`);
  }
  return text;
}

/**
 * The `name=value` text for the Cookie header (style form); exploded arrays and objects give
 * several pairs joined with `; `. "" when absent.
 */
export function serializeCookieParameter(binding: ParameterBindingNode, value: unknown): string {
  const encodeValue = (text: string) => encodeCookieValue(refuseCookieBreakers(binding, text));
  const name = encodeCookieName(binding.name);
  if (binding.contentType !== undefined) {
    const text = serializeContentValue(binding.contentType, binding.argument, value);
    return text === undefined ? "" : `${name}=${encodeValue(text)}`;
  }
  const expandable = classifyValue(binding.argument, value);
  switch (expandable.kind) {
    case "undefined":
      return "";
    case "primitive":
      return `${name}=${encodeValue(expandable.text)}`;
    case "array":
      return binding.explode
        ? expandable.items.map((item) => `${name}=${encodeValue(item)}`).join("; ")
        : `${name}=${expandable.items.map(encodeValue).join(",")}`;
    case "object":
      return binding.explode
        ? expandable.entries.map(([key, item]) => `${encodeCookieName(key)}=${encodeValue(item)}`).join("; ")
        : `${name}=${flattenEntries(expandable.entries).map(encodeValue).join(",")}`;
  }
}

/**
 * Replaces every `{name}` in a path template with its serialised path parameter. A variable
 * with no binding or no value, or a segment that would end up empty, `.` or `..`, is refused.
 */
export function fillPathTemplate(
  template: string,
  bindings: ParameterBindingNode[],
  args: Record<string, unknown>,
): string {
  let byName: Map<string, ParameterBindingNode> | undefined;
  const bindingOf = (variable: string) => {
    if (byName === undefined) {
      byName = new Map();
      for (const binding of bindings) if (binding.in === "path") byName.set(binding.name, binding);
    }
    return byName.get(variable);
  };
  let path = "";
  for (const [index, segment] of parsePathTemplate(template).entries()) {
    if (index > 0) path += "/";
    if (typeof segment === "string") {
      path += segment;
      continue;
    }
    let filled = "";
    for (const part of segment.parts) {
      if (typeof part === "string") {
        filled += part;
        continue;
      }
      const binding = bindingOf(part.variable);
      if (binding === undefined) {
        throw new ArgumentError(
          part.variable,
          `the path ${template} has {${part.variable}} but no parameter supplies it`,
        );
      }
      filled += serializePathParameter(binding, args[binding.argument]);
    }
    if (filled === "" || isDotSegment(filled)) {
      const variable = segment.parts.find((part) => typeof part !== "string")!.variable;
      throw new ArgumentError(
        bindingOf(variable)?.argument ?? variable,
        `the path segment "${segment.text}" would become "${filled}", which is not a usable path segment`,
      );
    }
    path += filled;
  }
  return path;
}

/** A segment of a path template: literal text (encoded), or text and variables in turn. */
type TemplateSegment = string | { text: string; parts: Array<string | { variable: string }> };

/**
 * Path templates split and their literal text encoded once: a tool's template is the same on
 * every call, only the variables' values change.
 */
const parsedTemplates = new Map<string, TemplateSegment[]>();
const MAX_PARSED_TEMPLATES = 10_000;

function parsePathTemplate(template: string): TemplateSegment[] {
  let segments = parsedTemplates.get(template);
  if (segments === undefined) {
    segments = template.split("/").map((segment): TemplateSegment => {
      if (!/\{[^{}]+\}/.test(segment)) return encodeLiteralPath(segment);
      const parts: Array<string | { variable: string }> = [];
      let last = 0;
      for (const match of segment.matchAll(/\{([^{}]+)\}/g)) {
        parts.push(encodeLiteralPath(segment.slice(last, match.index)), { variable: match[1]! });
        last = match.index + match[0].length;
      }
      parts.push(encodeLiteralPath(segment.slice(last)));
      return { text: segment, parts };
    });
    if (parsedTemplates.size >= MAX_PARSED_TEMPLATES) parsedTemplates.clear();
    parsedTemplates.set(template, segments);
  }
  return segments;
}

/**
 * Literal text of a path template as the spec wrote it, made sendable: characters a path
 * segment may not hold (RFC 3986 §3.3 pchar: space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `|`,
 * non-ASCII...) are percent-encoded; `%XX` triples the spec already wrote are kept. Real specs
 * have keys like `/Your Pull DOC Request API Path`, which no HTTP client can send as they are.
 */
function encodeLiteralPath(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const triple = /^%[0-9A-Fa-f]{2}/.exec(text.slice(i));
    if (triple) {
      out += triple[0];
      i += 2;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    if (char.length > 1) i++;
    out += /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/.test(char) ? char : encodeUriComponentStrict(char);
  }
  return out;
}

/** All query parameters in binding order joined with `&` (absent ones left out); "" if none. */
export function buildQueryString(bindings: ParameterBindingNode[], args: Record<string, unknown>): string {
  return bindings
    .filter((binding) => binding.in === "query")
    .map((binding) => serializeQueryParameter(binding, args[binding.argument]))
    .filter((fragment) => fragment !== "")
    .join("&");
}
