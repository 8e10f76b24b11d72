/** Deep copies of JSON data the planner made, for a caller that changes its copy. */

/**
 * A deep copy of a JSON tree (no object in it twice): objects and arrays new, the rest as they
 * are, keys in their order, `__proto__` as an own key as in the original.
 */
export function copyJsonTree<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    for (const item of value) list.push(copyJsonTree(item));
    return list as T;
  }
  const object: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJsonTree((value as Record<string, unknown>)[key]);
    if (key === "__proto__") {
      Object.defineProperty(object, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else object[key] = item;
  }
  return object as T;
}
