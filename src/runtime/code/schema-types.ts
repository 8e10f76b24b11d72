/**
 * JSON Schema 2020-12 (a tool's inputSchema, local `$defs`) → TypeScript types as data: the one
 * conversion behind the `Args` interface of each generated tool module (printed by codegen) and
 * the signatures code mode shows the model (type-text.ts). The types describe the arguments
 * after validation. They are a reading aid, so where JSON Schema says more than TypeScript can
 * (`not`, `if`, patterns, bounds) they say less, never something else; the validator stays the
 * authority. Plain data and pure functions: the runtime computes them at serve time without
 * loading a code printer.
 */

import { unescapePointerToken } from "../../model/pointer.js";
import {
  type JsonSchema,
  type JsonValue,
  OPTIONAL_PROPERTIES_KEYWORD,
  type ToolNode,
} from "../../model/types.js";
import { toIdentifier } from "./identifiers.js";

/** A TypeScript type, as data. `ref` names must be identifiers declared alongside. */
export type TypeNode =
  | { kind: "keyword"; name: "string" | "number" | "boolean" | "null" | "unknown" | "never" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "ref"; name: string }
  | { kind: "array"; items: TypeNode }
  | { kind: "tuple"; items: TypeNode[]; rest?: TypeNode }
  | { kind: "object"; properties: TypeProperty[]; index?: TypeNode }
  | { kind: "union"; members: TypeNode[] }
  | { kind: "intersection"; members: TypeNode[] }
  /** A type already written out (a one-line signature's clipped part); never from a schema. */
  | { kind: "text"; text: string };

export interface TypeProperty {
  /** Any text: printed bare when it is an identifier, else as an escaped string literal. */
  name: string;
  optional: boolean;
  type: TypeNode;
  /** Spec text for the property's TSDoc. */
  docs?: string;
}

const UNKNOWN: TypeNode = { kind: "keyword", name: "unknown" };
const NEVER: TypeNode = { kind: "keyword", name: "never" };
/** Schemas nested deeper than this (without a `$ref`) are typed `unknown`. */
const MAX_DEPTH = 24;

export interface TypeContext {
  /** `$defs` key → the type alias declared for it. */
  defNames: Map<string, string>;
}

function isSchema(value: JsonValue | undefined): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function literalOf(value: JsonValue): TypeNode {
  if (value === null) return { kind: "keyword", name: "null" };
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return Number.isFinite(value) || typeof value !== "number" ? { kind: "literal", value } : UNKNOWN;
  }
  return UNKNOWN;
}

/** A union without duplicates; `unknown` swallows everything, `never` members vanish. */
export function unionOf(members: TypeNode[]): TypeNode {
  const flat: TypeNode[] = [];
  const seen = new Set<string>();
  for (const member of members.flatMap((m) => (m.kind === "union" ? m.members : [m]))) {
    if (member.kind === "keyword" && member.name === "unknown") return UNKNOWN;
    if (member.kind === "keyword" && member.name === "never") continue;
    // Simple members are compared by value; object, array and combined types by identity
    // (comparing them by value would serialise every nested type again, at every level).
    const key =
      member.kind === "keyword"
        ? member.name
        : member.kind === "literal"
          ? `${typeof member.value}:${String(member.value)}`
          : member.kind === "ref"
            ? `ref:${member.name}`
            : undefined;
    if (key !== undefined) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    flat.push(member);
  }
  if (flat.length === 0) return NEVER;
  return flat.length === 1 ? flat[0]! : { kind: "union", members: flat };
}

function intersectionOf(members: TypeNode[]): TypeNode {
  const kept = members.filter((m) => !(m.kind === "keyword" && m.name === "unknown"));
  if (kept.length === 0) return UNKNOWN;
  return kept.length === 1 ? kept[0]! : { kind: "intersection", members: kept };
}

/** The TSDoc of a property: its description, then what else a hook author wants to know. */
export function describeSchema(schema: JsonSchema): string | undefined {
  const lines: string[] = [];
  if (typeof schema["description"] === "string" && schema["description"].trim() !== "") {
    lines.push(schema["description"].trim());
  } else if (typeof schema["title"] === "string" && schema["title"].trim() !== "") {
    lines.push(schema["title"].trim());
  }
  if (typeof schema["format"] === "string") lines.push(`Format: ${schema["format"]}.`);
  if (schema["default"] !== undefined) lines.push(`@defaultValue ${JSON.stringify(schema["default"])}`);
  if (schema["deprecated"] === true) lines.push("@deprecated");
  return lines.length === 0 ? undefined : lines.join("\n");
}

export function objectProperties(schema: JsonSchema, context: TypeContext, depth: number): TypeProperty[] {
  const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
  // A strict-profile schema lists every property as required and names the optional ones under
  // OPTIONAL_PROPERTIES_KEYWORD; the validator drops their nulls, so hooks see them absent.
  const optional = new Set(
    Array.isArray(schema[OPTIONAL_PROPERTIES_KEYWORD])
      ? schema[OPTIONAL_PROPERTIES_KEYWORD].filter((r) => typeof r === "string")
      : [],
  );
  const required = new Set(
    Array.isArray(schema["required"])
      ? schema["required"].filter((r) => typeof r === "string" && !optional.has(r))
      : [],
  );
  return Object.entries(properties).map(([name, property]) => {
    const docs = isSchema(property) ? describeSchema(property) : undefined;
    return {
      name,
      optional: !required.has(name),
      type: schemaToType(property, context, depth + 1),
      ...(docs !== undefined ? { docs } : {}),
    };
  });
}

/** The type of additional properties, or undefined when there is no index signature to write. */
export function indexType(
  schema: JsonSchema,
  context: TypeContext,
  depth: number,
  hasProperties: boolean,
): TypeNode | undefined {
  const additional = schema["additionalProperties"];
  if (additional === false) return undefined;
  if (isSchema(additional) && Object.keys(additional).length > 0) {
    // Every declared property must fit the index signature: then it can only say `unknown`.
    return hasProperties ? UNKNOWN : schemaToType(additional, context, depth + 1);
  }
  if (isSchema(schema["patternProperties"])) return UNKNOWN;
  return hasProperties ? undefined : UNKNOWN;
}

function objectType(schema: JsonSchema, context: TypeContext, depth: number): TypeNode {
  const properties = objectProperties(schema, context, depth);
  const index = indexType(schema, context, depth, properties.length > 0);
  return { kind: "object", properties, ...(index !== undefined ? { index } : {}) };
}

function arrayType(schema: JsonSchema, context: TypeContext, depth: number): TypeNode {
  const prefix = schema["prefixItems"];
  if (Array.isArray(prefix) && prefix.length > 0) {
    const items = prefix.map((item) => schemaToType(item, context, depth + 1));
    const rest = schema["items"];
    return rest === false
      ? { kind: "tuple", items }
      : { kind: "tuple", items, rest: rest === undefined ? UNKNOWN : schemaToType(rest, context, depth + 1) };
  }
  const items = schema["items"];
  return { kind: "array", items: items === undefined ? UNKNOWN : schemaToType(items, context, depth + 1) };
}

function typeOfKeyword(type: string, schema: JsonSchema, context: TypeContext, depth: number): TypeNode {
  switch (type) {
    case "string":
      return { kind: "keyword", name: "string" };
    case "integer":
    case "number":
      return { kind: "keyword", name: "number" };
    case "boolean":
      return { kind: "keyword", name: "boolean" };
    case "null":
      return { kind: "keyword", name: "null" };
    case "array":
      return arrayType(schema, context, depth);
    case "object":
      return objectType(schema, context, depth);
    default:
      return UNKNOWN;
  }
}

/** `#/$defs/Key` → `Key` (unescaped), or undefined for any other reference. */
function readDefKey(ref: string): string | undefined {
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  return match ? unescapePointerToken(match[1]!) : undefined;
}

/** A JSON Schema (or boolean schema) → its TypeScript type. */
export function schemaToType(schema: JsonValue | undefined, context: TypeContext, depth = 0): TypeNode {
  if (schema === true || schema === undefined) return UNKNOWN;
  if (schema === false) return NEVER;
  if (!isSchema(schema) || depth > MAX_DEPTH) return UNKNOWN;

  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const key = readDefKey(ref);
    const name = key === undefined ? undefined : context.defNames.get(key);
    return name === undefined ? UNKNOWN : { kind: "ref", name };
  }
  if ("const" in schema) return literalOf(schema["const"]!);
  if (Array.isArray(schema["enum"])) return unionOf(schema["enum"].map(literalOf));

  let base: TypeNode | undefined;
  const type = schema["type"];
  if (typeof type === "string") base = typeOfKeyword(type, schema, context, depth);
  else if (Array.isArray(type)) {
    base = unionOf(
      type
        .filter((t): t is string => typeof t === "string")
        .map((t) => typeOfKeyword(t, schema, context, depth)),
    );
  } else if (isSchema(schema["properties"]) || schema["additionalProperties"] !== undefined) {
    base = objectType(schema, context, depth);
  } else if (schema["items"] !== undefined || schema["prefixItems"] !== undefined) {
    base = arrayType(schema, context, depth);
  }

  const parts: TypeNode[] = base === undefined ? [] : [base];
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const options = schema[keyword];
    if (Array.isArray(options) && options.length > 0) {
      parts.push(unionOf(options.map((option) => schemaToType(option, context, depth + 1))));
    }
  }
  const all = schema["allOf"];
  if (Array.isArray(all)) for (const member of all) parts.push(schemaToType(member, context, depth + 1));
  return parts.length === 0 ? UNKNOWN : intersectionOf(parts);
}

/** One type alias per `$defs` entry of an input schema. */
export interface TypeAlias {
  name: string;
  docs?: string;
  type: TypeNode;
}

/** The types of a tool's arguments: the properties of its arguments object, and its `$defs` aliases. */
export interface ArgumentTypes {
  properties: TypeProperty[];
  index?: TypeNode;
  aliases: TypeAlias[];
}

/** Refs a type reaches without passing through an object, array or tuple type. */
function directRefs(type: TypeNode, out: Set<string>): Set<string> {
  if (type.kind === "ref") out.add(type.name);
  else if (type.kind === "union" || type.kind === "intersection") {
    for (const member of type.members) directRefs(member, out);
  }
  return out;
}

/**
 * Type aliases that would reference themselves through unions or plain aliases only
 * (`type A = B; type B = A | null`), which TypeScript rejects: those become `unknown`.
 */
function breakAliasCycles(aliases: Map<string, TypeNode>): void {
  const onCycle = new Set<string>();
  for (const start of aliases.keys()) {
    const stack = [...directRefs(aliases.get(start)!, new Set())];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (name === start) {
        onCycle.add(start);
        break;
      }
      if (seen.has(name) || !aliases.has(name)) continue;
      seen.add(name);
      stack.push(...directRefs(aliases.get(name)!, new Set()));
    }
  }
  for (const name of onCycle) aliases.set(name, UNKNOWN);
}

/**
 * Aliases already declared in one answer, by `$defs` key: the schema's JSON and the name given.
 * Operations of one API share components, so describe's declarations would otherwise repeat
 * each shared type under a second name (`Task`, `Task2`), doubling the answer.
 */
export type DeclaredAliases = Map<string, { json: string; name: string }>;

/** The `$defs` keys a schema refers to, directly. */
function collectDefRefs(value: JsonValue | undefined, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) collectDefRefs(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") {
        const name = readDefKey(child);
        if (name !== undefined) out.add(name);
      } else collectDefRefs(child, out);
    }
  }
  return out;
}

/**
 * The `$defs` keys of this tool that are the same type as one `declared` already: the same
 * schema JSON, and every key it refers to (transitively) the same too.
 */
function findSameAliases(entries: [string, JsonValue][], declared: DeclaredAliases): Map<string, string> {
  const jsons = new Map(entries.map(([key, schema]) => [key, JSON.stringify(schema)]));
  const same = new Set(
    entries.filter(([key]) => declared.get(key)?.json === jsons.get(key)).map(([key]) => key),
  );
  const refs = new Map(entries.map(([key, schema]) => [key, collectDefRefs(schema, new Set())]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const key of same) {
      if ([...refs.get(key)!].some((ref) => jsons.has(ref) && !same.has(ref))) {
        same.delete(key);
        changed = true;
      }
    }
  }
  return new Map([...same].map((key) => [key, declared.get(key)!.name]));
}

/**
 * The argument types of `tool`: its `$defs` named as PascalCase identifiers that are not in
 * `taken` (names the caller declares itself; the chosen names are added to it). With
 * `declared`, a `$defs` entry identical to one declared before keeps that name and is not
 * returned as an alias again; new ones are added to it.
 */
export function planArgumentTypes(
  tool: ToolNode,
  taken: Set<string>,
  declared?: DeclaredAliases,
): ArgumentTypes {
  const defs = tool.inputSchema["$defs"];
  const defEntries = isSchema(defs) ? Object.entries(defs) : [];
  const reused = declared === undefined ? new Map<string, string>() : findSameAliases(defEntries, declared);
  const context: TypeContext = { defNames: new Map(reused) };
  for (const [key] of defEntries) {
    if (!reused.has(key)) context.defNames.set(key, toIdentifier(key, taken, true));
  }
  const fresh = defEntries.filter(([key]) => !reused.has(key));
  const types = new Map<string, TypeNode>();
  for (const [key, schema] of fresh) types.set(context.defNames.get(key)!, schemaToType(schema, context, 1));
  breakAliasCycles(types);
  const properties = objectProperties(tool.inputSchema, context, 0);
  const index = indexType(tool.inputSchema, context, 0, properties.length > 0);
  const aliases = fresh.map(([key, schema]): TypeAlias => {
    const name = context.defNames.get(key)!;
    // The first declaration of a key is the one later operations may share.
    if (declared !== undefined && !declared.has(key))
      declared.set(key, { json: JSON.stringify(schema), name });
    const docs = isSchema(schema) ? describeSchema(schema) : undefined;
    return { name, ...(docs !== undefined ? { docs } : {}), type: types.get(name)! };
  });
  return { properties, ...(index !== undefined ? { index } : {}), aliases };
}
