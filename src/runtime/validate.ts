/**
 * Tool-call argument validation: checks MCP `tools/call` arguments against a tool's
 * `inputSchema` (JSON Schema 2020-12, local `$defs`) and turns failures into short,
 * model-readable issues.
 *
 * Before validating, one pre-pass walks the schema (resolving local `$ref`s) alongside a copy of
 * the arguments and repairs the shapes real MCP clients get wrong when the schema leaves no doubt
 * about the meaning: objects and arrays sent as JSON text, numbers and booleans sent as strings,
 * a single value where an array is expected. The caller's input is never touched.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { resolvePointer, splitPointer } from "../model/pointer.js";
import { isRecord } from "../model/records.js";
import { type JsonSchema, OPTIONAL_PROPERTIES_KEYWORD } from "../model/types.js";

export interface ArgumentIssue {
  /** Top-level argument name, a path such as `filter.status` or `tags[2]`, or `(root)`. */
  argument: string;
  message: string;
}

export type ArgumentCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; issues: ArgumentIssue[] };

export type ArgumentValidator = (args: unknown) => ArgumentCheck;

const ROOT = "(root)";
/** Keys that could reach an object's prototype if some later code assigned them naively. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Deepest nesting accepted in arguments (also stops cycles in in-process callers' objects). */
const MAX_DEPTH = 100;
/** Schema-to-schema hops ($ref, allOf, ...) without descending into the value: guards ref loops. */
const MAX_SCHEMA_HOPS = 32;
/**
 * Ajv keeps every schema it compiled in its instance (code scope), so one instance per process
 * would grow with every schema ever compiled. Instead a fresh instance takes over after this many
 * compilations; an old one is freed once no validator compiled by it is referenced any more.
 */
const COMPILES_PER_AJV = 200;
const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const NO_CHANGE: unique symbol = Symbol("no change");

type SchemaRecord = Record<string, unknown>;

/** Per-validator caches: everything here belongs to one root schema. */
interface SchemaContext {
  root: JsonSchema;
  refs: Map<string, unknown>;
  patterns: Map<string, RegExp | null>;
  branchValidators: Map<object, ValidateFunction | null>;
  reachable: WeakMap<object, Set<unknown>>;
}

interface CoerceContext {
  sc: SchemaContext;
  issues: ArgumentIssue[];
}

/**
 * Builds the validator for one tool. The schema is compiled on the first call and reused; the
 * returned value is a coerced copy of the arguments, safe to use as is.
 */
export function createArgumentValidator(strictSchema: JsonSchema): ArgumentValidator {
  // A strict-profile schema (every property required, optional ones nullable and listed under
  // OPTIONAL_PROPERTIES_KEYWORD) is checked without requiring those, and null for them is absent.
  const inputSchema = relaxOptionalProperties(strictSchema);
  const dropsNulls = inputSchema !== strictSchema;
  const sc: SchemaContext = {
    root: inputSchema,
    refs: new Map(),
    patterns: new Map(),
    branchValidators: new Map(),
    reachable: new WeakMap(),
  };
  let compiled: ValidateFunction | Error | undefined;

  return (args: unknown): ArgumentCheck => {
    const input = args === undefined ? {} : args;
    if (!isRecord(input)) {
      return {
        ok: false,
        issues: [{ argument: ROOT, message: `arguments must be an object, got ${describeValue(input)}` }],
      };
    }
    const cx: CoerceContext = { sc, issues: [] };
    const copy = sanitize(input, "", 0, cx.issues);
    const value = coerce(cx, inputSchema, copy, "", 0) as Record<string, unknown>;
    // After coercion, which may turn the text "null" into null.
    if (dropsNulls) dropAbsentNulls(sc, inputSchema, value, 0);

    compiled ??= compileOrError(inputSchema);
    if (compiled instanceof Error) throw compiled;
    if (compiled(value) && cx.issues.length === 0) return { ok: true, value };

    const issues = [...cx.issues];
    collectIssues(sc, [...(compiled.errors ?? [])], value, "", issues);
    return { ok: false, issues: dedupeIssues(issues) };
  };
}

/**
 * Model-readable text: one line per bad argument, then a line asking for a corrected call.
 */
export function formatArgumentIssues(toolName: string, issues: ArgumentIssue[]): string {
  const grouped = new Map<string, string[]>();
  for (const { argument, message } of issues) {
    const messages = grouped.get(argument);
    if (!messages) grouped.set(argument, [message]);
    else if (!messages.includes(message)) messages.push(message);
  }
  const lines = [`Invalid arguments for tool ${toolName}:`];
  for (const [argument, messages] of grouped) lines.push(`- ${argument}: ${messages.join("; ")}`);
  lines.push(`Fix the arguments listed above and call ${toolName} again.`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Compilation

interface AjvSlot {
  ajv: Ajv2020;
  compiled: number;
}

let currentSlot: AjvSlot | undefined;
/** Validators shared by every validator built for the same schema object. */
const compiledBySchema = new WeakMap<object, ValidateFunction>();

/** Patterns written for other regex dialects must not make a whole tool unusable: ignore them. */
const lenientRegExp = Object.assign(
  (pattern: string, flags: string): { test: (s: string) => boolean } => {
    try {
      return new RegExp(pattern, flags);
    } catch {
      try {
        return new RegExp(pattern);
      } catch {
        return { test: () => true };
      }
    }
  },
  { code: "new RegExp" },
);

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    verbose: true,
    logger: false,
    addUsedSchema: false,
    // The planner emits the schemas; meta-validating each one would cost more than compiling it.
    validateSchema: false,
    code: { regExp: lenientRegExp },
  });
  ajvFormats.default(ajv);
  return ajv;
}

function compileSchema(schema: JsonSchema): ValidateFunction {
  if (!currentSlot || currentSlot.compiled >= COMPILES_PER_AJV)
    currentSlot = { ajv: createAjv(), compiled: 0 };
  currentSlot.compiled += 1;
  const { ajv } = currentSlot;
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
  }
}

function compileOrError(schema: JsonSchema): ValidateFunction | Error {
  const known = compiledBySchema.get(schema);
  if (known) return known;
  try {
    const validate = compileSchema(schema);
    compiledBySchema.set(schema, validate);
    return validate;
  } catch (error) {
    return new Error(`Cannot compile the tool's input schema: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Optional properties of strict-profile schemas

/**
 * The schema with the names listed under OPTIONAL_PROPERTIES_KEYWORD taken out of `required`
 * (a copy), or the schema itself when it lists none: schemas of the default profile are
 * validated exactly as they are.
 */
function relaxOptionalProperties(schema: JsonSchema): JsonSchema {
  if (!listsOptional(schema, 0)) return schema;
  const relax = (node: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH || typeof node !== "object" || node === null) return node;
    if (Array.isArray(node)) return node.map((item) => relax(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = relax(value, depth + 1);
    const optional = out[OPTIONAL_PROPERTIES_KEYWORD];
    if (Array.isArray(optional) && Array.isArray(out.required)) {
      out.required = out.required.filter((name) => !optional.includes(name));
    }
    return out;
  };
  return relax(schema, 0) as JsonSchema;
}

function listsOptional(node: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some((item) => listsOptional(item, depth + 1));
  if (Object.hasOwn(node, OPTIONAL_PROPERTIES_KEYWORD)) return true;
  return Object.values(node).some((value) => listsOptional(value, depth + 1));
}

/** Deletes `null` values of properties a strict-profile schema lists as optional (in place). */
function dropAbsentNulls(sc: SchemaContext, schema: unknown, value: unknown, depth: number): void {
  if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return;
  const branches = schemaBranches(sc, schema, 0);
  if (Array.isArray(value)) {
    for (const branch of branches) {
      for (let i = 0; i < value.length; i++)
        dropAbsentNulls(sc, itemSchemaAt(branch, i), value[i], depth + 1);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const branch of branches) {
    const optional = branch[OPTIONAL_PROPERTIES_KEYWORD];
    if (!Array.isArray(optional)) continue;
    for (const name of optional) {
      if (typeof name === "string" && Object.hasOwn(record, name) && record[name] === null)
        delete record[name];
    }
  }
  for (const [key, item] of Object.entries(record)) {
    for (const branch of branches) {
      if (isRecord(branch.properties) && Object.hasOwn(branch.properties, key)) {
        dropAbsentNulls(sc, branch.properties[key], item, depth + 1);
      }
    }
  }
}

/** A schema and its `$ref` targets and `anyOf`/`oneOf`/`allOf` branches, flattened. */
function schemaBranches(sc: SchemaContext, schema: unknown, hops: number): SchemaRecord[] {
  if (!isRecord(schema) || hops > MAX_SCHEMA_HOPS) return [];
  const result: SchemaRecord[] = [schema];
  if (typeof schema.$ref === "string")
    result.push(...schemaBranches(sc, resolveRef(sc, schema.$ref), hops + 1));
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const branch of list) result.push(...schemaBranches(sc, branch, hops + 1));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Copy and coercion

/** Deep copy of JSON-like input that drops `undefined` members and refuses prototype keys. */
function sanitize(value: unknown, path: string, depth: number, issues: ArgumentIssue[]): unknown {
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
function coerce(cx: CoerceContext, schema: unknown, value: unknown, path: string, hops: number): unknown {
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

/**
 * A structural check (types, const, enum, required, properties, items, composition) used to tell
 * oneOf/anyOf branches apart; formats, patterns and bounds are left to Ajv.
 */
function accepts(sc: SchemaContext, schema: unknown, value: unknown, hops: number): boolean {
  if (schema === false) return false;
  if (!isRecord(schema) || hops > MAX_SCHEMA_HOPS) return true;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(sc, schema.$ref);
    if (target !== undefined && !accepts(sc, target, value, hops + 1)) return false;
  }
  const types = ownTypes(schema);
  if (types && !typeAccepts(types, value)) return false;
  if ("const" in schema && !jsonEqual(schema.const, value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => jsonEqual(option, value))) return false;
  if (isRecord(value)) {
    if (Array.isArray(schema.required)) {
      for (const name of schema.required)
        if (typeof name === "string" && !Object.hasOwn(value, name)) return false;
    }
    for (const key of Object.keys(value)) {
      const sub = propertySchema(sc, schema, key);
      if (sub !== undefined && !accepts(sc, sub, value[key], 0)) return false;
    }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const sub = itemSchemaAt(schema, i);
      if (sub !== undefined && !accepts(sc, sub, value[i], 0)) return false;
    }
  }
  if (Array.isArray(schema.allOf) && !schema.allOf.every((b) => accepts(sc, b, value, hops + 1)))
    return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((b) => accepts(sc, b, value, hops + 1))) return false;
  if (Array.isArray(schema.oneOf)) {
    let passing = 0;
    for (const branch of schema.oneOf) if (accepts(sc, branch, value, hops + 1)) passing += 1;
    if (passing !== 1) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Schema helpers

function resolveRef(sc: SchemaContext, ref: string): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  if (sc.refs.has(ref)) return sc.refs.get(ref);
  const target = resolvePointer(sc.root, ref);
  sc.refs.set(ref, target);
  return target;
}

/** Types a schema names itself (`type`, else those of `const` / `enum` values). */
function ownTypes(schema: SchemaRecord): Set<string> | undefined {
  const { type } = schema;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  if ("const" in schema) return new Set([jsonType(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType));
  return undefined;
}

/** Types a schema allows, following `$ref` and composition; undefined when unconstrained. */
function schemaTypes(sc: SchemaContext, schema: unknown, hops: number): Set<string> | undefined {
  if (!isRecord(schema) || hops > MAX_SCHEMA_HOPS) return undefined;
  const own = ownTypes(schema);
  if (own) return own;
  if (typeof schema.$ref === "string") {
    const fromRef = schemaTypes(sc, resolveRef(sc, schema.$ref), hops + 1);
    if (fromRef) return fromRef;
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const types = schemaTypes(sc, branch, hops + 1);
      if (types) return types;
    }
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const union = new Set<string>();
    for (const branch of branches) {
      const types = schemaTypes(sc, branch, hops + 1);
      if (!types) return undefined;
      for (const t of types) union.add(t);
    }
    return union;
  }
  return undefined;
}

function propertySchema(sc: SchemaContext, schema: SchemaRecord, key: string): unknown {
  const { properties, patternProperties } = schema;
  if (isRecord(properties) && Object.hasOwn(properties, key)) return properties[key];
  if (isRecord(patternProperties)) {
    for (const [pattern, sub] of Object.entries(patternProperties)) {
      if (compilePattern(sc, pattern)?.test(key)) return sub;
    }
  }
  return Object.hasOwn(schema, "additionalProperties") ? schema.additionalProperties : undefined;
}

function itemSchemaAt(schema: SchemaRecord, index: number): unknown {
  const { prefixItems, items } = schema;
  if (Array.isArray(prefixItems) && index < prefixItems.length) return prefixItems[index];
  return Array.isArray(items) ? undefined : items;
}

function compilePattern(sc: SchemaContext, pattern: string): RegExp | null {
  let regex = sc.patterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, "u");
    } catch {
      try {
        regex = new RegExp(pattern);
      } catch {
        regex = null;
      }
    }
    sc.patterns.set(pattern, regex);
  }
  return regex;
}

// ---------------------------------------------------------------------------------------------
// Ajv errors → issues

function collectIssues(
  sc: SchemaContext,
  errors: ErrorObject[],
  rootValue: unknown,
  prefix: string,
  out: ArgumentIssue[],
): void {
  // Ajv reports every failing branch of a oneOf/anyOf right before the composition error
  // itself; drop those and explain the composition once instead.
  const keep = errors.map(() => true);
  for (let i = errors.length - 1; i >= 0; i--) {
    const error = errors[i]!;
    if (!keep[i] || (error.keyword !== "oneOf" && error.keyword !== "anyOf")) continue;
    const reachable = reachableSchemas(sc, error.schema);
    for (let j = i - 1; j >= 0; j--) {
      const inner = errors[j]!;
      if (!isWithin(inner.instancePath, error.instancePath) || !reachable.has(inner.parentSchema)) break;
      keep[j] = false;
    }
  }
  errors.forEach((error, i) => {
    if (!keep[i] || error.keyword === "if") return;
    if (error.keyword === "oneOf" || error.keyword === "anyOf")
      compositionIssues(sc, error, rootValue, prefix, out);
    else out.push(issueFor(sc, error, rootValue, prefix));
  });
}

function issueFor(sc: SchemaContext, error: ErrorObject, rootValue: unknown, prefix: string): ArgumentIssue {
  const params = error.params as Record<string, unknown>;
  const base = toArgumentPath(prefix + error.instancePath, rootValue);
  const here = base === ROOT ? "" : base;
  const data: unknown = error.data;
  switch (error.keyword) {
    case "type":
      return {
        argument: base,
        message: `expected ${joinTypes(toStrings(error.schema))}, got ${describeValue(data)}`,
      };
    case "required":
      return {
        argument: joinPath(here, String(params.missingProperty)),
        message: here === "" ? "required argument missing" : "required property missing",
      };
    case "dependentRequired":
      return {
        argument: joinPath(here, String(params.missingProperty)),
        message: `required when ${JSON.stringify(params.property)} is given`,
      };
    case "additionalProperties":
    case "unevaluatedProperties": {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return {
        argument: joinPath(here, name),
        message: unknownNameMessage(sc, error.parentSchema, name, here === ""),
      };
    }
    case "enum": {
      const options = Array.isArray(error.schema) ? error.schema : [];
      return {
        argument: base,
        message:
          options.length === 1
            ? `must be ${quoteValue(options[0])}`
            : `must be one of ${listValues(options)}`,
      };
    }
    case "const":
      return { argument: base, message: `must be ${quoteValue(error.schema)}` };
    case "format":
      return {
        argument: base,
        message: `expected ${formatHint(String(error.schema))}, got ${describeValue(data)}`,
      };
    case "pattern":
      return {
        argument: base,
        message: `must match the pattern ${JSON.stringify(String(error.schema))}, got ${describeValue(data)}`,
      };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return {
        argument: base,
        message: `must be ${String(params.comparison)} ${String(params.limit)}, got ${String(data)}`,
      };
    case "multipleOf":
      return {
        argument: base,
        message: `must be a multiple of ${String(params.multipleOf)}, got ${String(data)}`,
      };
    case "minLength":
    case "maxLength": {
      const length = typeof data === "string" ? [...data].length : 0;
      const bound = error.keyword === "minLength" ? "at least" : "at most";
      return {
        argument: base,
        message: `must be ${bound} ${count(params.limit, "character")} long, got ${length}`,
      };
    }
    case "minItems":
    case "maxItems": {
      const bound = error.keyword === "minItems" ? "at least" : "at most";
      const length = Array.isArray(data) ? data.length : 0;
      return {
        argument: base,
        message: `must contain ${bound} ${count(params.limit, "item")}, got ${length}`,
      };
    }
    case "minProperties":
    case "maxProperties": {
      const bound = error.keyword === "minProperties" ? "at least" : "at most";
      const noun = here === "" ? "argument" : "property";
      return { argument: base, message: `must have ${bound} ${count(params.limit, noun)}` };
    }
    case "uniqueItems":
      return {
        argument: base,
        message: `must not contain duplicates (items ${String(params.j)} and ${String(params.i)} are equal)`,
      };
    case "false schema":
      return { argument: base, message: "is not allowed" };
    case "not":
      return { argument: base, message: "matches a shape that is not allowed here" };
    default:
      return { argument: base, message: error.message ?? "is invalid" };
  }
}

function compositionIssues(
  sc: SchemaContext,
  error: ErrorObject,
  rootValue: unknown,
  prefix: string,
  out: ArgumentIssue[],
): void {
  const pointer = prefix + error.instancePath;
  const argument = toArgumentPath(pointer, rootValue);
  const branches: unknown[] = Array.isArray(error.schema) ? error.schema : [];
  const data: unknown = error.data;
  const passing = (error.params as Record<string, unknown>).passingSchemas;
  if (Array.isArray(passing)) {
    const matched = passing.map((i) => describeSchema(sc, branches[Number(i)]));
    out.push({
      argument,
      message: `matches more than one alternative (${matched.join("; ")}); it must match exactly one`,
    });
    return;
  }
  // When exactly one alternative fits the value's type (and discriminating constants), its own
  // errors say more than a list of alternatives.
  const plausible = branches.filter((branch) => isPlausible(sc, branch, data));
  if (plausible.length === 1) {
    const validate = branchValidator(sc, plausible[0]);
    if (validate && !validate(data) && validate.errors) {
      collectIssues(sc, [...validate.errors], rootValue, pointer, out);
      return;
    }
  }
  const quantifier = error.keyword === "oneOf" ? "exactly one" : "at least one";
  const shapes = branches.map((branch) => describeSchema(sc, branch)).join("; ");
  out.push({ argument, message: `must match ${quantifier} of: ${shapes}; got ${describeValue(data)}` });
}

function isPlausible(sc: SchemaContext, branch: unknown, data: unknown): boolean {
  const types = schemaTypes(sc, branch, 0);
  if (types && !typeAccepts(types, data)) return false;
  return isRecord(data) ? constantsMatch(sc, branch, data, 0) : true;
}

/** False when a property the value has contradicts a `const`/`enum` the branch fixes. */
function constantsMatch(
  sc: SchemaContext,
  schema: unknown,
  data: Record<string, unknown>,
  hops: number,
): boolean {
  if (!isRecord(schema) || hops > MAX_SCHEMA_HOPS) return true;
  if (typeof schema.$ref === "string" && !constantsMatch(sc, resolveRef(sc, schema.$ref), data, hops + 1)) {
    return false;
  }
  if (isRecord(schema.properties)) {
    for (const [key, raw] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(data, key)) continue;
      const sub = isRecord(raw) && typeof raw.$ref === "string" ? resolveRef(sc, raw.$ref) : raw;
      if (!isRecord(sub)) continue;
      if ("const" in sub && !jsonEqual(sub.const, data[key])) return false;
      if (Array.isArray(sub.enum) && !sub.enum.some((option) => jsonEqual(option, data[key]))) return false;
    }
  }
  if (Array.isArray(schema.allOf))
    return schema.allOf.every((branch) => constantsMatch(sc, branch, data, hops + 1));
  return true;
}

/** A validator for one alternative, compiled with the root's `$defs` so its local refs resolve. */
function branchValidator(sc: SchemaContext, branch: unknown): ValidateFunction | null {
  if (!isRecord(branch)) return null;
  const known = sc.branchValidators.get(branch);
  if (known !== undefined) return known;
  let validate: ValidateFunction | null = null;
  try {
    const standalone: JsonSchema = { ...(branch as JsonSchema) };
    for (const keyword of ["$defs", "definitions"]) {
      const defs = sc.root[keyword];
      if (defs !== undefined && !Object.hasOwn(standalone, keyword)) standalone[keyword] = defs;
    }
    validate = compileSchema(standalone);
  } catch {
    validate = null;
  }
  sc.branchValidators.set(branch, validate);
  return validate;
}

/** Every schema object reachable from `start`, local `$ref`s followed. */
function reachableSchemas(sc: SchemaContext, start: unknown): Set<unknown> {
  if (typeof start !== "object" || start === null) return new Set();
  const cached = sc.reachable.get(start);
  if (cached) return cached;
  const seen = new Set<unknown>();
  const stack: unknown[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string") stack.push(resolveRef(sc, child));
      else if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples")
        stack.push(child);
    }
  }
  sc.reachable.set(start, seen);
  return seen;
}

function unknownNameMessage(sc: SchemaContext, parentSchema: unknown, name: string, atRoot: boolean): string {
  const noun = atRoot ? "argument" : "property";
  const valid = declaredNames(sc, parentSchema, 0);
  if (valid.length === 0) {
    return atRoot
      ? "unknown argument; this tool takes no arguments"
      : "unknown property; no properties are allowed here";
  }
  const close = closestNames(name, valid);
  if (close.length > 0)
    return `unknown ${noun}; did you mean ${close.map((n) => JSON.stringify(n)).join(" or ")}?`;
  const shown = valid.slice(0, 20).join(", ");
  return `unknown ${noun}; valid ${noun === "argument" ? "arguments" : "properties"}: ${shown}${valid.length > 20 ? ", …" : ""}`;
}

function declaredNames(sc: SchemaContext, schema: unknown, hops: number): string[] {
  if (!isRecord(schema) || hops > MAX_SCHEMA_HOPS) return [];
  const names = new Set(isRecord(schema.properties) ? Object.keys(schema.properties) : []);
  if (typeof schema.$ref === "string") {
    for (const n of declaredNames(sc, resolveRef(sc, schema.$ref), hops + 1)) names.add(n);
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) for (const n of declaredNames(sc, branch, hops + 1)) names.add(n);
  }
  return [...names];
}

/** Up to three declared names nearest to `name` (edit distance, case and separators ignored). */
function closestNames(name: string, candidates: string[]): string[] {
  const wanted = normaliseName(name);
  const scored: { name: string; score: number }[] = [];
  for (const candidate of candidates) {
    const other = normaliseName(candidate);
    const distance = editDistance(wanted, other);
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, other.length) / 3));
    const contained =
      Math.min(wanted.length, other.length) >= 2 && (other.includes(wanted) || wanted.includes(other));
    if (distance <= limit || contained) scored.push({ name: candidate, score: distance });
  }
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score === best)
    .slice(0, 3)
    .map((s) => s.name);
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, "");
}

/** Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

function describeSchema(sc: SchemaContext, branch: unknown): string {
  let schema = branch;
  let name: string | undefined;
  if (isRecord(schema) && typeof schema.$ref === "string") {
    name = splitPointer(schema.$ref).at(-1);
    schema = resolveRef(sc, schema.$ref) ?? schema;
  }
  if (!isRecord(schema)) return name ?? (schema === false ? "nothing" : "any value");
  let shape: string;
  if ("const" in schema) shape = quoteValue(schema.const);
  else if (Array.isArray(schema.enum)) shape = `one of ${listValues(schema.enum)}`;
  else {
    const types = schemaTypes(sc, schema, 0);
    shape = types ? joinTypes([...types]) : "any value";
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
    if (required.length > 0) shape += ` with required ${listNames(required)}`;
    else if (properties.length > 0) shape += ` with properties ${listNames(properties)}`;
  }
  return name ? `${name} (${shape})` : shape;
}

const FORMAT_HINTS: Record<string, string> = {
  "date-time": 'a date-time (RFC 3339, e.g. "2024-01-31T09:30:00Z")',
  date: 'a date (YYYY-MM-DD, e.g. "2024-01-31")',
  time: 'a time (e.g. "09:30:00Z")',
  duration: 'an ISO 8601 duration (e.g. "P3DT4H")',
  email: "an email address",
  "idn-email": "an email address",
  uuid: 'a UUID (e.g. "123e4567-e89b-12d3-a456-426614174000")',
  uri: 'an absolute URI (e.g. "https://example.com/a")',
  url: 'a URL (e.g. "https://example.com/a")',
  "uri-reference": "a URI reference",
  hostname: "a host name",
  ipv4: 'an IPv4 address (e.g. "192.0.2.1")',
  ipv6: "an IPv6 address",
  byte: "base64-encoded data",
  int32: "a 32-bit integer",
  int64: "a 64-bit integer",
  float: "a float",
  double: "a double",
  regex: "a regular expression",
  "json-pointer": 'a JSON pointer (e.g. "/a/b")',
};

function formatHint(format: string): string {
  return FORMAT_HINTS[format] ?? `a value in ${format} format`;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeAccepts(types: Set<string>, value: unknown): boolean {
  if (typeof value === "number")
    return types.has("number") || (types.has("integer") && Number.isInteger(value));
  return types.has(jsonType(value));
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every(
      (k) =>
        Object.hasOwn(b, k) &&
        jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/** `""` + `a` → `a`; `a` + `b` → `a.b`; `a` + 2 → `a[2]`; odd keys → `a["x y"]`. */
function joinPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (base === "") {
    // Argument names stay as they are unless they hold characters that would break a message line.
    const quoted = JSON.stringify(key);
    return quoted.slice(1, -1) === key ? key : quoted;
  }
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function toArgumentPath(pointer: string, rootValue: unknown): string {
  let path = "";
  let node: unknown = rootValue;
  for (const token of splitPointer(pointer)) {
    if (Array.isArray(node)) {
      const index = Number(token);
      path = joinPath(path, index);
      node = node[index];
    } else {
      path = joinPath(path, token);
      node = isRecord(node) ? node[token] : undefined;
    }
  }
  return path === "" ? ROOT : path;
}

function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return `string ${quoteString(value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return `array of ${count(value.length, "item")}`;
  return typeof value;
}

function quoteString(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);
}

function quoteValue(value: unknown): string {
  if (typeof value === "string") return quoteString(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function listValues(values: unknown[]): string {
  const shown = values.slice(0, 25).map(quoteValue).join(", ");
  return values.length > 25 ? `${shown}, … (${values.length - 25} more)` : shown;
}

function listNames(names: string[]): string {
  return names.length > 6 ? `${names.slice(0, 6).join(", ")}, …` : names.join(", ");
}

function joinTypes(types: string[]): string {
  if (types.length <= 1) return types[0] ?? "any value";
  return `${types.slice(0, -1).join(", ")} or ${types.at(-1)}`;
}

function toStrings(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [] : [String(value)];
}

function count(n: unknown, noun: string): string {
  if (n === 1) return `1 ${noun}`;
  return `${String(n)} ${noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`}`;
}

function dedupeIssues(issues: ArgumentIssue[]): ArgumentIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.argument}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
