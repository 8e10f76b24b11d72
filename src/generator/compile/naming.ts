/**
 * Tool names: portable (`^[a-zA-Z0-9_-]{1,64}$`), deterministic, never abbreviated, and unique.
 */
import { hashShort } from "../../model/hash.js";

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const MAX_TOOL_NAME_LENGTH = 64;

/** Replaces characters outside `[A-Za-z0-9_-]` with `_` and trims repeats at the ends. */
export function sanitizeName(raw: string): string {
  return raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
}

/** `get /pets/{petId}/toys` → `get_pets_by_petId_toys`. */
export function deriveNameFromRoute(method: string, path: string): string {
  const parts = path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => segment.replace(/\{([^}]+)\}/g, "by_$1"));
  return sanitizeName([method.toLowerCase(), ...parts].join("_")) || method.toLowerCase();
}

/**
 * Fits a name into `maxLength`: a name that is too long keeps its first words and its last
 * words (the verb and the resource, where the words that tell operations apart usually are),
 * drops words from the middle (`_` marks the gap) and ends in `_` plus an 8-character hash of
 * the full name, so two long names never shorten to the same text. Words are never cut.
 * `fitNames` also keeps the words that tell apart names that would shorten alike.
 */
export function fitName(name: string, maxLength = MAX_TOOL_NAME_LENGTH): string {
  if (name.length <= maxLength) return name;
  return shortenName(name, maxLength, new Set());
}

/**
 * fitName for a list of names (one API's): when two long names would shorten to the same text
 * (`deleteAdmissionregistrationV1alpha1CollectionValidatingAdmissionPolicy` and its
 * `...PolicyBinding`, or the `Mutating...` and `Validating...` forms), each keeps the words the
 * others of its group do not have, before the start and end fill the room left. Deterministic:
 * the same names give the same results.
 */
export function fitNames(names: readonly string[], maxLength = MAX_TOOL_NAME_LENGTH): string[] {
  const keep = names.map(() => new Set<string>());
  let fitted = names.map((name) => fitName(name, maxLength));
  for (let round = 0; round < 4; round++) {
    const groups = new Map<string, number[]>();
    fitted.forEach((short, index) => {
      if (short === names[index]) return;
      const text = short.slice(0, -(HASH_LENGTH + 1)).toLowerCase();
      const group = groups.get(text) ?? [];
      group.push(index);
      groups.set(text, group);
    });
    let changed = false;
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const wordSets = group.map(
        (index) => new Set(splitWords(names[index]!).map((w) => w.text.toLowerCase())),
      );
      const shared = [...wordSets[0]!].filter((word) => wordSets.every((set) => set.has(word)));
      group.forEach((index, member) => {
        for (const word of wordSets[member]!) {
          if (!shared.includes(word) && !keep[index]!.has(word)) {
            keep[index]!.add(word);
            changed = true;
          }
        }
      });
    }
    if (!changed) break;
    fitted = names.map((name, index) =>
      name.length <= maxLength ? name : shortenName(name, maxLength, keep[index]!),
    );
  }
  return fitted;
}

const HASH_LENGTH = 8;

interface Word {
  text: string;
  start: number;
  end: number;
}

/**
 * The words of a name: `_` and `-` separate them, and so do case changes
 * (`getHTTPServerV1alpha1` → get, HTTP, Server, V1alpha1); digits stay with their word.
 */
function splitWords(name: string): Word[] {
  const words: Word[] = [];
  for (const match of name.matchAll(/[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+/g)) {
    words.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return words;
}

/**
 * The name in `maxLength` with its hash: the first word, the words in `keep` (lower-cased), then
 * one more word from the start or the end (whichever side holds fewer characters) while they fit.
 */
function shortenName(name: string, maxLength: number, keep: Set<string>): string {
  const hash = hashShort(name);
  const budget = maxLength - HASH_LENGTH - 1;
  const words = splitWords(name);
  const kept = new Set<number>();
  const render = (indices: Set<number>) => {
    const order = [...indices].sort((a, b) => a - b);
    const runs: string[] = [];
    let runStart = -1;
    order.forEach((index, position) => {
      if (runStart < 0) runStart = index;
      const next = order[position + 1];
      if (next !== index + 1) {
        runs.push(name.slice(words[runStart]!.start, words[index]!.end));
        runStart = -1;
      }
    });
    return runs.join("_");
  };
  const tryAdd = (index: number) => {
    kept.add(index);
    if (render(kept).length <= budget) return true;
    kept.delete(index);
    return false;
  };
  if (words.length === 0 || !tryAdd(0)) {
    // One word longer than the room (or no word at all): its start, as before.
    const head = name.slice(0, budget).replace(/[_-]+$/, "");
    return `${head}_${hash}`;
  }
  // Words that tell this name from others that shorten alike, from the end (the resource) back.
  for (let index = words.length - 1; index > 0; index--) {
    if (keep.has(words[index]!.text.toLowerCase())) tryAdd(index);
  }
  // Then the side with fewer characters kept takes its next word, until neither fits.
  let head = 1;
  let tail = words.length - 1;
  let headOpen = true;
  let tailOpen = true;
  const lengthOf = (from: number, to: number, step: number) => {
    let length = 0;
    for (let index = from; index !== to && kept.has(index); index += step)
      length += words[index]!.text.length;
    return length;
  };
  for (;;) {
    while (head < words.length && kept.has(head)) head++;
    while (tail > 0 && kept.has(tail)) tail--;
    if (head > tail) break;
    headOpen &&= head <= tail;
    tailOpen &&= tail >= head;
    if (!headOpen && !tailOpen) break;
    const headFirst =
      headOpen && (!tailOpen || lengthOf(0, words.length, 1) <= lengthOf(words.length - 1, -1, -1));
    if (headFirst) headOpen = tryAdd(head);
    else tailOpen = tryAdd(tail);
  }
  return `${render(kept)}_${hash}`;
}

/**
 * A tail a generator appended to keep operationIds unique: `-` and 4 lower-case hex characters
 * (Graph's `-7c9f`, `-5960`), or 4 to 12 with a digit and a letter (`_163275ec`), which say
 * nothing to a model.
 */
const HASH_TAIL = /-[0-9a-f]{4}$|[-_.](?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{4,12}$/;

/**
 * An operationId a generator made rather than a person: it ends in a hash-like tail, or it is
 * a dotted path of four or more parts too long to be a tool name (Microsoft Graph's type casts,
 * `Get.microsoft.graph.directoryObject.Items.As.microsoft.graph.group-7c9f`).
 */
export function looksGenerated(operationId: string): boolean {
  if (HASH_TAIL.test(operationId)) return true;
  return operationId.split(".").length >= 4 && sanitizeName(operationId).length > MAX_TOOL_NAME_LENGTH;
}

/**
 * A readable name from the route: the method, then the path's words, with a parameter named
 * only where it is the path's last one (`by_id`, `by_petId`), an OData cast or function segment by its
 * own name (`microsoft.graph.group` → `group`, `microsoft.graph.delta()` → `delta`) and `$count`
 * as `count`. Too long, it drops words after the first resource from the middle, keeping the
 * end (what the operation acts on): no hash, so it stays readable; a clash is settled by
 * resolveNameCollisions.
 */
export function deriveReadableName(method: string, path: string, maxLength = MAX_TOOL_NAME_LENGTH): string {
  const segments = path.split("/").filter((segment) => segment !== "");
  const isParameter = (segment: string) => /^\{[^}]+\}$/.test(segment);
  let lastParameter = -1;
  segments.forEach((segment, index) => {
    if (isParameter(segment)) lastParameter = index;
  });
  const words: string[] = [];
  segments.forEach((segment, index) => {
    if (isParameter(segment)) {
      if (index === lastParameter) words.push(sanitizeName(`by_${shortParameter(segment.slice(1, -1))}`));
      return;
    }
    const plain = segment.replace(/\(.*\)$/s, "").replace(/^\$/, "");
    const word = sanitizeName(plain.includes(".") ? plain.slice(plain.lastIndexOf(".") + 1) : plain);
    if (word !== "") words.push(word);
  });
  const verb = method.toLowerCase();
  const render = (kept: string[]) => [verb, ...kept].join("_");
  const kept = [...words];
  // The last two words (the resource and what is done to it) stay; the first (the root the
  // path hangs from) goes last; parameter words in the middle go before resource words.
  const middle = () => kept.slice(1, -2);
  while (kept.length > 3 && render(kept).length > maxLength) {
    const parameter = middle().findIndex((word) => word.startsWith("by_"));
    kept.splice(parameter >= 0 ? parameter + 1 : 1, 1);
  }
  if (kept.length === 3 && render(kept).length > maxLength) kept.splice(0, 1);
  const name = render(kept);
  return name.length <= maxLength ? name : fitName(name, maxLength);
}

/** `user-id`, `singleValueLegacyExtendedProperty-id` → `id`: the segment before already says whose. */
function shortParameter(name: string): string {
  return name.length > 12 && /[-_.]id$|[a-z]Id$/.test(name) ? "id" : name;
}

/**
 * How a name was made, best first: a name the user chose (`x-mcp` or an override file), an
 * operationId used as it is, a cleaned or shortened operationId, a name derived from the route.
 * On a clash the better kind keeps the name.
 */
export type NameOrigin = "override" | "operationId" | "cleaned" | "route";
const ORIGIN_RANK: Record<NameOrigin, number> = { override: -1, operationId: 0, cleaned: 1, route: 2 };

/** The base name of an operation before collisions are resolved, and how it was made. */
export function chooseToolName(operation: { operationId?: string; method: string; path: string }): {
  name: string;
  origin: NameOrigin;
  /** The name before fitName shortened it (only when it did): what fitNames reads. */
  full?: string;
} {
  const id = operation.operationId ?? "";
  if (id !== "" && looksGenerated(id)) {
    return { name: deriveReadableName(operation.method, operation.path), origin: "cleaned" };
  }
  if (TOOL_NAME_PATTERN.test(id)) return { name: id, origin: "operationId" };
  const fromId = sanitizeName(id);
  const origin: NameOrigin = fromId !== "" ? "cleaned" : "route";
  const full = fromId !== "" ? fromId : deriveNameFromRoute(operation.method, operation.path);
  // A route too long for a name (Bitbucket's 215 operations without an operationId:
  // `put_repositories_by_pullrequests_by_pull_request_id_6519f72d`) is named as a generated
  // operationId is, in words without a hash; a route that fits keeps the name it always had.
  if (fromId === "" && full.length > MAX_TOOL_NAME_LENGTH) {
    return { name: deriveReadableName(operation.method, operation.path), origin };
  }
  const name = fitName(full);
  return name === full ? { name, origin } : { name, origin, full };
}

/**
 * Makes names unique: of the operations that want one name (compared without case), the one
 * whose name was made best (see NameOrigin), then the first in document order, keeps it; each
 * other gets a suffix from a hash of its route (`METHOD path`), which stays the same when other
 * operations are added or removed. Returns the final names in the order given. Suffixed names
 * stay within `maxLength` (names given must already fit it).
 */
export function resolveNameCollisions(
  entries: { name: string; route: string; origin?: NameOrigin }[],
  maxLength = MAX_TOOL_NAME_LENGTH,
): string[] {
  const taken = new Set<string>();
  const result: string[] = new Array(entries.length);
  const order = entries
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        ORIGIN_RANK[a.entry.origin ?? "operationId"] - ORIGIN_RANK[b.entry.origin ?? "operationId"] ||
        a.index - b.index,
    );
  for (const { entry, index } of order) {
    let name = entry.name;
    if (taken.has(name.toLowerCase())) {
      const hash = hashShort(entry.route, 6);
      name = `${entry.name.slice(0, maxLength - 7)}_${hash}`;
      for (let i = 2; taken.has(name.toLowerCase()); i++) {
        const suffix = `_${hash}${i}`;
        name = `${entry.name.slice(0, maxLength - suffix.length)}${suffix}`;
      }
    }
    taken.add(name.toLowerCase());
    result[index] = name;
  }
  return result;
}
