/**
 * Parameter descriptions an API repeats on many operations (a shared `owner` or `page`
 * parameter's text). A short description is normally kept whole (text.ts), but a text said on
 * hundreds of tools pays its tokens on every one of them while a model learns it once: such a
 * text is shortened to its lead sentence like a long one. On GitHub, "The name is not case
 * sensitive." after `owner` and `repo` alone was about 12,000 tokens of tools/list. Counted in
 * parameter-survey.ts.
 */

/** Operations a parameter description must appear on to count as repeated. */
export const REPEATED_TEXT_OPERATIONS = 10;

/** The texts said on enough operations (`counts`: operations that say each text). */
export function selectRepeatedTexts(counts: ReadonlyMap<string, number>): Set<string> {
  const repeated = new Set<string>();
  for (const [text, count] of counts) if (count >= REPEATED_TEXT_OPERATIONS) repeated.add(text);
  return repeated;
}
