/**
 * Repeated subschemas of one tool's input schema become one `$defs` entry each: a spec often
 * inlines the same object several times (GitHub's ruleset rules each carry the same
 * `parameters`, Stripe repeats its merchant categories), and a model reads every copy on every
 * request. A `$ref` to an identical subschema validates exactly as the copy did.
 *
 * Only subschemas below the arguments move (an argument itself stays where clients and the
 * runtime read its description and type), and only where the copies cost more than the
 * references that replace them.
 */
import { hash } from "node:crypto";
import { isRecord } from "../../model/records.js";
import type { JsonSchema } from "../../model/types.js";
import { forEachSubschema } from "./json-schema.js";

/** Subschemas shorter than this (as JSON) cost about what a `$ref` to them does. */
const MIN_SHARED_CHARS = 120;
/**
 * Schemas longer than this are left as they are: each round reads the whole schema again, and
 * a tool that reaches a large part of an entity graph (Microsoft Graph: hundreds of entity
 * schemas, 100 KB to MBs of input schema) cost seconds where it saves a fraction of a percent.
 * GitHub's and Stripe's largest input schemas are under 20 KB.
 */
const MAX_SHARED_INPUT_CHARS = 64 * 1024;
/** Rounds of hoisting: each round moves the largest repeated subschema left. */
const MAX_ROUNDS = 32;

interface Occurrence {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  /** The property name (or keyword) it was found under: the start of its `$defs` name. */
  label: string;
  /** The root's `$defs` entry it is in (undefined: in the arguments). */
  entry?: string;
}

/**
 * `schema` with each repeated subschema moved to `$defs` once and referenced where it was;
 * `schema` itself when nothing repeats enough to pay. The input is never changed (its `$defs`
 * entries are shared with other tools).
 */
export function shareRepeatedSchemas(schema: JsonSchema): JsonSchema {
  const { length, inlineText } = measureJson(schema, MAX_SHARED_INPUT_CHARS);
  if (length < MIN_SHARED_CHARS * 3 || length > MAX_SHARED_INPUT_CHARS) return schema;
  const shape = inlineText === undefined ? undefined : hashShape(schema, inlineText);
  const known = shape === undefined ? undefined : sharedByShape.get(shape);
  if (known !== undefined) return known === NOTHING_TO_SHARE ? schema : (JSON.parse(known) as JsonSchema);
  let copy: JsonSchema | undefined;
  let reuse: ReuseFinds = readComponentFinds;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let repeated = findLargestRepeat(copy ?? schema, reuse);
    if (repeated === undefined) break;
    if (copy === undefined) {
      // The schema as given is never changed (its components are other tools' too): the copy
      // is. What was found in the schema is found in the copy by the objects copied.
      const copies = new Map<object, unknown>();
      const copied = copyJson(schema, copies);
      copy = copied.value as JsonSchema;
      repeated = { text: repeated.text, occurrences: repeated.occurrences.map((o) => inCopy(o, copies)) };
      reuse = copied.aliased ? NO_REUSE : reuseUntouched(schema, copies);
    }
    const defs = (isRecord(copy.$defs) ? copy.$defs : {}) as Record<string, JsonSchema>;
    const name = freeName(defs, repeated.occurrences[0]!.label);
    defs[name] = JSON.parse(repeated.text) as JsonSchema;
    for (const { parent, key, entry } of repeated.occurrences) {
      (parent as Record<string | number, unknown>)[key] = { $ref: `#/$defs/${escapeToken(name)}` };
      if (entry !== undefined) reuse.touched?.add(entry);
    }
    copy.$defs = defs;
  }
  if (shape !== undefined) {
    if (sharedByShape.size >= MAX_SHAPES) sharedByShape.clear();
    // Kept as text, read into a copy of its own by each later tool of the shape: a tool's
    // schema may be changed after (mcp-headers.ts), and parsing the text costs half what
    // cloning the object did, writing it half again.
    sharedByShape.set(shape, copy === undefined ? NOTHING_TO_SHARE : JSON.stringify(copy));
  }
  return copy ?? schema;
}

/**
 * A deep copy of JSON data as structuredClone makes it (an object met twice is copied once),
 * with each copy by its original in `copies`, and whether some object was met twice.
 */
function copyJson(value: unknown, copies: Map<object, unknown>): { value: unknown; aliased: boolean } {
  const state = { aliased: false };
  return { value: copyInto(value, copies, state), aliased: state.aliased };
}

function copyInto(value: unknown, copies: Map<object, unknown>, state: { aliased: boolean }): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) {
    state.aliased = true;
    return known;
  }
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    copies.set(value, list);
    for (const item of value) list.push(copyInto(item, copies, state));
    return list;
  }
  const object: Record<string, unknown> = {};
  copies.set(value, object);
  for (const key of Object.keys(value)) {
    const item = copyInto((value as Record<string, unknown>)[key], copies, state);
    // `__proto__` too as an own key, as it is in the original.
    if (key === "__proto__")
      Object.defineProperty(object, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else object[key] = item;
  }
  return object;
}

/** An occurrence found in a schema, at the same place in its copy. */
function inCopy(occurrence: Occurrence, copies: Map<object, unknown>): Occurrence {
  const parent = copies.get(occurrence.parent) as Occurrence["parent"];
  const moved: Occurrence = { parent, key: occurrence.key, label: occurrence.label };
  if (occurrence.entry !== undefined) moved.entry = occurrence.entry;
  return moved;
}

/**
 * What a search reads of a root `$defs` entry without walking it (undefined: walk it), and the
 * entries changed since (whose finds are no longer the component's).
 */
interface ReuseFinds {
  (name: string, entry: Record<string, unknown>): readonly Found[] | undefined;
  touched?: Set<string>;
}

const readComponentFinds: ReuseFinds = (name, entry) => readComponent(entry, name).finds;
const NO_REUSE: ReuseFinds = () => undefined;

/**
 * In the copy's later rounds: an entry no round changed is its component's copy, so what the
 * component holds is found in it by the objects copied, as in the first round; a changed entry
 * (or one sharing made) is walked. Only for a copy in which no object is in two places (a
 * change inside one would change another entry unseen): the converter's schemas are such.
 */
function reuseUntouched(schema: JsonSchema, copies: Map<object, unknown>): ReuseFinds {
  const originals = isRecord(schema.$defs) ? schema.$defs : {};
  const mapped = new Map<string, Found[]>();
  const touched = new Set<string>();
  const reuse: ReuseFinds = (name, entry) => {
    if (touched.has(name) || !Object.hasOwn(originals, name)) return undefined;
    const original = originals[name];
    if (!isRecord(original) || copies.get(original) !== entry) return undefined;
    let finds = mapped.get(name);
    if (finds === undefined) {
      finds = readComponent(original, name).finds.map((find) => ({
        text: find.text,
        occurrence: inCopy(find.occurrence, copies),
      }));
      mapped.set(name, finds);
    }
    return finds;
  };
  reuse.touched = touched;
  return reuse;
}

/**
 * What sharing made of an input schema, by its shape: many operations of a large API take the
 * very same arguments over the very same components (Microsoft Graph beta: 17,504 input schemas
 * to search, 10,873 shapes), and each search reads every subschema's text, each round of
 * sharing all of them again. The shape is a hash of the arguments' JSON text and of each
 * `$defs` entry's name and object (the converter shares a component's object among the tools
 * that reach it, and never changes it): two schemas of one shape are shared alike, so the
 * second gets a copy of the first's result (or itself, when nothing was worth sharing).
 */
const sharedByShape = new Map<string, string>();
/** Kept for a shape that nothing was worth sharing in: the schema itself is the answer. */
const NOTHING_TO_SHARE = "";
const MAX_SHAPES = 20_000;
const componentIds = new WeakMap<object, number>();
let nextComponentId = 0;

/**
 * The shape's hash in one call over one text (crypto.hash, no Hash object): Graph's tools name
 * up to hundreds of `$defs` entries each, and an update per entry cost more than the hashing.
 */
function hashShape(schema: JsonSchema, inlineText: string): string | undefined {
  const defs = schema.$defs;
  if (defs === undefined) return hash("sha256", inlineText, "base64");
  if (!isRecord(defs)) return undefined;
  const parts = [inlineText];
  for (const name of Object.keys(defs)) {
    const value = defs[name];
    if (!isRecord(value)) return undefined;
    let id = componentIds.get(value);
    if (id === undefined) {
      id = nextComponentId++;
      componentIds.set(value, id);
    }
    parts.push(`\u0000${name}\u0000${id}`);
  }
  return hash("sha256", parts.join(""), "base64");
}

interface Found {
  text: string;
  occurrence: Occurrence;
}

/**
 * What one component (a `$defs` entry made by the converter) holds, found once: the converter
 * shares each component object among every tool that reaches it, and a large API's tools reach
 * hundreds of them (Microsoft Graph: 11,422 tools; walking each tool's components again took
 * 25 s of a 41 s plan). Keyed by the object, with the name it was found under.
 */
const componentFinds = new WeakMap<object, { name: string; finds: Found[] }>();

function readComponent(component: Record<string, unknown>, name: string) {
  const cached = componentFinds.get(component);
  if (cached?.name === name) return cached;
  const finds: Found[] = [];
  collectSubschemas(component, name, false, name, NO_REUSE, (text, occurrence) =>
    finds.push({ text, occurrence }),
  );
  const entry = { name, finds };
  componentFinds.set(component, entry);
  return entry;
}

/**
 * A component's length as JSON, kept apart from what it holds: most components are only
 * measured (the tools that reach them are too long to share anything in).
 */
const componentLengths = new WeakMap<object, number>();

function measureComponent(component: Record<string, unknown>): number {
  let length = componentLengths.get(component);
  if (length === undefined) {
    length = JSON.stringify(component).length;
    componentLengths.set(component, length);
  }
  return length;
}

/**
 * `JSON.stringify(schema).length`, with each component's length counted once, and the JSON text
 * of the schema without its `$defs` (undefined when a `$defs` entry is no object). Once the
 * `$defs` alone are longer than `limit`, a length above `limit` and no text: such a schema is
 * left as it is, and most of a large API's tools reach hundreds of components (Microsoft Graph),
 * where writing their arguments' text only to find that cost a fifth of this file's time.
 */
function measureJson(schema: JsonSchema, limit: number): { length: number; inlineText?: string } {
  const { $defs: defs, ...inline } = schema;
  let defsLength = 0;
  if (isRecord(defs)) {
    defsLength = 2 + Math.max(0, Object.keys(defs).length - 1); // braces and commas of $defs
    for (const [name, value] of Object.entries(defs)) {
      if (!isRecord(value)) return { length: JSON.stringify(schema).length };
      defsLength += JSON.stringify(name).length + 1 + measureComponent(value);
      if (defsLength > limit) return { length: defsLength };
    }
  }
  const inlineText = JSON.stringify(inline);
  const base = inlineText.length;
  if (!isRecord(defs)) {
    return defs === undefined ? { length: base, inlineText } : { length: JSON.stringify(schema).length };
  }
  // `"$defs":` and, beside other keys, its comma
  return { length: base + (Object.keys(inline).length > 0 ? 1 : 0) + 8 + defsLength, inlineText };
}

/**
 * Every subschema under `node` long enough to share, in document order, with where it is and
 * the name it would get. At the root, the arguments and definitions themselves stay where they
 * are; what is under them may move.
 */
function collectSubschemas(
  node: Record<string, unknown>,
  label: string,
  atRoot: boolean,
  entry: string | undefined,
  reuse: ReuseFinds,
  found: (text: string, occurrence: Occurrence) => void,
): void {
  forEachSubschema(node, (child, parent, key, keyword) => {
    const entryHere = atRoot && keyword === "$defs" && typeof key === "string" ? key : entry;
    if (atRoot && keyword === "$defs" && typeof key === "string") {
      const finds = reuse(key, child);
      if (finds !== undefined) {
        for (const find of finds) found(find.text, find.occurrence);
        return;
      }
    }
    const childLabel = typeof key === "string" && keyword !== "$defs" ? key : label;
    if (!atRoot || (keyword !== "properties" && keyword !== "$defs")) {
      const text = JSON.stringify(child);
      if (text.length >= MIN_SHARED_CHARS) {
        const occurrence: Occurrence = { parent, key, label: childLabel };
        if (entryHere !== undefined) occurrence.entry = entryHere;
        found(text, occurrence);
      }
    }
    const nextLabel = keyword === "$defs" && typeof key === "string" ? key : childLabel;
    collectSubschemas(child, nextLabel, false, entryHere, NO_REUSE, found);
  });
}

/** The largest subschema that occurs more than once where sharing it saves characters. */
function findLargestRepeat(
  schema: JsonSchema,
  reuse: ReuseFinds,
): { text: string; occurrences: Occurrence[] } | undefined {
  const byText = new Map<string, Occurrence[]>();
  collectSubschemas(schema, "shared", true, undefined, reuse, (text, occurrence) => {
    const list = byText.get(text);
    if (list) list.push(occurrence);
    else byText.set(text, [occurrence]);
  });
  let best: { text: string; occurrences: Occurrence[] } | undefined;
  for (const [text, occurrences] of byText) {
    if (occurrences.length < 2) continue;
    const reference = `{"$ref":"#/$defs/${occurrences[0]!.label}"}`.length + 4;
    const saved = (occurrences.length - 1) * text.length - occurrences.length * reference;
    if (saved <= 0) continue;
    if (best === undefined || text.length > best.text.length) best = { text, occurrences };
  }
  return best;
}

function freeName(defs: Record<string, unknown>, label: string): string {
  const base = /^[A-Za-z0-9_.-]{1,40}$/.test(label) ? label : "shared";
  if (!Object.hasOwn(defs, base)) return base;
  for (let n = 2; ; n++) if (!Object.hasOwn(defs, `${base}-${n}`)) return `${base}-${n}`;
}

function escapeToken(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
