/**
 * The operations closest to a name that is none (a typo, a guess, a name from another API), for
 * the answers to describe and call: near names first (model/similarity.ts), then what a search
 * for the name's words finds.
 */
import { rankClosest } from "../../model/similarity.js";
import type { ToolNode } from "../../model/types.js";
import type { OperationSearch } from "./search.js";

const MAX_CLOSEST = 5;

/** Up to five operation names like `name`, the closest first. */
export function findClosestOperations(
  name: string,
  tools: readonly ToolNode[],
  search: OperationSearch,
): string[] {
  const names = rankClosest(
    name,
    tools.map((tool) => tool.name),
  )
    .slice(0, MAX_CLOSEST)
    .map((n) => n.name);
  for (const hit of search.search(name, { limit: MAX_CLOSEST })) {
    if (names.length >= MAX_CLOSEST) break;
    if (!names.includes(hit.name)) names.push(hit.name);
  }
  return names;
}
