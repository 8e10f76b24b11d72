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
 * Fits a name into `maxLength`: names that are too long keep their start and end with `_` and
 * an 8-character hash of the full name, so two long names never shorten to the same text.
 */
export function fitName(name: string, maxLength = MAX_TOOL_NAME_LENGTH): string {
  if (name.length <= maxLength) return name;
  const hash = hashShort(name);
  const head = name.slice(0, maxLength - hash.length - 1).replace(/[_-]+$/, "");
  return `${head}_${hash}`;
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
} {
  const id = operation.operationId ?? "";
  if (TOOL_NAME_PATTERN.test(id)) return { name: id, origin: "operationId" };
  const fromId = sanitizeName(id);
  if (fromId !== "") return { name: fitName(fromId), origin: "cleaned" };
  return { name: fitName(deriveNameFromRoute(operation.method, operation.path)), origin: "route" };
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
