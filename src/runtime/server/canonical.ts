/**
 * The canonical text of a tool's schemas: object keys sorted at every level, and the arrays
 * whose order means nothing (`required`, `type`, `enum`) sorted, so that two schemas that
 * accept the same values the same way print the same text and get the same digest. Prose
 * (descriptions, titles, examples) can be kept or left out: the contract digest leaves it out,
 * so that rewording a description never reads as a new contract. The same form as objects,
 * for catalogs and the diff, is contracts/canonical-schema.ts's.
 */
import { hashShort } from "../../model/hash.js";
import { isRecord } from "../../model/records.js";
import { type KeywordKind, SCHEMA_KEYWORD_KINDS } from "../../model/schema-keywords.js";
import type { JsonValue } from "../../model/types.js";

/** Keywords that hold text for a reader, not a constraint on the value. */
export const PROSE_KEYWORDS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "examples",
  "example",
  "$comment",
]);

/** Keywords holding an array whose order carries no meaning. */
export const SET_KEYWORDS = new Set(["required", "type", "enum"]);

/** How a keyword holds subschemas (model/schema-keywords), or undefined for any other. */
export function subschemaKind(keyword: string): KeywordKind | undefined {
  return SCHEMA_KEYWORD_KINDS.get(keyword);
}

export interface CanonicalOptions {
  /** Keep descriptions, titles and examples (default true). */
  prose?: boolean;
}

/** A JSON value with object keys sorted at every level (array order kept). */
export function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as JsonValue);
  return out;
}

/**
 * `JSON.stringify(sortKeys(value))` in one pass, without the sorted copy: what every digest
 * hashes. The text is the same to the byte, including where JSON.stringify departs from the
 * sorted order: an object lists its array-index keys ("0", "12") first, in numeric order, as
 * every JS object does; `undefined` members are left out and `undefined` in an array is null.
 */
export function canonicalJson(value: JsonValue): string {
  return valueJson(value) ?? "null";
}

/** canonicalJson, or undefined where JSON.stringify gives undefined (an undefined value). */
function valueJson(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? "," : ""}${valueJson(value[i]) ?? "null"}`;
    return `${out}]`;
  }
  if (!isRecord(value)) return JSON.stringify(value) as string | undefined;
  let out = "{";
  for (const key of objectOrder(value)) out = member(out, key, valueJson(value[key]));
  return `${out}}`;
}

/** `out` with one more `"key":text` member, or as it is when the member is left out. */
function member(out: string, key: string, text: string | undefined): string {
  return text === undefined ? out : `${out}${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${text}`;
}

/**
 * `JSON.stringify(sortKeys(canonicalizeSchema(schema, options)))` in one pass (see
 * canonicalJson): the text a contract digest hashes for a schema. tools/list carries the
 * digest of every tool, so a start from a saved model pays this for each of them.
 */
export function canonicalSchemaJson(schema: JsonValue, options: CanonicalOptions = {}): string {
  return schemaJson(schema, options.prose !== false) ?? "null";
}

function schemaJson(schema: unknown, prose: boolean): string | undefined {
  if (!isRecord(schema)) return valueJson(schema);
  let out = "{";
  for (const key of objectOrder(schema)) {
    if (!prose && PROSE_KEYWORDS.has(key)) continue;
    const value = schema[key];
    const kind = subschemaKind(key);
    let text: string | undefined;
    if (kind === "schema") text = schemaJson(value, prose);
    else if (kind === "schemaArray" && Array.isArray(value)) {
      text = "[";
      for (let i = 0; i < value.length; i++)
        text += `${i > 0 ? "," : ""}${schemaJson(value[i], prose) ?? "null"}`;
      text += "]";
    } else if (kind === "schemaMap" && isRecord(value)) {
      const shared = key === "$defs" || key === "definitions";
      text = "{";
      for (const name of objectOrder(value)) {
        const entry = value[name];
        text = member(text, name, shared ? sharedSchemaJson(entry, prose) : schemaJson(entry, prose));
      }
      text += "}";
    } else if (SET_KEYWORDS.has(key) && Array.isArray(value)) {
      // sortValues: distinct texts in sort order (an undefined one last, as Array#sort puts it).
      const texts = [...new Set(value.map(valueJson))].sort();
      text = `[${texts.map((t) => t ?? "null").join(",")}]`;
    } else text = valueJson(value);
    out = member(out, key, text);
  }
  return `${out}}`;
}

/**
 * The canonical text of a `$defs` entry, kept by the entry: the planner shares each component's
 * object among every tool that reaches it (Microsoft Graph beta: hundreds of entries in each of
 * 17,504 input schemas), so each is written once, not once per tool (5.3 s of the 22,361
 * contract digests `model` saves for Graph beta, and of its first tools/list in tools mode).
 * Schemas are not changed once planned; a changed copy is another object.
 */
function sharedSchemaJson(entry: unknown, prose: boolean): string | undefined {
  if (!isRecord(entry)) return schemaJson(entry, prose);
  const memo = prose ? withProse : withoutProse;
  let text = memo.get(entry);
  if (text === undefined) {
    text = schemaJson(entry, prose) ?? "null";
    memo.set(entry, text);
  }
  return text;
}

const withProse = new WeakMap<object, string>();
const withoutProse = new WeakMap<object, string>();

/** A key that is an array index ("0" to "4294967294"), which a JS object lists before the others. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isArrayIndex = (key: string) => ARRAY_INDEX.test(key) && Number(key) < 4294967295;

/**
 * The members JSON.stringify shows of an object that sortKeys built: sorted, array indexes
 * first in numeric order, and no `__proto__` (assigning it sets the copy's prototype).
 */
function objectOrder(value: Record<string, unknown>): string[] {
  const keys = sortKeyList(Object.keys(value));
  // Most objects have neither kind of key: both start with a digit or "_" (a cheap first test).
  for (const key of keys) {
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || first === 95) return reorder(keys);
  }
  return keys;
}

/**
 * Keys in Array#sort's order (UTF-16 code units, which `<` compares too): an insertion sort for
 * the few keys of a schema object, where the builtin sort costs more to call than to run (a
 * start pays for some ten thousand objects before V8 has optimised anything).
 */
function sortKeyList(keys: string[]): string[] {
  if (keys.length > 12) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

function reorder(keys: string[]): string[] {
  const indexes = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...keys.filter((key) => !isArrayIndex(key) && key !== "__proto__")];
}

/** Characters of the sha256 kept in a digest: 64 bits, collision-free for any real tool set. */
const DIGEST_HEX = 16;

/** The digest of a canonical JSON text (canonicalJson, canonicalSchemaJson). */
export function digestText(text: string): string {
  return `sha256:${hashShort(text, DIGEST_HEX)}`;
}
