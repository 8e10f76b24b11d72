/** A plain JSON object: not null and not an array (shared by the generator and the runtime). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The members every plain object inherits that TypeScript's `interface Object` declares
 * (lib.es5.d.ts): `{}` seems to hold a `constructor`, a `toString`... One list for the names
 * arguments cannot take and the hooks map's typing of tools named like them.
 */
export const OBJECT_MEMBER_NAMES: readonly string[] = [
  "constructor",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
];
