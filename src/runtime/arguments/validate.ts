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
import type { ValidateFunction } from "ajv/dist/2020.js";
import { isRecord } from "../../model/records.js";
import { type JsonSchema, OPTIONAL_PROPERTIES_KEYWORD } from "../../model/types.js";
import { PatternLimitError, withMatchBudget } from "../regex/bounded-regexp.js";
import { type CoerceContext, coerce, sanitize } from "./coerce.js";
import { compileOrError } from "./compile-schema.js";
import { type ArgumentIssue, collectIssues, dedupeIssues, describeValue } from "./issues.js";
import { itemSchemaAt, MAX_DEPTH, ROOT, type SchemaContext, schemaBranches } from "./schema-context.js";

export { type ArgumentIssue, formatArgumentIssues } from "./issues.js";

export type ArgumentCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; issues: ArgumentIssue[] }
  /** The tool's input schema cannot be compiled (a spec served with --no-validate): why. */
  | { ok: false; unusable: string };

export type ArgumentValidator = (args: unknown) => ArgumentCheck;

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

  const check = (args: unknown): ArgumentCheck => {
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
    if (compiled instanceof Error) return { ok: false, unusable: compiled.message };
    if (compiled(value) && cx.issues.length === 0) return { ok: true, value };

    const issues = [...cx.issues];
    collectIssues(sc, [...(compiled.errors ?? [])], value, "", issues);
    return { ok: false, issues: dedupeIssues(issues) };
  };
  // Every spec regex of one validation shares one step budget; a value it cannot check in
  // that time is refused, saying so, rather than block the event loop (bounded-regexp.ts).
  return (args) => {
    try {
      return withMatchBudget(() => check(args));
    } catch (error) {
      if (!(error instanceof PatternLimitError)) throw error;
      return {
        ok: false,
        issues: [{ argument: ROOT, message: `${error.message}; send a shorter value` }],
      };
    }
  };
}

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
