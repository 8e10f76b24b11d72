/**
 * The pre-pass before validation: a sanitised deep copy of the arguments (no `undefined`, no
 * prototype keys, bounded depth), repaired where real MCP clients send the wrong shape and the
 * schema leaves no doubt (objects and arrays as JSON text, numbers and booleans as strings, one
 * value where an array is expected, a list where a string described as comma-separated is, an
 * object or list where a string described as JSON is).
 */
import { isRecord } from "../../model/records.js";
import type { ArgumentIssue } from "./issues.js";
import {
  accepts,
  itemSchemaAt,
  joinPath,
  MAX_DEPTH,
  MAX_SCHEMA_HOPS,
  ownTypes,
  propertySchema,
  ROOT,
  resolveRef,
  type SchemaContext,
  type SchemaRecord,
  schemaTypes,
  typeAccepts,
} from "./schema-context.js";

/** Keys that could reach an object's prototype if some later code assigned them naively. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const NO_CHANGE: unique symbol = Symbol("no change");

/** A description that says its string is a list joined by commas. */
const COMMA_LIST = /\bcomma[- ]?(?:separated|delimited)\b|\bseparated by commas?\b/i;

/**
 * A description that says its string holds JSON (Slack's `blocks`: "A JSON-based array of
 * structured blocks, presented as a URL-encoded string"; "JSON-encoded", "as a JSON string").
 */
const JSON_TEXT = /\bJSON\b/;

/** An item a comma-separated list can hold as it is. */
function isListItem(item: unknown): boolean {
  return (
    (typeof item === "string" && !item.includes(",")) || (typeof item === "number" && Number.isFinite(item))
  );
}

export interface CoerceContext {
  sc: SchemaContext;
  issues: ArgumentIssue[];
}

/** Deep copy of JSON-like input that drops `undefined` members and refuses prototype keys. */
export function sanitize(value: unknown, path: string, depth: number, issues: ArgumentIssue[]): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) {
    issues.push({ argument: path || ROOT, message: `nested more than ${MAX_DEPTH} levels deep` });
    return null;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out[i] = item === undefined ? null : sanitize(item, joinPath(path, i), depth + 1, issues);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) {
      issues.push({ argument: joinPath(path, key), message: `property name "${key}" is not allowed` });
      continue;
    }
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = sanitize(item, joinPath(path, key), depth + 1, issues);
  }
  return out;
}

/**
 * Returns `value` repaired for `schema`; unchanged parts keep their identity, changed containers
 * are shallow copies (the input was already copied by `sanitize`, so nothing shared is mutated).
 */
export function coerce(
  cx: CoerceContext,
  schema: unknown,
  value: unknown,
  path: string,
  hops: number,
): unknown {
  if (!isRecord(schema) || hops > MAX_SCHEMA_HOPS) return value;
  let v = value;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(cx.sc, schema.$ref);
    if (target !== undefined) v = coerce(cx, target, v, path, hops + 1);
  }
  const types = ownTypes(schema);
  if (types && !typeAccepts(types, v)) v = coerceToTypes(cx, schema, types, v, path);
  if (isRecord(v)) v = coerceProperties(cx, schema, v, path);
  else if (Array.isArray(v)) v = coerceItems(cx, schema, v, path);
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) v = coerce(cx, branch, v, path, hops + 1);
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0)
      v = coerceAlternatives(cx, branches, v, path, hops + 1);
  }
  return v;
}

function coerceToTypes(
  cx: CoerceContext,
  schema: SchemaRecord,
  types: Set<string>,
  value: unknown,
  path: string,
): unknown {
  if (typeof value === "string") {
    const converted = convertString(cx, types, value, path);
    if (converted !== NO_CHANGE) return converted;
  }
  // A number or boolean where only a string is accepted (ids, zip codes): its text is meant.
  if (
    types.has("string") &&
    !types.has("number") &&
    !types.has("integer") &&
    !types.has("boolean") &&
    ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean")
  ) {
    return String(value);
  }
  // A list where the schema asks for "a comma-separated list" as one string (Spotify's `ids`
  // and `uris`): the items joined are the string the API reads. Only items without a comma.
  if (
    types.has("string") &&
    !types.has("array") &&
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(isListItem) &&
    COMMA_LIST.test(typeof schema.description === "string" ? schema.description : "")
  ) {
    return value.join(",");
  }
  // An object or list where the schema asks for a string its description says is JSON: the
  // JSON text of what was given is the string the API reads.
  if (
    types.has("string") &&
    !types.has("object") &&
    !types.has("array") &&
    (isRecord(value) || Array.isArray(value)) &&
    JSON_TEXT.test(typeof schema.description === "string" ? schema.description.slice(0, 2000) : "")
  ) {
    return JSON.stringify(value);
  }
  if (types.has("array") && value !== null && value !== undefined && !Array.isArray(value)) {
    const itemSchema = itemSchemaAt(schema, 0);
    const trial: CoerceContext = { sc: cx.sc, issues: [] };
    const item = coerce(trial, itemSchema, value, joinPath(path, 0), 0);
    const itemTypes = schemaTypes(cx.sc, itemSchema, 0);
    if (!itemTypes || typeAccepts(itemTypes, item)) {
      cx.issues.push(...trial.issues);
      return [item];
    }
  }
  return value;
}

function convertString(cx: CoerceContext, types: Set<string>, text: string, path: string): unknown {
  const trimmed = text.trim();
  if ((types.has("object") && trimmed.startsWith("{")) || (types.has("array") && trimmed.startsWith("["))) {
    let parsed: unknown = NO_CHANGE;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      // not JSON after all: try the other conversions
    }
    if ((isRecord(parsed) && types.has("object")) || (Array.isArray(parsed) && types.has("array"))) {
      return sanitize(parsed, path, 0, cx.issues);
    }
  }
  if ((types.has("number") || types.has("integer")) && NUMERIC.test(trimmed)) {
    const n = Number(trimmed);
    if (types.has("number") ? Number.isFinite(n) : Number.isSafeInteger(n)) return n;
  }
  if (types.has("boolean") && (trimmed === "true" || trimmed === "false")) return trimmed === "true";
  if (types.has("null") && trimmed === "null") return null;
  return NO_CHANGE;
}

function coerceProperties(
  cx: CoerceContext,
  schema: SchemaRecord,
  object: Record<string, unknown>,
  path: string,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(object)) {
    const sub = propertySchema(cx.sc, schema, key);
    if (!isRecord(sub)) continue;
    const current = object[key];
    const next = coerce(cx, sub, current, joinPath(path, key), 0);
    if (next !== current) {
      out ??= { ...object };
      out[key] = next;
    }
  }
  return out ?? object;
}

function coerceItems(cx: CoerceContext, schema: SchemaRecord, array: unknown[], path: string): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < array.length; i++) {
    const sub = itemSchemaAt(schema, i);
    if (!isRecord(sub)) continue;
    const current = array[i];
    const next = coerce(cx, sub, current, joinPath(path, i), 0);
    if (next !== current) {
      out ??= array.slice();
      out[i] = next;
    }
  }
  return out ?? array;
}

/**
 * anyOf / oneOf: leave the value alone when some branch takes it as it is; otherwise coerce
 * only when exactly one branch accepts its coerced form.
 */
function coerceAlternatives(
  cx: CoerceContext,
  branches: unknown[],
  value: unknown,
  path: string,
  hops: number,
): unknown {
  for (const branch of branches) if (accepts(cx.sc, branch, value, hops)) return value;
  let chosen: { value: unknown; issues: ArgumentIssue[] } | undefined;
  let count = 0;
  for (const branch of branches) {
    const trial: CoerceContext = { sc: cx.sc, issues: [] };
    const candidate = coerce(trial, branch, value, path, hops);
    if (candidate !== value && accepts(cx.sc, branch, candidate, hops)) {
      count += 1;
      chosen = { value: candidate, issues: trial.issues };
    }
  }
  if (count !== 1 || !chosen) return value;
  cx.issues.push(...chosen.issues);
  return chosen.value;
}
