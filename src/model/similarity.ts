/**
 * How close a name is to the names that exist, one way for every "did you mean" the bridge
 * writes: an unknown argument or property (arguments/issues.ts), an unknown security scheme or
 * server variable at start-up (config/check-start.ts), an unknown operation in discovery and
 * code mode (discovery/closest.ts).
 *
 * Names are compared without case and separators (`pet_id`, `petId` and `PET-ID` are one name),
 * by optimal string alignment distance (insertions, deletions, substitutions and a swap of two
 * neighbours each count as one edit: `nmae` is one edit from `name`). A candidate is near when
 * it is at most a third of the longer name's letters away (at least one edit), or when one name
 * holds the other (`id` in `petId`, `bearer` in `bearerAuth`).
 */

/** Letters and digits only, lower-cased: what a name is compared by. */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * Optimal string alignment distance of `a` and `b`, or `limit + 1` as soon as it must exceed
 * `limit` (without a limit: the distance).
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previousBest = 0;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      if (value < best) best = value;
    }
    // Later rows build on this one, or on the one before through a swap (one edit more).
    if (best > limit && previousBest + 1 > limit) return limit + 1;
    before = previous;
    previous = current;
    previousBest = best;
  }
  const distance = previous[b.length]!;
  return distance > limit ? limit + 1 : distance;
}

export interface NearName {
  name: string;
  /** Edits between the normalised names. */
  distance: number;
}

/**
 * The longest name compared: a client's unknown argument or operation name may be megabytes,
 * and each comparison costs its length (containment) or its length times the candidate's (edit
 * distance); no name a spec declares is this long, so a longer one is near none.
 */
export const MAX_COMPARED_CHARS = 256;

/** The candidates near `name` (see the module comment), the closest first; ties keep their order. */
export function rankClosest(name: string, candidates: Iterable<string>): NearName[] {
  if (name.length > MAX_COMPARED_CHARS) return [];
  const wanted = normaliseName(name);
  const near: NearName[] = [];
  for (const candidate of candidates) {
    const other = normaliseName(candidate);
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, other.length) / 3));
    const contained =
      Math.min(wanted.length, other.length) >= 2 && (other.includes(wanted) || wanted.includes(other));
    const distance = editDistance(wanted, other, contained ? Number.POSITIVE_INFINITY : limit);
    if (distance <= limit || contained) near.push({ name: candidate, distance });
  }
  return near.sort((a, b) => a.distance - b.distance);
}

/** What "did you mean" names: the equally closest candidates, at most `max` of them. */
export function suggestNames(name: string, candidates: Iterable<string>, max: number): string[] {
  const ranked = rankClosest(name, candidates);
  const best = ranked[0]?.distance;
  return ranked
    .filter((near) => near.distance === best)
    .slice(0, max)
    .map((near) => near.name);
}
