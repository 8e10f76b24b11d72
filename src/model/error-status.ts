/** A documented failure's status: 4xx, 5xx or the default answer (written in any case). */
export function isErrorStatus(status: string): boolean {
  return /^[45]/.test(status) || status.toLowerCase() === "default";
}
