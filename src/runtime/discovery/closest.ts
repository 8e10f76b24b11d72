/**
 * The operations closest to a name that is none (a typo, a guess, a name from another API), for
 * the answers to describe and call: near names first (model/similarity.ts), then what a search
 * for the name's words finds.
 */

import { formatCount } from "../../model/format-count.js";
import { rankClosest } from "../../model/similarity.js";
import type { ToolNode } from "../../model/types.js";
import type { OperationSearch } from "./search.js";

const MAX_CLOSEST = 5;

/**
 * The longest tool name MCP allows (1-128 characters): a longer name is no operation's, so no
 * edit distance is worth computing for it (a distance costs the product of the two lengths).
 */
export const MAX_NAME_CHARS = 128;

/** A name as an answer quotes it: a name longer than any operation's is cut, and says so. */
export function showName(name: string): string {
  return name.length <= MAX_NAME_CHARS
    ? name
    : `${name.slice(0, MAX_NAME_CHARS)}… (${formatCount(name.length)} characters)`;
}

/** Up to five operation names like `name`, the closest first. */
export function findClosestOperations(
  name: string,
  tools: readonly ToolNode[],
  search: OperationSearch,
): string[] {
  const names =
    name.length > MAX_NAME_CHARS
      ? []
      : rankClosest(
          name,
          tools.map((tool) => tool.name),
        )
          .slice(0, MAX_CLOSEST)
          .map((n) => n.name);
  // Only `tools`: a caller whose token may call fewer is never told the others' names.
  const known = new Set(tools.map((tool) => tool.name));
  for (const hit of search.search(name, { limit: MAX_CLOSEST * 4 })) {
    if (names.length >= MAX_CLOSEST) break;
    if (known.has(hit.name) && !names.includes(hit.name)) names.push(hit.name);
  }
  return names;
}
