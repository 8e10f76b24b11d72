/**
 * How deeply a JSON value nests, measured without recursion: the one measure for every document
 * the bridge reads (a spec, a saved model, a catalog) and every answer it passes on. A value small
 * in bytes and deep in structure (`[[[[...]]]]` 6,000 levels in 12 KB) would overflow the stack
 * of every recursive step after it (serialising an MCP answer, planning, diffing).
 */

/**
 * Documents nested deeper than this are refused right after parsing: every later stage walks
 * them recursively. Real specs stay under 50; the schemas the planner emits are cut at 200.
 */
export const MAX_DOCUMENT_DEPTH = 2000;

/**
 * The deepest structured content a result carries (real APIs nest a few dozen levels at most):
 * an API's answer deeper than this is passed on as text, never as structure.
 */
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
