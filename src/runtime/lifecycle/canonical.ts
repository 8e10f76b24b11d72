/**
 * The canonical form of a tool's schemas: object keys sorted at every level, and the arrays
 * whose order means nothing (`required`, `type`, `enum`) sorted, so that two schemas that
 * accept the same values the same way print the same text and get the same digest. Prose
 * (descriptions, titles, examples) can be kept or left out: the contract digest leaves it out,
 * so that rewording a description never reads as a new contract.
 */
import { hashShort } from "../../model/hash.js";
import { escapePointerToken } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import { type KeywordKind, SCHEMA_KEYWORD_KINDS } from "../../model/schema-keywords.js";
import type { JsonSchema, JsonValue } from "../../model/types.js";

/** Keywords that hold text for a reader, not a constraint on the value. */
export const PROSE_KEYWORDS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "examples",
  "example",
  "$comment",
]);

/** Keywords holding an array whose order carries no meaning. */
const SET_KEYWORDS = new Set(["required", "type", "enum"]);

/** How a keyword holds subschemas (model/schema-keywords), or undefined for any other. */
export function subschemaKind(keyword: string): KeywordKind | undefined {
  return SCHEMA_KEYWORD_KINDS.get(keyword);
}

export interface CanonicalOptions {
  /** Keep descriptions, titles and examples (default true). */
  prose?: boolean;
}

/** A JSON Schema in canonical form (see the file comment). */
export function canonicalizeSchema(schema: JsonValue, options: CanonicalOptions = {}): JsonValue {
  return canonicalizeNode(schema, options.prose !== false);
}

function canonicalizeNode(schema: JsonValue, prose: boolean): JsonValue {
  if (!isRecord(schema)) return schema;
  const out: JsonSchema = {};
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key] as JsonValue;
    if (!prose && PROSE_KEYWORDS.has(key)) continue;
    const kind = subschemaKind(key);
    if (kind === "schema") out[key] = canonicalizeNode(value, prose);
    else if (kind === "schemaArray" && Array.isArray(value))
      out[key] = value.map((v) => canonicalizeNode(v, prose));
    else if (kind === "schemaMap" && isRecord(value)) {
      const map: JsonSchema = {};
      for (const name of Object.keys(value).sort())
        map[name] = canonicalizeNode(value[name] as JsonValue, prose);
      out[key] = map;
    } else if (SET_KEYWORDS.has(key) && Array.isArray(value)) out[key] = sortValues(value);
    else out[key] = sortKeys(value);
  }
  return out;
}

/** A JSON value with object keys sorted at every level (array order kept). */
export function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as JsonValue);
  return out;
}

/** The values of a set-like array in one order: by their canonical JSON text, duplicates dropped. */
function sortValues(values: JsonValue[]): JsonValue[] {
  const byText = new Map<string, JsonValue>();
  for (const value of values) {
    const sorted = sortKeys(value);
    byText.set(JSON.stringify(sorted), sorted);
  }
  return [...byText.keys()].sort().map((text) => byText.get(text)!);
}

/** The prose of a schema, each text with the pointer where it stands (for the docs digest). */
export function collectProse(schema: JsonValue, pointer = ""): [string, JsonValue][] {
  if (!isRecord(schema)) return [];
  const found: [string, JsonValue][] = [];
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key] as JsonValue;
    const here = `${pointer}/${escapePointerToken(key)}`;
    if (PROSE_KEYWORDS.has(key)) {
      found.push([here, sortKeys(value)]);
      continue;
    }
    const kind = subschemaKind(key);
    if (kind === "schema") found.push(...collectProse(value, here));
    else if (kind === "schemaArray" && Array.isArray(value))
      value.forEach((v, i) => {
        found.push(...collectProse(v, `${here}/${i}`));
      });
    else if (kind === "schemaMap" && isRecord(value))
      for (const name of Object.keys(value).sort())
        found.push(...collectProse(value[name] as JsonValue, `${here}/${escapePointerToken(name)}`));
  }
  return found;
}

/** Characters of the sha256 kept in a digest: 64 bits, collision-free for any real tool set. */
const DIGEST_HEX = 16;

/** `sha256:` and the first 16 hex characters of the SHA-256 of a value's JSON text (keys sorted). */
export function digestValue(value: JsonValue): string {
  return `sha256:${hashShort(JSON.stringify(sortKeys(value)), DIGEST_HEX)}`;
}
