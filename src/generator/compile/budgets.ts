/**
 * The description budgets' defaults, in a module of their own (no imports) so that the CLI's
 * help text reads them without loading the planner.
 */

/**
 * Characters of a tool description when none is given. Every tool costs a model this much on
 * every request; past the summary and the first sentences of prose, GitHub's descriptions run
 * to token scopes and caveats (bench/results/tokens.md).
 */
export const DEFAULT_DESCRIPTION_BUDGET = 180;
