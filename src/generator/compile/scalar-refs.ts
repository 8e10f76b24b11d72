/**
 * References a model reads better written out: a `$ref` to a plain value's schema (a string, a
 * number, a short enum) and a `$ref` that only names another `$ref`.
 *
 * Linode's spec refers to other schemas' properties (`Database/properties/label`, itself a
 * `$ref` to `Database/properties/label` of another schema): every field of its create bodies was
 * `{"$ref": "#/$defs/components_schemas_DatabaseMySQL_properties_label"}`, its docs and type two
 * definitions away, and code mode declared `label: ComponentsSchemasDatabaseMySQLPropertiesLabel`
 * where `label: string` says it all.
 */
import { resolvePointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";

/** Keywords that make a schema more than a plain value (an object, a list, a combination). */
const STRUCTURE_KEYWORDS = [
  "$ref",
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "discriminator",
];

const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * Characters of a plain value's schema (as converted) written out at each reference:
 * a long enum (currency or country codes) used by several properties of one tool stays one
 * definition.
 */
export const MAX_INLINED_SCALAR_CHARS = 400;

/**
 * Whether `node` describes a plain value only: a scalar type, values listed by enum/const, or a
 * list of such values written in place (Linode's `allow_list`: IP ranges).
 */
export function isScalarSchema(node: unknown): node is Record<string, unknown> {
  if (!isRecord(node)) return false;
  if (node["type"] === "array" && isRecord(node["items"])) {
    const { items, ...list } = node;
    return isScalarSchema(items) && isScalarSchema({ ...list, type: "string" });
  }
  if (STRUCTURE_KEYWORDS.some((key) => node[key] !== undefined)) return false;
  const type = node["type"];
  if (typeof type === "string") return SCALAR_TYPES.has(type);
  if (Array.isArray(type))
    return type.length > 0 && type.every((t) => typeof t === "string" && SCALAR_TYPES.has(t));
  return type === undefined && (Array.isArray(node["enum"]) || "const" in node);
}

/** Whether a schema object is a reference and nothing else a reader needs (`x-` extensions, a title). */
export function isBareRef(node: unknown): node is Record<string, unknown> & { $ref: string } {
  if (!isRecord(node) || typeof node["$ref"] !== "string") return false;
  return Object.keys(node).every((key) => key === "$ref" || key === "title" || key.startsWith("x-"));
}

/** How many references a chain may pass through before it is taken as it stands. */
const MAX_CHAIN = 8;

/**
 * The pointer a local reference ends at after the references that only name another one
 * (`DatabaseMySQL/properties/label` → `Database/properties/label`), and what is there.
 * Stops at a cycle, a missing target or MAX_CHAIN steps.
 */
export function followBareRefs(
  document: unknown,
  pointer: string,
  normalise: (ref: string) => string,
): string {
  const seen = new Set([pointer]);
  let current = pointer;
  for (let step = 0; step < MAX_CHAIN; step++) {
    const target = resolvePointer(document, current);
    if (!isBareRef(target) || !target.$ref.startsWith("#")) return current;
    const next = normalise(target.$ref);
    if (seen.has(next) || resolvePointer(document, next) === undefined) return current;
    seen.add(next);
    current = next;
  }
  return current;
}
