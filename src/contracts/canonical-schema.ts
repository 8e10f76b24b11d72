/**
 * A tool's schemas in canonical form as objects, for catalogs and the diff: the same form whose
 * text runtime/server/canonical.ts writes for digests (canonicalJson(canonicalizeSchema(s))
 * equals canonicalSchemaJson(s), to the byte; test/unit/contracts/canonical-json.test.ts).
 */
import { isRecord } from "../model/records.js";
import type { JsonSchema, JsonValue } from "../model/types.js";
import {
  type CanonicalOptions,
  PROSE_KEYWORDS,
  SET_KEYWORDS,
  sortKeys,
  subschemaKind,
} from "../runtime/server/canonical.js";

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

/** The values of a set-like array in one order: by their canonical JSON text, duplicates dropped. */
function sortValues(values: JsonValue[]): JsonValue[] {
  const byText = new Map<string, JsonValue>();
  for (const value of values) {
    const sorted = sortKeys(value);
    byText.set(JSON.stringify(sorted), sorted);
  }
  return [...byText.keys()].sort().map((text) => byText.get(text)!);
}
