/**
 * A count as every message writes it, `1,223`: what `toLocaleString("en-US")` writes, without
 * it for whole numbers. The first Intl call of a process loads ICU's number formatting, some
 * 20-40 ms, and `serve` wrote counts at every start (its option table's help, the start-up
 * line) before its first answer.
 */

/** `1223` → `1,223`; what `n.toLocaleString("en-US")` gives. */
export function formatCount(n: number): string {
  // Anything but a safe whole number (fractions, -0, huge values) is rare: Intl writes it.
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let text = digits.slice(0, head);
  for (let at = head; at < digits.length; at += 3) text += `,${digits.slice(at, at + 3)}`;
  return n < 0 ? `-${text}` : text;
}
