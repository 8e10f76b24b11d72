/** The message of anything thrown: an Error's own message, anything else as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
