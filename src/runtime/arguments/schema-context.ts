/**
 * What the coercion pre-pass and the issue messages read from a tool's input schema: local
 * `$ref`s resolved once per schema, the types and branches a schema allows, the subschema of a
 * property or item, and a structural check that tells oneOf/anyOf branches apart.
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import { resolvePointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { JsonSchema } from "../../model/types.js";
import { boundedRegExp, type RegExpLike } from "../regex/bounded-regexp.js";

export const ROOT = "(root)";

/** Deepest nesting accepted in arguments (also stops cycles in in-process callers' objects). */
export const MAX_DEPTH = 100;

/** Schema-to-schema hops ($ref, allOf, ...) without descending into the value: guards ref loops. */
export const MAX_SCHEMA_HOPS = 32;

export type SchemaRecord = Record<string, unknown>;

/** Per-validator caches: everything here belongs to one root schema. */
export interface SchemaContext {
  root: JsonSchema;
  refs: Map<string, unknown>;
  patterns: Map<string, RegExpLike | null>;
  branchValidators: Map<object, ValidateFunction | null>;
  reachable: WeakMap<object, Set<unknown>>;
}

/** A schema and its `$ref` targets and `anyOf`/`oneOf`/`allOf` branches, flattened. */
export function schemaBranches(sc: SchemaContext, schema: unknown, hops: number): SchemaRecord[] {
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

/**
 * A structural check (types, const, enum, required, properties, items, composition) used to tell
 * oneOf/anyOf branches apart; formats, patterns and bounds are left to Ajv.
 */
export function accepts(sc: SchemaContext, schema: unknown, value: unknown, hops: number): boolean {
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

export function resolveRef(sc: SchemaContext, ref: string): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  if (sc.refs.has(ref)) return sc.refs.get(ref);
  const target = resolvePointer(sc.root, ref);
  sc.refs.set(ref, target);
  return target;
}

/** Types a schema names itself (`type`, else those of `const` / `enum` values). */
export function ownTypes(schema: SchemaRecord): Set<string> | undefined {
  const { type } = schema;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  if ("const" in schema) return new Set([jsonType(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType));
  return undefined;
}

/** Types a schema allows, following `$ref` and composition; undefined when unconstrained. */
export function schemaTypes(sc: SchemaContext, schema: unknown, hops: number): Set<string> | undefined {
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

export function propertySchema(sc: SchemaContext, schema: SchemaRecord, key: string): unknown {
  const { properties, patternProperties } = schema;
  if (isRecord(properties) && Object.hasOwn(properties, key)) return properties[key];
  if (isRecord(patternProperties)) {
    for (const [pattern, sub] of Object.entries(patternProperties)) {
      if (compilePattern(sc, pattern)?.test(key)) return sub;
    }
  }
  return Object.hasOwn(schema, "additionalProperties") ? schema.additionalProperties : undefined;
}

export function itemSchemaAt(schema: SchemaRecord, index: number): unknown {
  const { prefixItems, items } = schema;
  if (Array.isArray(prefixItems) && index < prefixItems.length) return prefixItems[index];
  return Array.isArray(items) ? undefined : items;
}

/** A `patternProperties` key as a bounded-time test (a pattern no dialect compiles matches nothing). */
function compilePattern(sc: SchemaContext, pattern: string): RegExpLike | null {
  let regex = sc.patterns.get(pattern);
  if (regex === undefined) {
    regex = compilesSomehow(pattern) ? boundedRegExp(pattern, "u") : null;
    sc.patterns.set(pattern, regex);
  }
  return regex;
}

function compilesSomehow(pattern: string): boolean {
  for (const flags of ["u", ""]) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // the next dialect
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Ajv errors → issues

/** The JSON type of a value (`integer` for whole numbers). */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

export function typeAccepts(types: Set<string>, value: unknown): boolean {
  if (typeof value === "number")
    return types.has("number") || (types.has("integer") && Number.isInteger(value));
  return types.has(jsonType(value));
}

export function jsonEqual(a: unknown, b: unknown): boolean {
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
export function joinPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (base === "") {
    // Argument names stay as they are unless they hold characters that would break a message line.
    const quoted = JSON.stringify(key);
    return quoted.slice(1, -1) === key ? key : quoted;
  }
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}
