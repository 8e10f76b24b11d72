/**
 * Optional query and header parameters an API declares on (nearly) every operation: Google's
 * ten "standard parameters" (`$.xgafv`, `alt`, `callback`, `prettyPrint`, `quotaUser`,
 * `upload_protocol`, `uploadType`, …) on each of Gmail's 79 operations. They are real options,
 * so they stay arguments, but they say nothing about what one operation does: listed first
 * (the path item declares them), they filled code mode's one-line signatures and hid Gmail's
 * `q` and `maxResults` behind `+11 more`. Their bindings are marked (`apiWide`); the
 * signatures name them after the operation's own. Counted in parameter-survey.ts.
 */
/** An API needs this many operations before a parameter can be API-wide. */
const MIN_OPERATIONS = 8;

/** Share of the operations that must declare a parameter for it to be API-wide. */
const MIN_SHARE = 0.9;

/** A parameter's key in the set: its location and name. */
export function keyApiWideParameter(location: string, name: string): string {
  return `${location}:${name}`;
}

/** The keys declared on enough operations of enough (`counts`: operations that declare each key). */
export function selectApiWideParameters(
  counts: ReadonlyMap<string, number>,
  operations: number,
): ReadonlySet<string> {
  return new Set(
    operations < MIN_OPERATIONS
      ? []
      : [...counts].filter(([, count]) => count >= operations * MIN_SHARE).map(([key]) => key),
  );
}
