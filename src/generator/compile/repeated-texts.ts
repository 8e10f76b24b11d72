/**
 * Parameter descriptions an API repeats on many operations (a shared `owner` or `page`
 * parameter's text). A short description is normally kept whole (text.ts), but a text said on
 * hundreds of tools pays its tokens on every one of them while a model learns it once: such a
 * text is shortened to its lead sentence like a long one. On GitHub, "The name is not case
 * sensitive." after `owner` and `repo` alone was about 12,000 tokens of tools/list.
 */
import { isRecord } from "../../model/records.js";
import { listOperations, resolveRefObject } from "./context.js";

/** Operations a parameter description must appear on to count as repeated. */
export const REPEATED_TEXT_OPERATIONS = 10;

/** The parameter descriptions found on at least REPEATED_TEXT_OPERATIONS operations. */
export function findRepeatedParameterTexts(document: Record<string, unknown>): Set<string> {
  const counts = new Map<string, number>();
  for (const { pathItem, operation } of listOperations(document)) {
    // Counted once per operation, whether it is said at the path or the operation.
    const seen = new Set<string>();
    for (const list of [pathItem.parameters, operation.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const parameter = resolveRefObject(document, raw);
        if (isRecord(parameter) && typeof parameter.description === "string") seen.add(parameter.description);
      }
    }
    for (const text of seen) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const repeated = new Set<string>();
  for (const [text, count] of counts) if (count >= REPEATED_TEXT_OPERATIONS) repeated.add(text);
  return repeated;
}
