/**
 * The operations closest to a name that is none (a typo, a guess, a name from another API), for
 * the answers to describe and call: names within a few edits first, then what a search for the
 * name's words finds.
 */
import type { ToolNode } from "../../model/types.js";
import type { OperationSearch } from "./search.js";

const MAX_CLOSEST = 5;

/** Edit distance of `a` and `b`, or `limit + 1` as soon as it must exceed `limit`. */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to five operation names like `name`, the closest first. */
export function findClosestOperations(
  name: string,
  tools: readonly ToolNode[],
  search: OperationSearch,
): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const near: { name: string; distance: number }[] = [];
  for (const tool of tools) {
    const distance = boundedDistance(wanted, tool.name.toLowerCase(), limit);
    if (distance <= limit) near.push({ name: tool.name, distance });
  }
  near.sort((a, b) => a.distance - b.distance);
  const names = near.slice(0, MAX_CLOSEST).map((n) => n.name);
  for (const hit of search.search(name, { limit: MAX_CLOSEST })) {
    if (names.length >= MAX_CLOSEST) break;
    if (!names.includes(hit.name)) names.push(hit.name);
  }
  return names;
}
