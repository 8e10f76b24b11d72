/**
 * The description budgets' defaults, in a module of their own (no imports) so that the plan
 * option table (and so the CLI's help) reads them without loading the planner.
 */

/**
 * Characters of a tool description when none is given. Every tool costs a model this much on
 * every request; past the summary and the first sentences of prose, GitHub's descriptions run
 * to token scopes and caveats (bench/results/tokens.md). 170 rather than 180: the ten
 * characters cut are the tail of a sentence already cut (about 1,750 tokens of GitHub's list).
 */
export const DEFAULT_DESCRIPTION_BUDGET = 170;

/**
 * Characters of an argument's or a property's description when none is given (0 leaves them
 * out): the schemas of every tool are listed at once, so their prose is kept shorter.
 */
export const DEFAULT_ARGUMENT_DESCRIPTION_BUDGET = 100;
