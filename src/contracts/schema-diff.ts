/**
 * The input-schema half of the diff: walks an old and a new input schema side by side and
 * names every difference a caller can feel. Local `$ref`s (`#/$defs/...`) are followed on each
 * side (a pair of definitions is walked once, so shared and recursive definitions cost one
 * visit), `anyOf`/`oneOf` alternatives are paired, nullable types (`["string","null"]` or an
 * `anyOf` with `{type: "null"}`) read as a set of types, and properties, array items,
 * `additionalProperties` and `allOf` members are walked at any depth.
 *
 * A finding's pointer is where the keyword stands in the schema (inside `$defs` when reached
 * through a reference), so it resolves in the tool's input schema; its message names the
 * argument path a caller writes (`owner.login`, `labels[]`).
 */
import { escapePointerToken, resolvePointer, splitPointer } from "../model/pointer.js";
import { isRecord } from "../model/records.js";
import { OPTIONAL_PROPERTIES_KEYWORD } from "../model/types.js";
import { joinPath, jsonEqual, jsonType } from "../runtime/arguments/schema-context.js";
import { PROSE_KEYWORDS, subschemaKind } from "../runtime/server/canonical.js";
import { canonicalizeSchema } from "./canonical-schema.js";
import { CHANGE_RULES, type ChangeCode } from "./change-rules.js";

export interface SchemaFinding {
  code: ChangeCode;
  /** JSON pointer into the schema (without the `/inputSchema` prefix). */
  pointer: string;
  message: string;
}

/** One side of the walk: the schema root (for `$ref`s), the node and where it stands. */
interface Side {
  root: unknown;
  node: unknown;
  pointer: string;
}

/** A node with its local `$ref`s followed: the target's keywords, overridden by the ref's siblings. */
interface Resolved {
  root: unknown;
  node: Record<string, unknown> | boolean | undefined;
  /** Where the structure stands (the definition, when a ref was followed). */
  pointer: string;
  /** Where the ref and its siblings stand (the node's own place). */
  ownPointer: string;
  /** Keywords that came from the ref's siblings. */
  ownKeys: Set<string>;
  followed: boolean;
}

interface Walk {
  findings: SchemaFinding[];
  /** Pairs of definitions already walked (cycles, shared definitions). */
  seen: Set<string>;
  /** Compare prose (both sides kept it). */
  docs: boolean;
}

/** Hops of `$ref` to `$ref` followed before giving up (as model/pointer's MAX_REF_HOPS). */
const MAX_HOPS = 32;

/** Every difference between two input schemas, deduplicated, in walk order. */
export function diffInputSchemas(
  oldSchema: unknown,
  newSchema: unknown,
  options: { docs: boolean },
): SchemaFinding[] {
  const walk: Walk = { findings: [], seen: new Set(), docs: options.docs };
  compareNode(
    walk,
    { root: oldSchema, node: oldSchema, pointer: "" },
    { root: newSchema, node: newSchema, pointer: "" },
    "",
    { root: true },
  );
  const unique = new Map<string, SchemaFinding>();
  for (const finding of walk.findings) unique.set(`${finding.code} ${finding.pointer}`, finding);
  return [...unique.values()];
}

interface NodeFlags {
  /** The schema root: its properties are the tool's arguments. */
  root?: boolean;
  /**
   * One side is a lone schema paired with an alternative of the other: prose and nullability
   * were compared at the wrapper (whose `{type: "null"}` alternative carries the null).
   */
  structureOnly?: boolean;
}

function resolve(side: Side): Resolved {
  let node = side.node;
  let pointer = side.pointer;
  const own: Record<string, unknown> = {};
  let followed = false;
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    if (!isRecord(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#")) break;
    for (const [key, value] of Object.entries(node)) if (key !== "$ref" && !(key in own)) own[key] = value;
    pointer = `/${splitPointer(node.$ref).map(escapePointerToken).join("/")}`;
    if (pointer === "/") pointer = "";
    node = resolvePointer(side.root, node.$ref);
    followed = true;
  }
  const ownKeys = new Set(Object.keys(own));
  let merged: Resolved["node"];
  // `true` accepts anything, as `{}` does; `false` accepts nothing and is compared as it is.
  if (node === true) merged = { ...own };
  else if (node === false) merged = false;
  else if (isRecord(node)) merged = ownKeys.size > 0 ? { ...node, ...own } : node;
  else merged = followed ? {} : undefined;
  return { root: side.root, node: merged, pointer, ownPointer: side.pointer, ownKeys, followed };
}

/** The pointer of a keyword of a resolved node (a ref's sibling stands at the ref). */
function locateKeyword(r: Resolved, key: string): string {
  return `${r.ownKeys.has(key) ? r.ownPointer : r.pointer}/${escapePointerToken(key)}`;
}

function labelPath(path: string, root: boolean): string {
  if (path === "") return root ? "the arguments" : "the value";
  return `\`${path}\``;
}

function addFinding(walk: Walk, code: ChangeCode, pointer: string, message: string): void {
  walk.findings.push({ code, pointer, message });
}

function compareNode(walk: Walk, oldSide: Side, newSide: Side, path: string, flags: NodeFlags): void {
  const o = resolve(oldSide);
  const n = resolve(newSide);
  const label = labelPath(path, flags.root === true);
  if (!isRecord(o.node) || !isRecord(n.node)) {
    compareOpaque(walk, o, n, label);
    return;
  }
  const oldAlternatives = findAlternatives(o.node);
  const newAlternatives = findAlternatives(n.node);
  // One side is a lone schema, the other a list of alternatives (typically a schema made
  // nullable as anyOf [schema, null]): the lone one is compared with its matching alternative.
  const lone = (oldAlternatives === undefined) !== (newAlternatives === undefined);
  if (!flags.structureOnly) {
    // The prose of a wrapper is its own; a lone schema's is compared with its alternative's.
    const wrapper = oldAlternatives !== undefined ? o.node : n.node;
    compareAnnotations(walk, o, n, label, lone ? new Set(Object.keys(wrapper)) : undefined);
  }
  const typeChange = compareTypes(walk, o, n, label, lone, flags.structureOnly === true);
  if (typeChange === "changed") return;
  const pairKey = `${o.pointer}|${n.pointer}`;
  if ((o.followed || n.followed) && walk.seen.has(pairKey)) return;
  if (o.followed || n.followed) walk.seen.add(pairKey);

  if (oldAlternatives !== undefined || newAlternatives !== undefined) {
    compareAlternatives(walk, o, n, path, flags);
    // A lone schema was compared with an alternative of the other side: nothing is left here.
    if (oldAlternatives === undefined || newAlternatives === undefined) return;
  }
  compareValues(walk, o, n, label);
  compareStringAndNumberBounds(walk, o, n, label);
  compareObject(walk, o, n, path, flags);
  compareArray(walk, o, n, path);
  compareAllOf(walk, o, n, path);
  compareOtherKeywords(walk, o, n, label);
}

/** `false`, and refs that lead nowhere in the schema: equal or not. */
function compareOpaque(walk: Walk, o: Resolved, n: Resolved, label: string): void {
  if (jsonEqual(o.node, n.node)) return;
  const pointer = n.node !== undefined ? n.pointer : o.pointer;
  if (isRecord(n.node) && Object.keys(n.node).length === 0) {
    addFinding(walk, "constraint-loosened", pointer, `${label} accepts any value now`);
  } else if (n.node === false) {
    addFinding(walk, "keyword-changed", pointer, `${label} accepts no value now`);
  } else addFinding(walk, "keyword-changed", pointer, `${label} changed in a way the diff cannot compare`);
}

// ---------------------------------------------------------------------------------------------
// Prose, defaults, deprecation

/** Prose, default and deprecation (`only`: just these keywords). */
function compareAnnotations(walk: Walk, o: Resolved, n: Resolved, label: string, only?: Set<string>): void {
  const oldNode = o.node as Record<string, unknown>;
  const newNode = n.node as Record<string, unknown>;
  const skip = (key: string) => only !== undefined && !only.has(key);
  if (walk.docs) {
    const prose: [string, ChangeCode][] = [
      ["description", "description-changed"],
      ["title", "title-changed"],
      ["examples", "example-changed"],
      ["example", "example-changed"],
      ["$comment", "description-changed"],
    ];
    for (const [key, code] of prose) {
      if (skip(key) || jsonEqual(oldNode[key], newNode[key])) continue;
      const where = newNode[key] !== undefined ? locateKeyword(n, key) : locateKeyword(o, key);
      addFinding(walk, code, where, `${key} of ${label} ${describeEdit(oldNode[key], newNode[key])}`);
    }
  }
  if (!skip("default") && !jsonEqual(oldNode.default, newNode.default)) {
    const where = newNode.default !== undefined ? locateKeyword(n, "default") : locateKeyword(o, "default");
    addFinding(
      walk,
      "default-changed",
      where,
      `default of ${label}: ${show(oldNode.default)} → ${show(newNode.default)}`,
    );
  }
  if (!skip("deprecated") && newNode.deprecated === true && oldNode.deprecated !== true) {
    addFinding(walk, "argument-deprecated", locateKeyword(n, "deprecated"), `${label} is deprecated`);
  }
}

function describeEdit(before: unknown, after: unknown): string {
  if (before === undefined) return "added";
  if (after === undefined) return "removed";
  return "changed";
}

/** A value in a message: JSON, cut to stay on one readable line. */
export function show(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

// ---------------------------------------------------------------------------------------------
// Types

/** The types a node allows: its `type`, those its structure implies, its alternatives' union. */
export function collectTypes(
  node: Record<string, unknown>,
  root: unknown,
  hops = 0,
): Set<string> | undefined {
  const { type } = node;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = node[keyword];
    if (!Array.isArray(list) || list.length === 0) continue;
    const union = new Set<string>();
    for (const alternative of list) {
      const r = resolve({ root, node: alternative, pointer: "" });
      if (!isRecord(r.node) || hops > MAX_HOPS) return undefined;
      const types = collectTypes(r.node, root, hops + 1);
      if (types === undefined) return undefined;
      for (const t of types) union.add(t);
    }
    return union;
  }
  if ("const" in node) return new Set([jsonType(node.const)]);
  if (Array.isArray(node.enum) && node.enum.length > 0) return new Set(node.enum.map(jsonType));
  if (isRecord(node.properties) || "additionalProperties" in node || Array.isArray(node.required))
    return new Set(["object"]);
  if ("items" in node || Array.isArray(node.prefixItems)) return new Set(["array"]);
  return undefined;
}

/** `a` ⊆ `b` as JSON types (an integer is a number). */
export function typesWithin(a: Set<string>, b: Set<string>): boolean {
  for (const t of a) if (!b.has(t) && !(t === "integer" && b.has("number"))) return false;
  return true;
}

function dropNull(types: Set<string> | undefined): Set<string> | undefined {
  if (types === undefined || !types.has("null") || types.size === 1) return types;
  return new Set([...types].filter((t) => t !== "null"));
}

function showTypes(types: Set<string> | undefined): string {
  return types === undefined ? "any" : [...types].sort().join(" | ");
}

function compareTypes(
  walk: Walk,
  o: Resolved,
  n: Resolved,
  label: string,
  lone: boolean,
  ignoreNull: boolean,
): "same" | "changed" | "other" {
  let oldTypes = collectTypes(o.node as Record<string, unknown>, o.root);
  let newTypes = collectTypes(n.node as Record<string, unknown>, n.root);
  if (ignoreNull) {
    oldTypes = dropNull(oldTypes);
    newTypes = dropNull(newTypes);
  }
  if (oldTypes === undefined && newTypes === undefined) return "same";
  // Nullability added or removed by a wrapper belongs to the place of the wrapper.
  const pointer = lone ? `${n.ownPointer}/type` : locateKeyword(n, "type");
  if (oldTypes !== undefined && newTypes !== undefined) {
    const widened = typesWithin(oldTypes, newTypes);
    const narrowed = typesWithin(newTypes, oldTypes);
    if (widened && narrowed) return "same";
    const change = `${showTypes(oldTypes)} → ${showTypes(newTypes)}`;
    if (widened) addFinding(walk, "type-widened", pointer, `${label} accepts more types: ${change}`);
    else if (narrowed) addFinding(walk, "type-narrowed", pointer, `${label} accepts fewer types: ${change}`);
    else {
      addFinding(walk, "type-changed", pointer, `${label} changed type: ${change}`);
      // What made sense for the old type (properties, items, bounds) means nothing for the new one.
      const kept = [...oldTypes].some((t) => newTypes.has(t) || (t === "integer" && newTypes.has("number")));
      return kept ? "other" : "changed";
    }
    return "other";
  }
  if (newTypes === undefined) {
    addFinding(walk, "type-widened", pointer, `${label} accepts any type: ${showTypes(oldTypes)} → any`);
  } else {
    addFinding(walk, "type-narrowed", pointer, `${label} accepts fewer types: any → ${showTypes(newTypes)}`);
  }
  return "other";
}

// ---------------------------------------------------------------------------------------------
// Alternatives (anyOf / oneOf)

interface Alternative {
  side: Side;
  /** Pairing keys, most specific first: the definition it names, its text, its types. */
  ref: string | undefined;
  text: string;
  /** Its types but null (nullability is compared apart), or undefined for any. */
  types: Set<string> | undefined;
  isNull: boolean;
}

function findAlternatives(
  node: Record<string, unknown> | boolean | undefined,
): { keyword: string; list: unknown[] } | undefined {
  if (!isRecord(node)) return undefined;
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = node[keyword];
    if (Array.isArray(list) && list.length > 0) return { keyword, list };
  }
  return undefined;
}

function listAlternatives(r: Resolved): Alternative[] {
  const node = r.node as Record<string, unknown>;
  const found = findAlternatives(node);
  const sides: Side[] =
    found === undefined
      ? [{ root: r.root, node: r.node, pointer: r.pointer }]
      : found.list.map((alternative, i) => ({
          root: r.root,
          node: alternative,
          pointer: `${r.ownKeys.has(found.keyword) ? r.ownPointer : r.pointer}/${found.keyword}/${i}`,
        }));
  return sides.map((side) => {
    const resolved = resolve(side);
    const types = isRecord(resolved.node) ? collectTypes(resolved.node, side.root) : undefined;
    return {
      side,
      ref: resolved.followed ? resolved.pointer : undefined,
      text: JSON.stringify(canonicalizeSchema((resolved.node ?? null) as never, { prose: false })),
      types: dropNull(types),
      isNull: types !== undefined && types.size === 1 && types.has("null"),
    };
  });
}

function compareAlternatives(walk: Walk, o: Resolved, n: Resolved, path: string, flags: NodeFlags): void {
  const oldList = listAlternatives(o);
  const newList = listAlternatives(n);
  const lone =
    findAlternatives(o.node as Record<string, unknown>) === undefined ||
    findAlternatives(n.node as Record<string, unknown>) === undefined;
  const pairs: [Alternative, Alternative][] = [];
  const oldLeft = new Set(oldList);
  const newLeft = new Set(newList);
  const pairBy = (key: (a: Alternative) => string | undefined) => {
    for (const a of [...oldLeft]) {
      const k = key(a);
      if (k === undefined) continue;
      const match = [...newLeft].find((b) => key(b) === k);
      if (match === undefined) continue;
      pairs.push([a, match]);
      oldLeft.delete(a);
      newLeft.delete(match);
    }
  };
  pairBy((a) => a.text);
  pairBy((a) => a.ref);
  pairBy((a) => (a.types === undefined ? undefined : showTypes(a.types)));
  // Then by the most types in common (a string that became string-or-object is still paired).
  for (const a of [...oldLeft]) {
    if (a.isNull || a.types === undefined) continue;
    let best: Alternative | undefined;
    let bestShared = 0;
    for (const b of newLeft) {
      if (b.isNull || b.types === undefined) continue;
      const shared = [...a.types].filter((t) => b.types!.has(t)).length;
      if (shared > bestShared) [best, bestShared] = [b, shared];
    }
    if (best === undefined) continue;
    pairs.push([a, best]);
    oldLeft.delete(a);
    newLeft.delete(best);
  }
  const oldRest = [...oldLeft].filter((a) => !a.isNull);
  const newRest = [...newLeft].filter((b) => !b.isNull);
  if (oldRest.length === 1 && newRest.length === 1) {
    pairs.push([oldRest[0]!, newRest[0]!]);
    oldLeft.delete(oldRest[0]!);
    newLeft.delete(newRest[0]!);
  }
  const label = labelPath(path, flags.root === true);
  for (const [a, b] of pairs) {
    compareNode(
      walk,
      a.side,
      b.side,
      path,
      lone ? { ...flags, structureOnly: true } : { ...flags, structureOnly: false },
    );
  }
  // A lone {type: "null"} alternative is nullability, which the type comparison already named.
  for (const a of oldLeft) {
    if (a.isNull || isCovered(a, newList, path)) continue;
    addFinding(
      walk,
      "alternative-removed",
      a.side.pointer,
      `${label} no longer accepts the alternative ${a.types === undefined ? "schema" : showTypes(a.types)}`,
    );
  }
  for (const b of newLeft) {
    if (b.isNull) continue;
    addFinding(
      walk,
      "alternative-added",
      b.side.pointer,
      `${label} accepts a new alternative ${b.types === undefined ? "schema" : showTypes(b.types)}`,
    );
  }
}

/**
 * Whether every value an old alternative accepted is still accepted by one new alternative
 * (one whose comparison with it finds nothing breaking): alternatives merged into another are
 * not removed.
 */
function isCovered(a: Alternative, newList: Alternative[], path: string): boolean {
  return newList.some((b) => {
    if (b.isNull) return false;
    const scratch: Walk = { findings: [], seen: new Set(), docs: false };
    compareNode(scratch, a.side, b.side, path, { structureOnly: true });
    return scratch.findings.every((f) => CHANGE_RULES[f.code].severity !== "breaking");
  });
}

// ---------------------------------------------------------------------------------------------
// Allowed values, formats, patterns, bounds

/** The values a node is limited to (`enum`, or `const` as a one-value enum). */
function collectValues(node: Record<string, unknown>): unknown[] | undefined {
  if ("const" in node) return [node.const];
  return Array.isArray(node.enum) ? node.enum : undefined;
}

function valuesPointer(r: Resolved): string {
  const node = r.node as Record<string, unknown>;
  return locateKeyword(r, "const" in node ? "const" : "enum");
}

function compareValues(walk: Walk, o: Resolved, n: Resolved, label: string): void {
  const oldValues = collectValues(o.node as Record<string, unknown>);
  const newValues = collectValues(n.node as Record<string, unknown>);
  if (oldValues === undefined && newValues === undefined) return;
  if (oldValues === undefined) {
    addFinding(walk, "enum-added", valuesPointer(n), `${label} is limited to ${showList(newValues!)}`);
    return;
  }
  if (newValues === undefined) {
    addFinding(
      walk,
      "constraint-loosened",
      valuesPointer(o),
      `${label} is no longer limited to a list of values`,
    );
    return;
  }
  // null in an enum is nullability, which the type comparison names.
  const removed = oldValues.filter((v) => v !== null && !newValues.some((w) => jsonEqual(v, w)));
  const added = newValues.filter((v) => v !== null && !oldValues.some((w) => jsonEqual(v, w)));
  if (removed.length > 0) {
    addFinding(
      walk,
      "enum-value-removed",
      valuesPointer(n),
      `${label} no longer accepts ${showList(removed)}`,
    );
  }
  if (added.length > 0) {
    addFinding(walk, "enum-value-added", valuesPointer(n), `${label} also accepts ${showList(added)}`);
  }
}

function showList(values: unknown[]): string {
  const shown = values
    .slice(0, 5)
    .map((v) => JSON.stringify(v))
    .join(", ");
  return values.length > 5 ? `${shown} and ${values.length - 5} more` : shown;
}

/** Bound keywords: which rule tightening them breaks, and which direction tightens. */
const BOUNDS: { key: string; code: ChangeCode; tighter: "higher" | "lower" }[] = [
  { key: "minLength", code: "length-tightened", tighter: "higher" },
  { key: "maxLength", code: "length-tightened", tighter: "lower" },
  { key: "minimum", code: "range-tightened", tighter: "higher" },
  { key: "exclusiveMinimum", code: "range-tightened", tighter: "higher" },
  { key: "maximum", code: "range-tightened", tighter: "lower" },
  { key: "exclusiveMaximum", code: "range-tightened", tighter: "lower" },
  { key: "minItems", code: "count-tightened", tighter: "higher" },
  { key: "maxItems", code: "count-tightened", tighter: "lower" },
  { key: "minProperties", code: "count-tightened", tighter: "higher" },
  { key: "maxProperties", code: "count-tightened", tighter: "lower" },
];

function compareStringAndNumberBounds(walk: Walk, o: Resolved, n: Resolved, label: string): void {
  const oldNode = o.node as Record<string, unknown>;
  const newNode = n.node as Record<string, unknown>;
  for (const key of ["format", "pattern"] as const) {
    const before = oldNode[key];
    const after = newNode[key];
    if (jsonEqual(before, after)) continue;
    if (key === "format" && isNumericNoteFormat(before) && isNumericNoteFormat(after)) {
      const where = after !== undefined ? locateKeyword(n, key) : locateKeyword(o, key);
      addFinding(walk, "format-noted", where, `format of ${label}: ${show(before)} → ${show(after)}`);
      continue;
    }
    const code: ChangeCode = key === "format" ? "format-tightened" : "pattern-tightened";
    if (after === undefined)
      addFinding(
        walk,
        "constraint-loosened",
        locateKeyword(o, key),
        `${label} has no ${key} now (was ${show(before)})`,
      );
    else
      addFinding(walk, code, locateKeyword(n, key), `${key} of ${label}: ${show(before)} → ${show(after)}`);
  }
  for (const { key, code, tighter } of BOUNDS) {
    const before = oldNode[key];
    const after = newNode[key];
    if (jsonEqual(before, after)) continue;
    const message = `${key} of ${label}: ${show(before)} → ${show(after)}`;
    if (typeof after !== "number") {
      addFinding(walk, "constraint-loosened", locateKeyword(o, key), message);
      continue;
    }
    const tightened = typeof before !== "number" || (tighter === "higher" ? after > before : after < before);
    if (tightened) addFinding(walk, code, locateKeyword(n, key), message);
    else addFinding(walk, "constraint-loosened", locateKeyword(n, key), message);
  }
  const before = oldNode.multipleOf;
  const after = newNode.multipleOf;
  if (!jsonEqual(before, after)) {
    const message = `multipleOf of ${label}: ${show(before)} → ${show(after)}`;
    if (typeof after !== "number")
      addFinding(walk, "constraint-loosened", locateKeyword(o, "multipleOf"), message);
    else if (typeof before === "number" && isMultiple(before, after))
      addFinding(walk, "constraint-loosened", locateKeyword(n, "multipleOf"), message);
    else addFinding(walk, "range-tightened", locateKeyword(n, "multipleOf"), message);
  }
  if (newNode.uniqueItems === true && oldNode.uniqueItems !== true) {
    addFinding(
      walk,
      "count-tightened",
      locateKeyword(n, "uniqueItems"),
      `${label} must hold unique items now`,
    );
  } else if (oldNode.uniqueItems === true && newNode.uniqueItems !== true) {
    addFinding(walk, "constraint-loosened", locateKeyword(o, "uniqueItems"), `${label} may repeat items now`);
  }
}

/**
 * Formats that limit no JSON number a client can send: `int64` (every integer a JSON parser
 * reads is one), `float` and `double` (every number). GitHub added `int64` to a dozen integer
 * path parameters between two releases; no call that worked before fails after.
 */
const NUMERIC_NOTE_FORMATS = new Set(["int64", "float", "double"]);

function isNumericNoteFormat(format: unknown): boolean {
  return format === undefined || (typeof format === "string" && NUMERIC_NOTE_FORMATS.has(format));
}

/** Every multiple of `a` is a multiple of `b` (floating point kept honest with a tolerance). */
function isMultiple(a: number, b: number): boolean {
  if (b === 0) return false;
  const ratio = a / b;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

// ---------------------------------------------------------------------------------------------
// Objects

/** Required names, less those a strict profile lists as optional-but-nullable. */
function readRequired(node: Record<string, unknown>): Set<string> {
  const required = new Set(
    Array.isArray(node.required) ? node.required.filter((r) => typeof r === "string") : [],
  );
  const optional = node[OPTIONAL_PROPERTIES_KEYWORD];
  if (Array.isArray(optional))
    for (const name of optional) if (typeof name === "string") required.delete(name);
  return required as Set<string>;
}

function compareObject(walk: Walk, o: Resolved, n: Resolved, path: string, flags: NodeFlags): void {
  const oldNode = o.node as Record<string, unknown>;
  const newNode = n.node as Record<string, unknown>;
  const oldProps = isRecord(oldNode.properties) ? oldNode.properties : {};
  const newProps = isRecord(newNode.properties) ? newNode.properties : {};
  const oldRequired = readRequired(oldNode);
  const newRequired = readRequired(newNode);
  const what = flags.root ? "argument" : "field";
  const propsPointer = (r: Resolved) =>
    `${r.ownKeys.has("properties") ? r.ownPointer : r.pointer}/properties`;
  for (const key of Object.keys(oldProps)) {
    if (Object.hasOwn(newProps, key)) continue;
    const at = joinPath(path, key);
    addFinding(
      walk,
      "argument-removed",
      `${propsPointer(o)}/${escapePointerToken(key)}`,
      `${what} \`${at}\` was removed`,
    );
  }
  for (const key of Object.keys(newProps)) {
    const at = joinPath(path, key);
    const pointer = `${propsPointer(n)}/${escapePointerToken(key)}`;
    if (!Object.hasOwn(oldProps, key)) {
      if (newRequired.has(key))
        addFinding(walk, "required-argument-added", pointer, `new required ${what} \`${at}\``);
      else addFinding(walk, "optional-argument-added", pointer, `new optional ${what} \`${at}\``);
      continue;
    }
    if (newRequired.has(key) && !oldRequired.has(key)) {
      addFinding(walk, "argument-made-required", pointer, `${what} \`${at}\` is required now`);
    } else if (!newRequired.has(key) && oldRequired.has(key)) {
      addFinding(walk, "argument-made-optional", pointer, `${what} \`${at}\` is optional now`);
    }
    compareNode(
      walk,
      { root: o.root, node: oldProps[key], pointer: `${propsPointer(o)}/${escapePointerToken(key)}` },
      { root: n.root, node: newProps[key], pointer },
      at,
      {},
    );
  }
  // Required names without a property of their own (allowed by JSON Schema) still bind callers.
  for (const key of newRequired) {
    if (oldRequired.has(key) || Object.hasOwn(newProps, key)) continue;
    addFinding(
      walk,
      "argument-made-required",
      locateKeyword(n, "required"),
      `${what} \`${joinPath(path, key)}\` is required now`,
    );
  }
  compareAdditional(walk, o, n, path);
  compareDependentRequired(walk, o, n, path);
}

function compareAdditional(walk: Walk, o: Resolved, n: Resolved, path: string): void {
  const key = "additionalProperties";
  const before = (o.node as Record<string, unknown>)[key];
  const after = (n.node as Record<string, unknown>)[key];
  if (jsonEqual(before, after)) return;
  const label = labelPath(path, false);
  const open = (v: unknown) => v === undefined || v === true || (isRecord(v) && Object.keys(v).length === 0);
  if (open(before) && open(after)) return;
  if (after === false || open(before)) {
    addFinding(
      walk,
      "additional-properties-restricted",
      locateKeyword(n, key),
      `${label} accepts fewer unlisted fields (additionalProperties: ${show(before)} → ${show(after)})`,
    );
    return;
  }
  if (open(after) || before === false) {
    addFinding(
      walk,
      "constraint-loosened",
      locateKeyword(o, key),
      `${label} accepts more unlisted fields (additionalProperties: ${show(before)} → ${show(after)})`,
    );
    return;
  }
  compareNode(
    walk,
    { root: o.root, node: before, pointer: locateKeyword(o, key) },
    { root: n.root, node: after, pointer: locateKeyword(n, key) },
    `${path === "" ? "" : path}.*`,
    {},
  );
}

function compareDependentRequired(walk: Walk, o: Resolved, n: Resolved, path: string): void {
  const key = "dependentRequired";
  const before = (o.node as Record<string, unknown>)[key];
  const after = (n.node as Record<string, unknown>)[key];
  if (jsonEqual(before, after)) return;
  const pairs = (v: unknown) => {
    const set = new Set<string>();
    if (isRecord(v))
      for (const [name, list] of Object.entries(v))
        if (Array.isArray(list)) for (const other of list) set.add(`${name}\u0000${String(other)}`);
    return set;
  };
  const oldPairs = pairs(before);
  const newPairs = pairs(after);
  for (const pair of newPairs) {
    if (oldPairs.has(pair)) continue;
    const [given, needed] = pair.split("\u0000") as [string, string];
    addFinding(
      walk,
      "dependent-required-added",
      locateKeyword(n, key),
      `\`${joinPath(path, needed)}\` is required when \`${joinPath(path, given)}\` is given`,
    );
  }
  for (const pair of oldPairs) {
    if (newPairs.has(pair)) continue;
    const [given, needed] = pair.split("\u0000") as [string, string];
    addFinding(
      walk,
      "constraint-loosened",
      locateKeyword(o, key),
      `\`${joinPath(path, needed)}\` is no longer required when \`${joinPath(path, given)}\` is given`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Arrays and allOf

function compareArray(walk: Walk, o: Resolved, n: Resolved, path: string): void {
  const before = (o.node as Record<string, unknown>).items;
  const after = (n.node as Record<string, unknown>).items;
  if (before === undefined && after === undefined) return;
  const label = labelPath(path, false);
  if (before === undefined || after === undefined) {
    if (after === undefined)
      addFinding(
        walk,
        "constraint-loosened",
        locateKeyword(o, "items"),
        `the items of ${label} are no longer checked`,
      );
    else
      addFinding(walk, "keyword-changed", locateKeyword(n, "items"), `the items of ${label} are checked now`);
    return;
  }
  compareNode(
    walk,
    { root: o.root, node: before, pointer: locateKeyword(o, "items") },
    { root: n.root, node: after, pointer: locateKeyword(n, "items") },
    `${path}[]`,
    {},
  );
}

function compareAllOf(walk: Walk, o: Resolved, n: Resolved, path: string): void {
  const before = (o.node as Record<string, unknown>).allOf;
  const after = (n.node as Record<string, unknown>).allOf;
  const oldList = Array.isArray(before) ? before : [];
  const newList = Array.isArray(after) ? after : [];
  if (oldList.length === 0 && newList.length === 0) return;
  const label = labelPath(path, false);
  const count = Math.min(oldList.length, newList.length);
  for (let i = 0; i < count; i++) {
    compareNode(
      walk,
      { root: o.root, node: oldList[i], pointer: `${locateKeyword(o, "allOf")}/${i}` },
      { root: n.root, node: newList[i], pointer: `${locateKeyword(n, "allOf")}/${i}` },
      path,
      {},
    );
  }
  for (let i = count; i < newList.length; i++) {
    addFinding(
      walk,
      "keyword-changed",
      `${locateKeyword(n, "allOf")}/${i}`,
      `${label} must also match another schema (allOf)`,
    );
  }
  for (let i = count; i < oldList.length; i++) {
    addFinding(
      walk,
      "keyword-removed",
      `${locateKeyword(o, "allOf")}/${i}`,
      `${label} no longer has to match one of its allOf schemas`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Everything else

/** Keywords the walk above compares; any other keyword is compared as a whole. */
const COMPARED = new Set([
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  ...BOUNDS.map((b) => b.key),
  "multipleOf",
  "uniqueItems",
  "properties",
  "required",
  "additionalProperties",
  "dependentRequired",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "default",
  "deprecated",
  "$defs",
  "definitions",
  "$ref",
  OPTIONAL_PROPERTIES_KEYWORD,
]);

function compareOtherKeywords(walk: Walk, o: Resolved, n: Resolved, label: string): void {
  const oldNode = o.node as Record<string, unknown>;
  const newNode = n.node as Record<string, unknown>;
  const keys = new Set([...Object.keys(oldNode), ...Object.keys(newNode)]);
  for (const key of [...keys].sort()) {
    if (COMPARED.has(key) || PROSE_KEYWORDS.has(key)) continue;
    // Subschemas compared without their prose: a reworded description is never a contract change.
    const bare = (v: unknown) =>
      v !== undefined && subschemaKind(key) !== undefined
        ? canonicalizeSchema(v as never, { prose: false })
        : v;
    const before = bare(oldNode[key]);
    const after = bare(newNode[key]);
    if (jsonEqual(before, after)) continue;
    if (after === undefined) {
      addFinding(walk, "keyword-removed", locateKeyword(o, key), `${key} of ${label} was removed`);
    } else {
      addFinding(
        walk,
        "keyword-changed",
        locateKeyword(n, key),
        `${key} of ${label}: ${show(before)} → ${show(after)}`,
      );
    }
  }
}
