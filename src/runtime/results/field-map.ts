/**
 * Field errors in an upstream's 400/422 answer, mapped back to the tool's argument names. The
 * bridge flattens an object body's properties into top-level arguments and suffixes clashing
 * names (`id__body`), so the API's `id` or `/data/attributes/id` is not what the model sent;
 * this module undoes that with the HTTP binding of the tool (parameters[].argument/name/in and
 * body.properties[].argument/name).
 *
 * Shapes read (each a list of {field, message}, a field being a name, a dotted path, a JSON
 * pointer or a location array):
 * - RFC 9457 problem details: `errors: [{pointer|name|field, detail|reason|message}]`,
 *   RFC 7807's `invalid-params: [{name, reason}]`, ASP.NET `errors: {Field: [messages]}`
 * - JSON:API: `errors: [{source: {pointer|parameter}, detail|title}]`
 * - `{error: {details|errors: [{field, message|description|reason}]}}`
 * - Google: `error.details[].fieldViolations: [{field, description}]`
 * - FastAPI / pydantic: `detail: [{loc: ["body", "x", 0], msg}]`
 * - express-validator: `errors: [{param|path, msg, location}]`; Spring: `errors: [{field, defaultMessage}]`
 * - Rails, Laravel: `errors: {field: [messages]}`; GitLab: `message: {field: [messages]}`;
 *   Django REST framework: `{field: [messages]}`
 * - GitHub: `errors: [{resource, field, code, message?}]`
 */

import { isRecord } from "../../model/records.js";
import type { ParameterLocation, ToolNode } from "../../model/types.js";

export type FieldLocation = ParameterLocation | "body";

/** One complaint of the API about one field. */
export interface FieldError {
  /** The field as the API named it (a name, a dotted path or a JSON pointer). */
  field: string;
  message: string;
  /** Where the API says the field is, when it says so (FastAPI `loc`, express-validator). */
  location?: FieldLocation;
}

/** A field error with the argument of our tool it is about, when one matches. */
export interface MappedFieldError extends FieldError {
  /** The tool's argument (with a path into it for nested fields: `address.city`, `body[0].name`). */
  argument?: string;
}

type Segment = string | number;

const MAX_ERRORS = 50;

function firstString(record: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

const MESSAGE_KEYS = [
  "message",
  "msg",
  "detail",
  "reason",
  "description",
  "defaultMessage",
  "issue",
  "title",
  "code",
];
const FIELD_KEYS = [
  "field",
  "pointer",
  "param",
  "target",
  "path",
  "property",
  "propertyPath",
  "attribute",
  "name",
  "key",
];
const LOCATIONS = new Set(["body", "query", "path", "header", "cookie"]);
/** Other words for a location (express-validator: params, headers, cookies). */
const LOCATION_ALIASES: Record<string, FieldLocation> = {
  params: "path",
  headers: "header",
  cookies: "cookie",
  querystring: "query",
};

function toLocation(value: unknown): FieldLocation | undefined {
  if (typeof value !== "string") return undefined;
  const lower = value.toLowerCase();
  return LOCATIONS.has(lower) ? (lower as FieldLocation) : LOCATION_ALIASES[lower];
}

/** The field errors an error body names, in the order it names them (at most 50). */
export function extractFieldErrors(body: unknown): FieldError[] {
  const found: FieldError[] = [];
  const add = (error: FieldError | undefined) => {
    if (!error || found.length >= MAX_ERRORS) return;
    if (found.some((e) => e.field === error.field && e.message === error.message)) return;
    found.push(error);
  };
  if (!isRecord(body)) return found;

  // FastAPI / pydantic: detail: [{loc: [...], msg}]
  if (Array.isArray(body.detail)) for (const item of body.detail) add(fromListItem(item));
  // GitLab: message: {title: ["can't be blank"]} (a string message is read elsewhere).
  for (const key of [
    "errors",
    "invalid-params",
    "invalid_params",
    "invalidParams",
    "violations",
    "issues",
    "message",
  ]) {
    readErrorCollection(body[key], add);
  }
  // PayPal: details: [{field, issue, description}] (a list only: a `details` object is no field map)
  if (Array.isArray(body.details)) readErrorCollection(body.details, add);
  const error = body.error;
  if (isRecord(error)) {
    // Stripe: one error object naming its parameter; Azure/OData: error.target
    if (["param", "field", "target"].some((k) => typeof error[k] === "string")) add(fromListItem(error));
    for (const key of ["errors", "details", "invalid-params", "fields", "fieldErrors"]) {
      readErrorCollection(error[key], add);
    }
    // Google: error.details[].fieldViolations[{field, description}]
    if (Array.isArray(error.details)) {
      for (const detail of error.details) {
        if (isRecord(detail) && Array.isArray(detail.fieldViolations)) {
          for (const violation of detail.fieldViolations) add(fromListItem(violation));
        }
      }
    }
  }
  // Django REST framework: the body itself is {field: [messages]} (non_field_errors aside).
  if (found.length === 0 && isFieldMessageMap(body)) readErrorCollection(body, add);
  return found;
}

/** A list of error objects, or a map of field → message(s). */
function readErrorCollection(value: unknown, add: (error: FieldError | undefined) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) add(fromListItem(item));
    return;
  }
  if (!isRecord(value)) return;
  for (const [field, messages] of Object.entries(value)) {
    if (isGeneralKey(field)) continue;
    for (const message of messagesOf(messages)) add({ field, message });
  }
}

/** `{field: ["msg"]}` or `{field: "msg"}` with every value a message. */
function isFieldMessageMap(body: Record<string, unknown>): boolean {
  if (["detail", "message", "error", "errors", "title", "type", "status"].some((k) => k in body))
    return false;
  const entries = Object.entries(body).filter(([key]) => !isGeneralKey(key));
  return (
    entries.length > 0 &&
    entries.every(
      ([, value]) => Array.isArray(value) && value.length > 0 && value.every((m) => typeof m === "string"),
    )
  );
}

function isGeneralKey(key: string): boolean {
  return ["non_field_errors", "base", "", "$", "_error", "__all__", "global"].includes(key);
}

function messagesOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) {
    return value.flatMap((item) =>
      typeof item === "string" ? [item] : isRecord(item) ? [firstString(item, MESSAGE_KEYS) ?? ""] : [],
    );
  }
  if (isRecord(value)) {
    const message = firstString(value, MESSAGE_KEYS);
    return message ? [message] : [];
  }
  return [];
}

function fromListItem(item: unknown): FieldError | undefined {
  if (!isRecord(item)) return undefined;
  let location: FieldLocation | undefined;
  let field: string | undefined;
  if (Array.isArray(item.loc)) {
    // FastAPI: loc: ["body", "pet", "name"] / ["query", "limit"]
    const loc = item.loc.filter((s): s is string | number => typeof s === "string" || typeof s === "number");
    if (typeof loc[0] === "string" && LOCATIONS.has(loc[0])) {
      location = loc[0] as FieldLocation;
      loc.shift();
    }
    field = formatPath(loc);
    if (field === "" && location === "body") field = "body";
  }
  const source = item.source;
  if (field === undefined && isRecord(source)) {
    // JSON:API: source.pointer into the document, or source.parameter (a query parameter)
    if (typeof source.pointer === "string") {
      field = source.pointer;
      location = "body";
    } else if (typeof source.parameter === "string") {
      field = source.parameter;
      location = "query";
    } else if (typeof source.header === "string") {
      field = source.header;
      location = "header";
    }
  }
  field ??= firstString(item, FIELD_KEYS);
  if (field === undefined && Array.isArray(item.path)) {
    field = formatPath(
      item.path.filter((s): s is string | number => typeof s === "string" || typeof s === "number"),
    );
  }
  if (field === undefined || field === "" || isGeneralKey(field)) return undefined;
  location ??= toLocation(item.location) ?? toLocation(item.in);
  let message = firstString(item, MESSAGE_KEYS) ?? "invalid";
  // GitHub: {resource, field, code: "missing_field"} without a message
  if (item.message === undefined && typeof item.code === "string" && message === item.code) {
    message = item.code.replace(/_/g, " ");
  }
  return location ? { field, message, location } : { field, message };
}

/** `["items", 0, "name"]` → `items[0].name` */
function formatPath(segments: Segment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

/**
 * A field as path segments: JSON pointers (`#/a/0/b`, `/data/attributes/b`), JSONPath-ish
 * (`$.a[0].b`), dotted and bracketed (`a.0.b`, `a[0][b]`).
 */
export function parseFieldPath(field: string): Segment[] {
  let text = field.trim();
  if (text.startsWith("#")) text = text.slice(1);
  if (text.startsWith("/")) {
    const segments = text
      .slice(1)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    // JSON:API resource objects: /data/attributes/x, /data/relationships/x
    if (segments[0] === "data" && (segments[1] === "attributes" || segments[1] === "relationships")) {
      segments.splice(0, 2);
    }
    return segments.filter((s) => s !== "").map(toSegment);
  }
  if (text.startsWith("$")) text = text.slice(1).replace(/^\./, "");
  const segments: Segment[] = [];
  for (const part of text.matchAll(/\[\s*['"]?([^\]'"]*)['"]?\s*\]|([^.[\]]+)/g)) {
    const value = part[1] ?? part[2];
    if (value !== undefined && value !== "") segments.push(toSegment(value));
  }
  return segments;
}

function toSegment(value: string): Segment {
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Lower-case, without `_`, `-` and `.`: `page_size`, `pageSize` and `PageSize` all match. */
function loose(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, "");
}

interface Target {
  argument: string;
  name: string;
  location: FieldLocation;
}

/**
 * The tool's argument a field is about, with the rest of the path appended, or undefined when
 * the field names nothing the tool has. Exact names win over case- and separator-insensitive
 * ones; with no location given, body properties win over parameters when both match (the
 * API is most often complaining about what it read from the body).
 */
export function mapFieldToArgument(
  tool: ToolNode,
  field: string,
  location?: FieldLocation,
): string | undefined {
  const segments = parseFieldPath(field);
  if (segments.length === 0) return undefined;
  // A JSON pointer points into the request document: the body.
  if (location === undefined && /^#?\//.test(field.trim())) location = "body";
  const targets: Target[] = [];
  const { body } = tool.http;
  if (body?.mode === "properties") {
    for (const p of body.properties ?? [])
      targets.push({ argument: p.argument, name: p.name, location: "body" });
  }
  for (const p of tool.http.parameters) targets.push({ argument: p.argument, name: p.name, location: p.in });
  const candidates = location ? targets.filter((t) => t.location === location) : targets;

  const head = segments[0]!;
  if (typeof head === "string") {
    const matchers: ((t: Target) => boolean)[] = [
      (t) => t.name === head,
      (t) => t.name.toLowerCase() === head.toLowerCase(),
      (t) => loose(t.name) === loose(head),
      // the API named our argument itself (`id__body` shown back to us)
      (t) => t.argument === head,
    ];
    for (const matches of matchers) {
      const found = candidates.filter(matches);
      if (found.length > 0) {
        const best = found.find((t) => t.location === "body") ?? found[0]!;
        return best.argument + formatRest(segments.slice(1));
      }
    }
  }
  if (body?.mode === "value" && body.argument && (location === undefined || location === "body")) {
    // The whole body is one argument: `/0/name` → body[0].name; an API echoing "body" → body.
    if (head === "body" || head === body.argument) return body.argument + formatRest(segments.slice(1));
    return body.argument + formatRest(segments);
  }
  if (location === undefined || location === "body") {
    const nested = findNested(tool, head);
    if (nested) return nested + formatRest(segments.slice(1));
  }
  return undefined;
}

function formatRest(segments: Segment[]): string {
  let out = "";
  for (const segment of segments) out += typeof segment === "number" ? `[${segment}]` : `.${segment}`;
  return out;
}

/**
 * A field one level down an object argument, when exactly one argument's schema has it
 * (Rails reports `email` for a body `{user: {email}}`).
 */
function findNested(tool: ToolNode, head: Segment): string | undefined {
  if (typeof head !== "string") return undefined;
  const properties = isRecord(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const defs = isRecord(tool.inputSchema.$defs) ? tool.inputSchema.$defs : {};
  const bodyArguments = new Set(
    tool.http.body?.mode === "properties" ? (tool.http.body.properties ?? []).map((p) => p.argument) : [],
  );
  const hits: string[] = [];
  for (const [argument, schema] of Object.entries(properties)) {
    if (!bodyArguments.has(argument)) continue;
    const resolved = resolveLocal(schema, defs);
    const inner = isRecord(resolved) && isRecord(resolved.properties) ? resolved.properties : undefined;
    if (!inner) continue;
    const name =
      Object.keys(inner).find((key) => key === head) ??
      Object.keys(inner).find((key) => loose(key) === loose(head));
    if (name !== undefined) hits.push(`${argument}.${name}`);
  }
  return hits.length === 1 ? hits[0] : undefined;
}

function resolveLocal(schema: unknown, defs: Record<string, unknown>): unknown {
  let node = schema;
  for (let i = 0; i < 8 && isRecord(node) && typeof node.$ref === "string"; i++) {
    const match = /^#\/\$defs\/(.+)$/.exec(node.$ref);
    if (!match) return node;
    node = defs[decodeURIComponent(match[1]!).replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

/** extractFieldErrors + mapFieldToArgument. */
export function mapFieldErrors(tool: ToolNode, body: unknown): MappedFieldError[] {
  return extractFieldErrors(body).map((error) => {
    const argument = mapFieldToArgument(tool, error.field, error.location);
    return argument === undefined ? error : { ...error, argument };
  });
}

/** `Argument \`x\`: must be ...` lines for the model; unknown fields as the API named them. */
export function formatFieldErrors(errors: MappedFieldError[]): string[] {
  return errors.map((error) =>
    error.argument !== undefined
      ? `- Argument \`${error.argument}\`: ${error.message}`
      : `- Field \`${error.field}\`${error.location ? ` (${error.location})` : ""}: ${error.message}`,
  );
}
