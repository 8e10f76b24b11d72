/**
 * recall@k: the share of a task's gold operations among the first k results, averaged over the
 * tasks (a task with 3 gold operations and 2 of them in the top 5 counts 2/3); MRR: the mean of
 * 1 / the rank of the first gold operation (0 when none is in the first 50). A task whose gold
 * operations are alternatives (`any`) is found at k when one of them is in the first k.
 */
export const CUTOFFS = [1, 5, 10];
export const DEPTH = 50;

export function scoreRanking(ranked, gold, any = false) {
  const wanted = new Set(gold);
  const out = {};
  // `any`: the gold operations are alternatives (any one does the job), found when one is.
  for (const k of CUTOFFS) {
    const found = ranked.slice(0, k).filter((name) => wanted.has(name)).length;
    out[`r${k}`] = any ? Math.min(found, 1) : found / wanted.size;
  }
  const first = ranked.findIndex((name) => wanted.has(name));
  out.rr = first === -1 ? 0 : 1 / (first + 1);
  return out;
}

export function averageScores(scores) {
  const sum = { r1: 0, r5: 0, r10: 0, rr: 0 };
  for (const score of scores) for (const key of Object.keys(sum)) sum[key] += score[key];
  const n = Math.max(scores.length, 1);
  return Object.fromEntries(Object.entries(sum).map(([key, value]) => [key, value / n]));
}
