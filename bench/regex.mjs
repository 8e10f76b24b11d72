/**
 * Spec regexes, on demand (not part of `npm test`): what the bounded engine
 * (dist/runtime/regex/bounded-regexp.js) costs next to V8's RegExp on ordinary patterns and
 * values, and what it does with catastrophic ones (V8 is run on those only at lengths that end
 * within seconds). 7 runs per case, engines interleaved; the median, min and max of each.
 * Writes bench/results/regex.md.
 *
 *   npm run build && node bench/regex.mjs
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describeEnvironment, markdownTable, REPO_DIR, RESULTS_DIR, summarize } from "./lib.mjs";

const { boundedRegExp, withMatchBudget, PatternLimitError } = await import(
  join(REPO_DIR, "dist", "runtime", "regex", "bounded-regexp.js")
);

const RUNS = 7;
const CASES = [
  { pattern: "^[a-zA-Z0-9_-]{1,64}$", input: "get_pet_by_id", repeat: 100_000, native: true },
  { pattern: "^\\d{4}-\\d{2}-\\d{2}$", input: "2024-01-31", repeat: 100_000, native: true },
  {
    pattern: "^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d@$!%*?&]{8,}$",
    input: "Passw0rdPassw0rd",
    repeat: 100_000,
    native: true,
  },
  { pattern: "^[A-Za-z0-9+/]+={0,2}$", input: "QUJD".repeat(250_000), repeat: 1, native: true },
  { pattern: "^(a+)+$", input: `${"a".repeat(24)}!`, repeat: 1, native: true },
  { pattern: "^(a+)+$", input: `${"a".repeat(41)}!`, repeat: 1, native: false },
  { pattern: "^(\\w+\\s?)*$", input: `${"word ".repeat(20_000)}!`, repeat: 1, native: false },
];

function time(fn) {
  const start = performance.now();
  let outcome;
  try {
    outcome = String(fn());
  } catch (error) {
    outcome = error instanceof PatternLimitError ? "refused (PatternLimitError)" : String(error);
  }
  return { ms: performance.now() - start, outcome };
}

const rows = [];
for (const c of CASES) {
  const bounded = boundedRegExp(c.pattern, "u");
  const native = new RegExp(c.pattern, "u");
  const ours = [];
  const theirs = [];
  let oursOutcome = "";
  let theirOutcome = "not run (minutes)";
  for (let run = 0; run < RUNS; run++) {
    const o = time(() => {
      let last;
      for (let i = 0; i < c.repeat; i++) last = withMatchBudget(() => bounded.test(c.input));
      return last;
    });
    ours.push(o.ms);
    oursOutcome = o.outcome;
    if (c.native) {
      const n = time(() => {
        let last;
        for (let i = 0; i < c.repeat; i++) last = native.test(c.input);
        return last;
      });
      theirs.push(n.ms);
      theirOutcome = n.outcome;
    }
  }
  const fmt = (values) => {
    if (values.length === 0) return "—";
    const s = summarize(values);
    return `${s.median.toFixed(1)} ms (${s.min.toFixed(1)} – ${s.max.toFixed(1)})`;
  };
  rows.push([
    `\`${c.pattern}\``,
    `${c.input.length.toLocaleString("en")} chars × ${c.repeat.toLocaleString("en")}`,
    fmt(ours),
    oursOutcome,
    fmt(theirs),
    theirOutcome,
  ]);
}

const env = describeEnvironment();
const text = `# Spec regexes: the bounded engine next to V8's RegExp

- Date: ${env.date}
- Node: ${env.node} on ${env.platform}
- Machine: ${env.cpu}, nproc ${env.nproc}, ${env.memory} memory; load average (1/5/15 min) at the end: ${env.loadAverage}
- openapi-mcp-bridge commit: ${env.commit}

Each case tests the value \`repeat\` times, one step budget per test (as one validation has);
${RUNS} runs per case, the two engines interleaved; median (min – max). V8 is not run where it
would take minutes.

${markdownTable(["Pattern", "Value", "Bounded", "Answer", "V8 RegExp", "Answer"], rows)}

Command: \`npm run build && node bench/regex.mjs\`
`;
writeFileSync(join(RESULTS_DIR, "regex.md"), text);
process.stdout.write(text);
