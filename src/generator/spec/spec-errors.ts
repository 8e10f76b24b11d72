/** Diagnostics of the spec stage kept short: capped in number, deduplicated, one line each. */
import type { Diagnostic } from "../../model/types.js";

/**
 * At most this many diagnostics of one kind are reported (unless the caller says otherwise),
 * plus a note saying how many more.
 */
const MAX_REPORTED = 20;

export function capDiagnostics(list: Diagnostic[], max = MAX_REPORTED): Diagnostic[] {
  if (list.length <= max) return list;
  const first = list[0]!;
  const more = list.length - max;
  // The note takes the code of the problems it counts (checked against the catalog where they were made).
  const note: Diagnostic = {
    code: first.code,
    severity: "error",
    message: `... and ${more} more problem${more === 1 ? "" : "s"} like these`,
  };
  if (first.file !== undefined) note.file = first.file;
  return [...list.slice(0, max), note];
}

export function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.code}\u0000${d.file}\u0000${d.pointer}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function errorCode(error: unknown): string | undefined {
  if (error !== null && typeof error === "object" && "code" in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** First line of an error's message, bounded: never a stack, never a multi-kilobyte dump. */
export function shortMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n")[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
