/** A plain JSON object: not null and not an array (shared by the generator and the runtime). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
