/**
 * Whether an input schema could fail to compile, decided without compiling it: compiling every
 * tool's schema at build time (input-schema-check.ts) was a third of a cold start on GitHub
 * (1.1 s of 3.3 s, 1,223 tools) and most of one on Microsoft Graph (241 s of 388 s), while
 * nearly all schemas are plain data Ajv cannot refuse. A schema is compiled at build time only
 * when this walk finds what Ajv (with the runtime's options: strict off, no meta-schema check)
 * can refuse:
 * - a keyword value of a type Ajv's own keyword definition does not take (`"maximum": "50"`,
 *   draft-4 `"exclusiveMaximum": true`, an `items` array under 2020-12), an empty `enum`, a
 *   `type` that names no JSON type, `nullable` (Ajv wants `type` beside it);
 * - anything that names or defines another schema (`$ref`, `$id`, `$schema`, anchors: whether it
 *   resolves is Ajv's to say), a subschema that is neither an object nor a boolean, or nesting
 *   deeper than the walk goes.
 * What it passes still compiles at the first call, as before; a miss is told then, as the
 * operation_unavailable answer (runtime/engine/call-pipeline.ts), never a crash.
 */
// A spec's pattern never fails a compile: the runtime's regex engine (regex/bounded-regexp.ts)
// takes any pattern and bounds how it runs.
import { Ajv2020 } from "ajv/dist/2020.js";
import { INPUT_AJV_OPTIONS } from "../../runtime/arguments/input-ajv-options.js";

/** Deeper than this the schema is compiled instead (Ajv's own recursion is what could fail). */
const MAX_DEPTH = 64;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const REFERENCES = new Set([
  "$ref",
  "$id",
  "$schema",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "id",
]);
/** Keywords whose value is one schema, a list of them, or a map of them. */
const ONE_SCHEMA = [
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "additionalProperties",
  "items",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

let keywordTypes: Map<string, readonly string[]> | undefined;

/** The JSON types Ajv takes for each keyword's value, from its own definitions (same options as a call). */
function readKeywordTypes(): Map<string, readonly string[]> {
  if (keywordTypes !== undefined) return keywordTypes;
  const ajv = new Ajv2020({ ...INPUT_AJV_OPTIONS });
  keywordTypes = new Map();
  for (const [keyword, rule] of Object.entries(ajv.RULES.all)) {
    if (typeof rule !== "object") continue;
    const types = rule.definition.schemaType;
    if (types !== undefined && types.length > 0) keywordTypes.set(keyword, types);
  }
  return keywordTypes;
}

/** True when compiling `schema` could fail (see above); false when Ajv has nothing to refuse in it. */
export function mayFailToCompile(schema: unknown): boolean {
  return isRisky(schema, 0, readKeywordTypes());
}

function isRisky(node: unknown, depth: number, types: Map<string, readonly string[]>): boolean {
  if (typeof node === "boolean") return false;
  if (typeof node !== "object" || node === null || Array.isArray(node) || depth > MAX_DEPTH) return true;
  const schema = node as Record<string, unknown>;
  for (const [keyword, value] of Object.entries(schema)) {
    if (REFERENCES.has(keyword)) return true;
    const takes = types.get(keyword);
    if (takes !== undefined && !takes.includes(jsonTypeOf(value))) return true;
  }
  if (schema["nullable"] !== undefined) return true;
  if (Array.isArray(schema["enum"]) && schema["enum"].length === 0) return true;
  const type = schema["type"];
  if (type !== undefined && !(Array.isArray(type) ? type : [type]).every((t) => JSON_TYPES.has(t as string)))
    return true;
  for (const keyword of ONE_SCHEMA) {
    if (keyword in schema && isRisky(schema[keyword], depth + 1, types)) return true;
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = schema[keyword];
    if (Array.isArray(list) && list.some((item) => isRisky(item, depth + 1, types))) return true;
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (map === undefined) continue;
    if (!isMap(map)) return true;
    if (Object.values(map).some((item) => isRisky(item, depth + 1, types))) return true;
  }
  return false;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON type of a value as Ajv's schemaType names it (integers are numbers). */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
