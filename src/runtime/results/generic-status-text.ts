/**
 * Response descriptions that tell a model nothing its status does not: Stripe's "Successful
 * response." and "Error response." on every operation, "Unexpected error", "OK", a 400
 * documented as "Bad Request". Failure results leave them out, and describe shows their status
 * without them.
 */

/** Words that say only that an answer succeeded or failed. */
const GENERIC_WORDS = new Set(
  [
    "a an the http status code response request result",
    "error errors unexpected default failure failed failing general occurred",
    "ok okay success successful successfully succeeded done completed operation",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Whether `description` is only such words, numbers, or the words of the status line's reason
 * phrase (`statusText`). Bounded: a description longer than 80 characters is never generic.
 */
export function isGenericStatusText(description: string, statusText = ""): boolean {
  if (description.length > 80) return false;
  const reason = new Set(
    statusText
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean),
  );
  const words = description
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.every((word) => GENERIC_WORDS.has(word) || reason.has(word) || /^\d+$/.test(word));
}
