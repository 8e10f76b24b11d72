/**
 * Ajv errors → one short, model-readable issue per bad argument (the argument path, what was
 * expected, the closest known names for an unknown one); argument-issues-text.ts words them.
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { splitPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import { suggestNames } from "../../model/similarity.js";
import type { JsonSchema } from "../../model/types.js";
import type { ArgumentIssue } from "./argument-issues-text.js";
import { compileSchema } from "./compile-schema.js";
import {
  joinPath,
  jsonEqual,
  MAX_SCHEMA_HOPS,
  ROOT,
  resolveRef,
  type SchemaContext,
  schemaTypes,
  typeAccepts,
} from "./schema-context.js";

export { type ArgumentIssue, formatArgumentIssues } from "./argument-issues-text.js";

// ---------------------------------------------------------------------------------------------
// Compilation

export function collectIssues(
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
          (options.length === 1
            ? `must be ${quoteValue(options[0])}`
            : `must be one of ${listValues(options)}`) + explainCodes(error.parentSchema, options),
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
  const close = suggestNames(name, valid, 3);
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

export function describeValue(value: unknown): string {
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

export function count(n: unknown, noun: string): string {
  if (n === 1) return `1 ${noun}`;
  return `${String(n)} ${noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`}`;
}

export function dedupeIssues(issues: ArgumentIssue[]): ArgumentIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.argument}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Most characters of a description that explains an enum's codes, quoted and read. */
const CODES_TEXT = 160;
const CODES_READ = 2_000;
/** Most of an enum's codes looked for in it. */
const CODES_READ_OPTIONS = 64;

/**
 * Number codes say nothing alone (Zoom's meeting `type`: 1, 2, 3, 8); when the argument's
 * description explains them ("1 - Instant meeting. 2 - Scheduled meeting."), the refusal quotes
 * it, so the model can map its word to the code without another describe.
 */
function explainCodes(schema: unknown, options: unknown[]): string {
  if (options.length < 2 || !options.every((option) => typeof option === "number")) return "";
  const description =
    typeof schema === "object" && schema !== null
      ? (schema as { description?: unknown }).description
      : undefined;
  if (typeof description !== "string") return "";
  // Bounded: a spec's description may be megabytes and an enum thousands of values.
  const text = description.slice(0, CODES_READ).replace(/\s+/g, " ").trim();
  const words = new Set(text.split(/[^\d.-]+/).map((word) => word.replace(/\.+$/, "")));
  let named = 0;
  for (const option of options.slice(0, CODES_READ_OPTIONS)) if (words.has(String(option))) named++;
  if (named < 2) return "";
  return ` (${text.length > CODES_TEXT ? `${text.slice(0, CODES_TEXT - 1).trimEnd()}…` : text})`;
}
