/**
 * How deeply a JSON value nests, measured without recursion. An API's answer is small in bytes
 * and deep in structure (`[[[[...]]]]` 6,000 levels in 12 KB) would overflow the stack of every
 * recursive step after it (serialising the MCP answer included), and the call would get no
 * answer at all. Values deeper than MAX_JSON_DEPTH are passed on as text, never as structure.
 */

/** The deepest structured content a result carries (real APIs nest a few dozen levels at most). */
export const MAX_JSON_DEPTH = 100;

/** True when `value` has objects or arrays nested more than `max` levels deep. */
export function isDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
