/**
 * OpenAPI Schema Object → JSON Schema 2020-12, keeping references as local `$defs`
 * (OAS 3.0 §4.7.24 Schema Object differences; OAS 3.1 §4.8.24 is JSON Schema already).
 *
 * Real specs are circular and large, so schemas are not inlined: every local `$ref` becomes
 * `#/$defs/<name>` and each tool carries only the definitions it reaches; only a short plain
 * value's schema (a string, a number, an enum: scalar-refs.ts) is written out where it is used.
 */
import { escapePointerToken, followLocalRef, resolvePointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import { SCHEMA_KEYWORD_KINDS as KEYWORD_KINDS } from "../../model/schema-keywords.js";
import type { JsonSchema, JsonValue } from "../../model/types.js";
import { DEFAULT_ARGUMENT_DESCRIPTION_BUDGET } from "./budgets.js";
import { copyJsonTree } from "./json-copy.js";
import { toUnicodePattern } from "./pattern.js";
import { isPlaceholderValue } from "./placeholder-values.js";
import { isReadOnlyProperty } from "./read-only.js";
import { followBareRefs, isScalarSchema, MAX_INLINED_SCALAR_CHARS } from "./scalar-refs.js";
import { compactDescription } from "./text.js";

interface DefEntry {
  name: string;
  schema: JsonSchema;
  /** Names of the definitions this one refers to directly. */
  refs: Set<string>;
}

function isEmptySchema(schema: JsonSchema | boolean): boolean {
  return typeof schema === "object" && Object.keys(schema).length === 0;
}

/** OpenAPI-only keywords that mean nothing to a JSON Schema validator or a model. */
const DROPPED_KEYWORDS = new Set([
  "discriminator",
  "xml",
  "externalDocs",
  "nullable",
  "example",
  "$schema",
  "$id",
]);

/**
 * Calls `visit` for each subschema directly under `node` (an object, not `true`/`false`), with
 * where it is: `parent[key]`, found under `keyword` (`properties`, `items`, `oneOf`...).
 * Values that only look like schemas (`enum`, `default`, `examples`) are not visited.
 */
export function forEachSubschema(
  node: Record<string, unknown>,
  visit: (
    child: Record<string, unknown>,
    parent: Record<string, unknown> | unknown[],
    key: string | number,
    keyword: string,
  ) => void,
): void {
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    const kind = KEYWORD_KINDS.get(keyword);
    if (kind === "schema") {
      if (isRecord(value)) visit(value, node, keyword, keyword);
    } else if (kind === "schemaArray") {
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          if (isRecord(item)) visit(item, value, i, keyword);
        });
      }
    } else if (kind === "schemaMap" && isRecord(value)) {
      for (const name of Object.keys(value)) {
        const item = value[name];
        if (isRecord(item)) visit(item, value, name, keyword);
      }
    }
  }
}

export interface SchemaConverterOptions {
  /** The whole (bundled, normalised) document that local refs point into. */
  document: unknown;
  /** 3.0 rules (nullable, boolean exclusive bounds) apply to 3.0 and converted 2.0 specs. */
  openapi30: boolean;
  /** Maximum characters of a description inside a schema (default DEFAULT_ARGUMENT_DESCRIPTION_BUDGET). */
  descriptionBudget?: number;
  /** Parameter descriptions said on many operations (repeated-texts.ts): never kept whole. */
  repeatedTexts?: ReadonlySet<string>;
}

/** OData's type annotation (see where `required` is converted). */
const ODATA_TYPE = "@odata.type";

/** Examples longer than this (as JSON) cost more tokens than they teach. */
const MAX_EXAMPLE_JSON = 80;

/**
 * Converts input schemas for many tools of one document, converting each referenced component
 * once and sharing the results. (Output schemas are outlines: see output.ts.)
 */
const NO_NAMES: ReadonlySet<string> = new Set();

export class SchemaConverter {
  private readonly document: unknown;
  private readonly openapi30: boolean;
  readonly descriptionBudget: number;
  readonly repeatedTexts: ReadonlySet<string>;
  private readonly defsByPointer = new Map<string, DefEntry>();
  private readonly defsByName = new Map<string, DefEntry>();
  private readonly usedNames = new Set<string>();
  /**
   * Each spec schema object converted once, with the definitions it names directly: a shared
   * parameter (GitHub's `owner`, `per_page`) or a body's property (Graph's entity properties,
   * flattened into every operation that sends the entity) is converted for each operation, and
   * converting is a pure function of the object. Each caller gets a copy of its own to change.
   */
  private readonly reachableByRefs = new Map<string, readonly string[]>();
  private readonly defsByNames = new WeakMap<readonly string[], Record<string, JsonSchema>>();
  private readonly converted = new WeakMap<object, { schema: JsonSchema; refs: readonly string[] }>();
  /** Plain values' schemas by pointer, converted once (null: not one, or too long to write out). */
  private readonly scalarsByPointer = new Map<string, JsonSchema | null>();
  private readonly targetPointers = new Map<string, string>();

  constructor(options: SchemaConverterOptions) {
    this.document = options.document;
    this.openapi30 = options.openapi30;
    this.descriptionBudget = options.descriptionBudget ?? DEFAULT_ARGUMENT_DESCRIPTION_BUDGET;
    this.repeatedTexts = options.repeatedTexts ?? new Set();
  }

  /**
   * Converts one schema. `refs` collects the names of the definitions it reaches directly;
   * pass the same set for every part of one tool and then call `collectDefs`.
   */
  convert(schema: unknown, refs: Set<string>): JsonSchema {
    if (!isRecord(schema)) return this.convertOnce(schema, refs);
    let known = this.converted.get(schema);
    if (known === undefined) {
      const own = new Set<string>();
      known = { schema: this.convertOnce(schema, own), refs: [...own] };
      this.converted.set(schema, known);
    }
    // collectDefs sorts what it collects: the order the names are added in does not matter.
    for (const name of known.refs) refs.add(name);
    return copyJsonTree(known.schema);
  }

  private convertOnce(schema: unknown, refs: Set<string>): JsonSchema {
    const converted = this.convertNode(schema, refs, 0);
    return typeof converted === "boolean" ? (converted ? {} : { not: {} }) : converted;
  }

  /**
   * All definitions reachable from `refs`, by name, in a stable (sorted) order. One object per
   * set of names reached, shared by every tool that reaches the same ones, as its entries are
   * (Microsoft Graph beta: 22,361 tools, 833 sets, 203,564 entries when each tool had its own
   * object): it is never changed (shareRepeatedSchemas changes a copy of the schema it shares).
   */
  collectDefs(refs: Set<string>): Record<string, JsonSchema> {
    const names = this.reachableNames(refs);
    const known = this.defsByNames.get(names);
    if (known !== undefined) return known;
    const defs: Record<string, JsonSchema> = {};
    for (const name of names) {
      const entry = this.defsByName.get(name);
      if (entry) defs[name] = entry.schema;
    }
    this.defsByNames.set(names, defs);
    return defs;
  }

  /**
   * The names reachable from `refs`, sorted; found once per set of names: many operations of a
   * large API name the same few components directly (Microsoft Graph's operations on one
   * entity), and each reaches hundreds more. Reachability is fixed once every name in `refs`
   * is converted, as it is when a tool's arguments are done.
   */
  private reachableNames(refs: Set<string>): readonly string[] {
    const key = [...refs].sort().join("\u0000");
    let names = this.reachableByRefs.get(key);
    if (names === undefined) {
      const seen = new Set<string>();
      const queue = [...refs];
      while (queue.length > 0) {
        const name = queue.pop()!;
        if (seen.has(name)) continue;
        seen.add(name);
        const entry = this.defsByName.get(name);
        if (entry) for (const next of entry.refs) if (!seen.has(next)) queue.push(next);
      }
      names = [...seen].sort();
      this.reachableByRefs.set(key, names);
    }
    return names;
  }

  /** Follows local `$ref`s to the schema they name (for shape checks, not for output). */
  dereference(schema: unknown): unknown {
    return followLocalRef(this.document, schema, { cached: true });
  }

  private convertNode(schema: unknown, refs: Set<string>, depth: number): JsonSchema | boolean {
    if (typeof schema === "boolean") return schema;
    if (!isRecord(schema)) return {};
    if (depth > 200) return {};
    if (typeof schema.$ref === "string") {
      const scalar = this.convertScalarRef(schema.$ref);
      const ref = scalar === undefined ? this.convertRef(schema.$ref) : undefined;
      // A plain value's schema is written out where it is referred to (scalar-refs.ts); the
      // reference's own keywords below apply to it as they would to the reference.
      const out: JsonSchema = scalar ?? { $ref: ref!.target };
      if (ref?.name !== undefined) refs.add(ref.name);
      // OAS 3.1 allows siblings of $ref; 3.0 ignores them but descriptions still help a model.
      for (const key of ["default", "deprecated", "readOnly", "writeOnly"]) {
        const value = schema[key];
        if (value !== undefined) out[key] = toJson(value);
      }
      const description = compactDescription(schema.description, this.descriptionBudget);
      if (description !== "") out.description = description;
      return this.applyNullable(schema, out);
    }
    const out: JsonSchema = {};
    const readOnly = this.listReadOnlyProperties(schema);
    for (const key of Object.keys(schema)) {
      const value = schema[key];
      if (key.startsWith("x-") || DROPPED_KEYWORDS.has(key)) continue;
      const kind = KEYWORD_KINDS.get(key);
      if (kind === "schema") {
        if (key === "items" && Array.isArray(value)) {
          // draft-04 style tuple items
          out.prefixItems = value.map((v) => this.convertNode(v, refs, depth + 1));
        } else {
          out[key] = this.convertNode(value, refs, depth + 1);
        }
      } else if (kind === "schemaArray") {
        if (Array.isArray(value)) {
          const members = value.map((v) => this.convertNode(v, refs, depth + 1));
          // An allOf member left empty by the keywords dropped (EC2's `{"xml": {...}}` beside
          // each `$ref`: 1,775 `{}` in its tools/list) constrains nothing: it is left out.
          const kept = key === "allOf" ? members.filter((member) => !isEmptySchema(member)) : members;
          if (kept.length > 0 || key !== "allOf") out[key] = kept;
        }
      } else if (kind === "schemaMap") {
        if (isRecord(value) && key !== "$defs" && key !== "definitions") {
          const map: JsonSchema = {};
          for (const [name, sub] of Object.entries(value)) {
            if (key === "properties" && readOnly.has(name)) continue;
            // patternProperties keys are regular expressions too (see pattern below).
            const entry = key === "patternProperties" ? toUnicodePattern(name) : name;
            if (entry !== undefined) setOwn(map, entry, this.convertNode(sub, refs, depth + 1));
          }
          out[key] = map;
        }
      } else if (key === "pattern") {
        // Clients compile patterns with Ajv's `u` flag: lax ones are rewritten or left out.
        const pattern = typeof value === "string" ? toUnicodePattern(value) : undefined;
        if (pattern !== undefined) out.pattern = pattern;
      } else if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
        if (typeof value === "number") out[key] = value;
        else if (value === true) {
          const bound = key === "exclusiveMinimum" ? schema.minimum : schema.maximum;
          if (typeof bound === "number") out[key] = bound;
        }
      } else if ((key === "minimum" || key === "maximum") && this.openapi30) {
        const exclusive = key === "minimum" ? schema.exclusiveMinimum : schema.exclusiveMaximum;
        if (exclusive !== true) out[key] = toJson(value);
      } else if (key === "description") {
        const description = compactDescription(value, this.descriptionBudget);
        if (description !== "") out.description = description;
      } else if (key === "title") {
        // component titles repeat the name a model already sees
      } else if (key === "examples") {
        const examples = pickExamples(Array.isArray(value) ? value : []);
        if (examples.length > 0) out.examples = examples;
      } else if (key === "type") {
        if (value === "file") {
          out.type = "string";
          out.format = "binary";
        } else {
          // Only JSON Schema's type names: anything else (an object where `properties` was meant,
          // "date", "int") makes the whole tool schema uncompilable for clients; it is dropped.
          const type = toSchemaType(value);
          if (type !== undefined) out.type = type;
        }
      } else {
        out[key] = toJson(value);
      }
    }
    if (schema.example !== undefined && out.examples === undefined) {
      const examples = pickExamples([schema.example]);
      if (examples.length > 0) out.examples = examples;
    }
    if (Array.isArray(out.required) && isRecord(out.properties)) {
      // readOnly properties are never sent (OAS: "SHOULD NOT be sent as part of the request").
      // OData's type annotation is needed only for a value of a derived type (OData JSON Format
      // 4.01, "Control Information: type"); converters mark it required on every schema
      // (Microsoft Graph: 1,419 of 2,599), so a model sending a plain message was refused for
      // each nested object without it. It stays a property a model may give.
      const props = out.properties as Record<string, unknown>;
      out.required = (out.required as JsonValue[]).filter((name) => {
        if (name === ODATA_TYPE || (typeof name === "string" && readOnly.has(name))) return false;
        const prop = typeof name === "string" ? this.dereference(props[name]) : undefined;
        return !(isRecord(prop) && prop.readOnly === true);
      });
      if ((out.required as JsonValue[]).length === 0) delete out.required;
    }
    if (Array.isArray(out.oneOf) && this.discriminates(schema)) {
      // OAS discriminator: the named property picks the branch, so branches may overlap (every
      // Cat is also a Dog when both are open objects). JSON Schema's oneOf would then accept no
      // value at all; anyOf accepts what the discriminator does (and a little more).
      out.anyOf = out.oneOf;
      delete out.oneOf;
    }
    if (Array.isArray(out.enum) && out.type === "array" && out.enum.every((v) => !Array.isArray(v))) {
      // An array whose enum lists item values (common in Swagger 2.0 parameters, copied as is by
      // converters) admits no value at all; the values are meant for the items.
      const items = isRecord(out.items) ? (out.items as JsonSchema) : {};
      out.items = items.enum === undefined ? { ...items, enum: out.enum } : items;
      delete out.enum;
    }
    return this.applyNullable(schema, out);
  }

  /**
   * The properties of an open object that are readOnly (their own keyword, or a `$ref` to a
   * schema that is): left out of an input schema, since they are never sent (OAS: "SHOULD NOT be
   * sent as part of the request"). On Asana and Xero they were 12-16% of every input schema's
   * characters (ids, timestamps, counts) and read to a model as things it could set. A closed
   * object (`additionalProperties: false`) keeps them, so a value that carries them is not
   * refused for naming a property the schema no longer lists.
   */
  private listReadOnlyProperties(schema: Record<string, unknown>): ReadonlySet<string> {
    const properties = schema.properties;
    if (!isRecord(properties) || schema.additionalProperties === false) return NO_NAMES;
    const found = new Set<string>();
    for (const [name, sub] of Object.entries(properties)) {
      if (isReadOnlyProperty(sub, (schema) => this.dereference(schema))) found.add(name);
    }
    return found.size > 0 ? found : NO_NAMES;
  }

  /** A oneOf with a discriminator, its own or one every branch inherits through allOf. */
  private discriminates(schema: Record<string, unknown>): boolean {
    if (isRecord(schema.discriminator)) return true;
    const branches = Array.isArray(schema.oneOf) ? schema.oneOf : [];
    const inherits = (node: unknown, depth: number): boolean => {
      const resolved = this.dereference(node);
      if (!isRecord(resolved) || depth > 4) return false;
      if (isRecord(resolved.discriminator)) return true;
      return Array.isArray(resolved.allOf) && resolved.allOf.some((part) => inherits(part, depth + 1));
    };
    return branches.length > 0 && branches.every((branch) => inherits(branch, 0));
  }

  /** OAS 3.0 `nullable: true` (and Swagger's x-nullable, mapped by the loader) → JSON Schema null. */
  private applyNullable(source: Record<string, unknown>, out: JsonSchema): JsonSchema {
    if (source.nullable !== true) return out;
    if (typeof out.type === "string") {
      out.type = [out.type, "null"];
    } else if (Array.isArray(out.type)) {
      if (!out.type.includes("null")) out.type = [...out.type, "null"];
    } else {
      return { anyOf: [out, { type: "null" }] };
    }
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }

  /**
   * The schema a local reference ends at (through references that only name another), converted
   * and copied, when it is a plain value's and short; otherwise undefined (kept a reference).
   */
  private convertScalarRef(ref: string): JsonSchema | undefined {
    if (!ref.startsWith("#")) return undefined;
    const pointer = this.findTargetPointer(ref);
    let converted = this.scalarsByPointer.get(pointer);
    if (converted === undefined) {
      const target = resolvePointer(this.document, pointer);
      // Measured as converted: the spec's prose is cut to the description budget there.
      const node = isScalarSchema(target) ? this.convertNode(target, new Set(), 0) : undefined;
      const fits = typeof node === "object" && JSON.stringify(node).length <= MAX_INLINED_SCALAR_CHARS;
      converted = fits ? node : null;
      this.scalarsByPointer.set(pointer, converted);
    }
    return converted === null ? undefined : copyJsonTree(converted);
  }

  /** The pointer a local reference ends at (followBareRefs), found once per reference text. */
  private findTargetPointer(ref: string): string {
    let pointer = this.targetPointers.get(ref);
    if (pointer === undefined) {
      pointer = followBareRefs(this.document, normalisePointer(ref), normalisePointer);
      this.targetPointers.set(ref, pointer);
    }
    return pointer;
  }

  private convertRef(ref: string): { target: string; name?: string } {
    if (!ref.startsWith("#")) return { target: ref };
    // A reference that only names another is read as that one: one definition, not a chain.
    const pointer = this.findTargetPointer(ref);
    const existing = this.defsByPointer.get(pointer);
    if (existing) return { target: `#/$defs/${escapePointerToken(existing.name)}`, name: existing.name };
    const name = this.chooseDefName(pointer);
    const entry: DefEntry = { name, schema: {}, refs: new Set() };
    // Registered before converting so that recursive references terminate.
    this.defsByPointer.set(pointer, entry);
    this.defsByName.set(name, entry);
    const target = resolvePointer(this.document, pointer);
    const converted = this.convertNode(target, entry.refs, 0);
    entry.schema = typeof converted === "boolean" ? (converted ? {} : { not: {} }) : converted;
    return { target: `#/$defs/${escapePointerToken(name)}`, name };
  }

  private chooseDefName(pointer: string): string {
    const match = /^\/components\/schemas\/([^/]+)$/.exec(pointer);
    const raw = match ? match[1]!.replaceAll("~1", "/").replaceAll("~0", "~") : pointer.slice(1);
    let base = raw.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "Schema";
    if (base.length > 100) base = base.slice(0, 100);
    let name = base;
    for (let i = 2; this.usedNames.has(name); i++) name = `${base}_${i}`;
    this.usedNames.add(name);
    return name;
  }
}

function normalisePointer(ref: string): string {
  let p = ref.slice(1);
  try {
    p = decodeURIComponent(p);
  } catch {
    // not URI-encoded
  }
  return p;
}

/**
 * The first short example, if any: one concrete value helps a model, a long one costs tokens;
 * a template's blank (`{{BLOCK_ID}}`, placeholder-values.ts) is none.
 */
export function pickExamples(values: unknown[]): JsonValue[] {
  for (const value of values) {
    if (value === undefined || isPlaceholderValue(value)) continue;
    const json = toJson(value);
    if (JSON.stringify(json).length <= MAX_EXAMPLE_JSON) return [json];
  }
  return [];
}

/** Copies a JSON-like value, dropping undefined and anything not representable in JSON. */
export function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined && typeof v !== "function") setOwn(out, k, toJson(v));
    }
    return out;
  }
  return null;
}

/** `target[key] = value` as an own property, also for `__proto__` (which would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

const SCHEMA_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** A `type` keyword as JSON Schema allows it (a type name or a list of distinct ones), else undefined. */
function toSchemaType(value: unknown): JsonValue | undefined {
  if (typeof value === "string") return SCHEMA_TYPES.has(value) ? value : undefined;
  if (!Array.isArray(value)) return undefined;
  const names = [...new Set(value.filter((v): v is string => typeof v === "string" && SCHEMA_TYPES.has(v)))];
  return names.length > 0 ? names : undefined;
}
