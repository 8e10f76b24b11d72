/**
 * Field projection: the agent names the fields of an answer it wants (`["items[].id", "total"]`)
 * and gets only those, so a large answer fits without cutting. A path is keys joined by dots;
 * `[]` after a key (or alone, at the root) means each element of that list, `[2]` one element.
 * A key applied to a list applies to each of its elements, so `items.id` is `items[].id`. The
 * projection keeps the answer's shape and key order, and it runs on the parsed JSON before the
 * result budget cuts anything (success.ts). Groups, as describe's `returns` writes them
 * (`items[]{id, name}`), are the same paths (field-groups.ts).
 */
import { isRecord } from "../../model/records.js";
import { expandFieldGroups } from "./field-groups.js";

/** Paths one call may name, and characters of one path: enough for any real selection. */
export const FIELD_LIMITS = { paths: 100, chars: 300 } as const;

/** The syntax in a sentence, for tool text and error messages. */
export const FIELD_SYNTAX =
  'dotted paths, `[]` for each element of a list (e.g. ["items[].id", "items[].name", "total"], or "items[]{id, name}, total")';

type Segment = { kind: "key"; name: string } | { kind: "each" } | { kind: "index"; index: number };

interface Node {
  /** The whole value here is selected. */
  whole: boolean;
  keys: Map<string, Node>;
  each?: Node;
  indexes: Map<number, Node>;
  /** The paths that end here (to report those that matched nothing). */
  paths: string[];
}

export interface FieldSelection {
  paths: string[];
  root: Node;
}

export interface Projected {
  value: unknown;
  /** Paths that matched nothing in this answer. */
  unmatched: string[];
}

/**
 * The paths parsed, or the problem with the first malformed one. Accepts a list of strings, or
 * one string of comma-separated paths (clients that send arrays as text).
 */
export function parseFieldPaths(input: unknown): FieldSelection | { problem: string } {
  let list: unknown = input;
  if (typeof input === "string") {
    const text = input.trim();
    const parsed = text.startsWith("[") ? parseJsonList(text) : undefined;
    if (parsed !== undefined) list = parsed;
    else {
      // Not a JSON list: comma-separated paths and groups (`[].id`, `items[]{id, name}`).
      const expanded = expandFieldGroups(text, FIELD_LIMITS.paths);
      if (!Array.isArray(expanded)) return { problem: `${JSON.stringify(text)} ${expanded.problem}` };
      list = expanded;
    }
  } else if (Array.isArray(input)) {
    const expanded: unknown[] = [];
    for (const item of input) {
      if (expanded.length > FIELD_LIMITS.paths) break; // refused below, for naming too many
      if (typeof item !== "string" || !item.includes("{")) {
        expanded.push(item);
        continue;
      }
      const paths = expandFieldGroups(item, FIELD_LIMITS.paths);
      if (!Array.isArray(paths)) return { problem: `${JSON.stringify(item)} ${paths.problem}` };
      expanded.push(...paths);
    }
    list = expanded;
  }
  if (!Array.isArray(list) || list.length === 0) {
    return { problem: `must be a non-empty list of ${FIELD_SYNTAX}` };
  }
  if (list.length > FIELD_LIMITS.paths)
    return { problem: `names ${list.length} paths; at most ${FIELD_LIMITS.paths}` };
  const root = createNode();
  const paths: string[] = [];
  for (const path of list) {
    if (typeof path !== "string") return { problem: `must hold strings only: ${FIELD_SYNTAX}` };
    const parsed = parsePath(path);
    if ("problem" in parsed) return { problem: `${JSON.stringify(path)} ${parsed.problem}` };
    addPath(root, parsed.segments, path);
    paths.push(path);
  }
  return { paths, root };
}

/** A text that is a JSON list, parsed; undefined for any other text (`[].id` is a path). */
function parseJsonList(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function parsePath(path: string): { segments: Segment[] } | { problem: string } {
  if (path.length > FIELD_LIMITS.chars) return { problem: `is longer than ${FIELD_LIMITS.chars} characters` };
  if (path.trim() === "") return { problem: "is empty" };
  const segments: Segment[] = [];
  let i = 0;
  let expectKey = true;
  while (i < path.length) {
    const char = path[i]!;
    if (char === "[") {
      const close = path.indexOf("]", i);
      if (close < 0) return { problem: `has a "[" at ${i + 1} that is never closed` };
      const inside = path.slice(i + 1, close).trim();
      if (inside === "" || inside === "*") segments.push({ kind: "each" });
      else if (/^\d+$/.test(inside)) segments.push({ kind: "index", index: Number(inside) });
      else return { problem: `has [${inside}]: inside brackets only nothing (each element) or an index` };
      i = close + 1;
      expectKey = false;
      continue;
    }
    if (char === "]") return { problem: `has a "]" at ${i + 1} without its "["` };
    if (char === ".") {
      if (expectKey) return { problem: `has an empty name before the "." at ${i + 1}` };
      i++;
      expectKey = true;
      if (i === path.length) return { problem: "ends with a dot" };
      continue;
    }
    if (!expectKey) return { problem: `needs a "." before the name at ${i + 1}` };
    let end = i;
    while (end < path.length && !".[]".includes(path[end]!)) end++;
    segments.push({ kind: "key", name: path.slice(i, end) });
    i = end;
    expectKey = false;
  }
  return { segments };
}

function createNode(): Node {
  return { whole: false, keys: new Map(), indexes: new Map(), paths: [] };
}

function addPath(root: Node, segments: Segment[], path: string): void {
  let node = root;
  for (const segment of segments) {
    if (segment.kind === "each") {
      node.each ??= createNode();
      node = node.each;
      continue;
    }
    const children: Map<string | number, Node> =
      segment.kind === "key" ? node.keys : (node.indexes as Map<string | number, Node>);
    const key = segment.kind === "key" ? segment.name : segment.index;
    const next = children.get(key) ?? createNode();
    children.set(key, next);
    node = next;
  }
  node.whole = true;
  node.paths.push(path);
}

/** The answer with only the selected fields, and the paths that matched nothing. */
export function projectFields(value: unknown, selection: FieldSelection): Projected {
  const matched = new Set<string>();
  const out = projectNode(value, selection.root, matched);
  return {
    value: out === MISSING ? (Array.isArray(value) ? [] : {}) : out,
    unmatched: selection.paths.filter((path) => !matched.has(path)),
  };
}

const MISSING = Symbol("missing");

function projectNode(value: unknown, node: Node, matched: Set<string>): unknown {
  if (node.whole) {
    for (const path of node.paths) matched.add(path);
    return value;
  }
  if (Array.isArray(value)) {
    if (node.indexes.size > 0 && node.each === undefined && node.keys.size === 0) {
      const picked: unknown[] = [];
      for (const [index, child] of [...node.indexes].sort((a, b) => a[0] - b[0])) {
        if (index >= value.length) continue;
        const out = projectNode(value[index], child, matched);
        if (out !== MISSING) picked.push(out);
      }
      return picked;
    }
    // `[]` and keys alike apply to each element (`items.id` is `items[].id`).
    const each = mergeNodes(node.each, node.keys.size > 0 ? { ...createNode(), keys: node.keys } : undefined);
    if (each === undefined) return MISSING;
    // An empty list is what the answer says (there are none): shown, and no path's fault.
    if (value.length === 0) {
      markPaths(each, matched);
      return [];
    }
    const items: unknown[] = [];
    for (const item of value) {
      const out = projectNode(item, each, matched);
      if (out !== MISSING) items.push(out);
    }
    return items.length > 0 ? items : MISSING;
  }
  if (isRecord(value) && node.keys.size > 0) {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const [key, child] of Object.entries(value)) {
      const selected = node.keys.get(key);
      if (selected === undefined) continue;
      const projected = projectNode(child, selected, matched);
      if (projected === MISSING) continue;
      out[key] = projected;
      any = true;
    }
    return any ? out : MISSING;
  }
  return MISSING;
}

function markPaths(node: Node, matched: Set<string>): void {
  for (const path of node.paths) matched.add(path);
  for (const child of node.keys.values()) markPaths(child, matched);
  for (const child of node.indexes.values()) markPaths(child, matched);
  if (node.each) markPaths(node.each, matched);
}

/** Two selections of the same place as one (`items[].id` and `items.name`). */
function mergeNodes(a: Node | undefined, b: Node | undefined): Node | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const keys = new Map(a.keys);
  for (const [key, node] of b.keys) keys.set(key, mergeNodes(keys.get(key), node)!);
  const indexes = new Map(a.indexes);
  for (const [index, node] of b.indexes) indexes.set(index, mergeNodes(indexes.get(index), node)!);
  const each = mergeNodes(a.each, b.each);
  return {
    whole: a.whole || b.whole,
    keys,
    indexes,
    ...(each ? { each } : {}),
    paths: [...a.paths, ...b.paths],
  };
}

/** The top-level field names of an answer (of its first element when it is a list), for a note. */
export function listTopFields(value: unknown): string[] {
  const record = Array.isArray(value) ? value.find(isRecord) : value;
  return isRecord(record) ? Object.keys(record).slice(0, 30) : [];
}

/** The note on paths that matched nothing, or undefined. */
export function describeUnmatched(unmatched: string[], original: unknown): string | undefined {
  if (unmatched.length === 0) return undefined;
  const fields = listTopFields(original);
  const shown = unmatched
    .slice(0, 10)
    .map((p) => JSON.stringify(p))
    .join(", ");
  return (
    `[Fields: ${shown} matched nothing in this answer` +
    (fields.length > 0
      ? `; its ${Array.isArray(original) ? "items' " : ""}top-level fields: ${fields.join(", ")}`
      : "") +
    ".]"
  );
}
