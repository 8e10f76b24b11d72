/**
 * The tool lifecycle on real specs at two published versions (npm packages that ship them,
 * installed into `$SCRATCH/lifecycle`, outside the repo):
 *
 *   node bench/lifecycle.mjs            measures `diff` and `catalog` on each pair, holds the
 *                                       diff to the independent judge (bench/spec-judge.mjs) and
 *                                       writes bench/results/lifecycle.md
 *   node bench/lifecycle.mjs fixtures   writes the small extracts the e2e test uses
 *                                       (fixtures/lifecycle/): every operation the judge finds
 *                                       broken or changed in prose only, the operations the diff
 *                                       finds broken, and a few others, at both versions
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import {
  describeEnvironment,
  environmentMarkdown,
  formatMs,
  isMain,
  markdownTable,
  median,
  now,
  OUR_CLI,
  REPO_DIR,
  RESULTS_DIR,
  SCRATCH_DIR,
} from "./lib.mjs";
import { extractOperations } from "./spec-extract.mjs";
import { checkDiffAgainstJudge, judgeSpecPair } from "./spec-judge.mjs";

const LIFECYCLE_DIR = join(SCRATCH_DIR, "lifecycle");
const FIXTURES_DIR = join(REPO_DIR, "fixtures", "lifecycle");
const RUNS = 3;

/** Real specs at two published versions: npm package, versions, file in the package, licence. */
export const PAIRS = [
  {
    name: "github",
    title: "GitHub REST API",
    package: "@octokit/openapi",
    old: { version: "22.0.0", file: "generated/api.github.com.json" },
    new: { version: "23.0.2", file: "generated/api.github.com.json" },
    license: "MIT",
    flags: [],
  },
  {
    name: "netlify",
    title: "Netlify API (Swagger 2.0)",
    package: "@netlify/open-api",
    old: { version: "2.20.0", file: "dist/swagger.json" },
    new: { version: "2.60.0", file: "dist/swagger.json" },
    license: "MIT",
    flags: [],
  },
  {
    name: "blockfrost",
    title: "Blockfrost API",
    package: "@blockfrost/openapi",
    old: { version: "0.1.24", file: "swagger.yaml" },
    new: { version: "0.1.93", file: "openapi.yaml" },
    license: "MIT",
    // 0.1.93 declares `type: null` inside an anyOf, which OpenAPI 3.0 does not allow.
    flags: ["--no-validate"],
  },
];

const log = (line) => process.stderr.write(`${line}\n`);

function alias(pair, side) {
  return `${pair.name}-${side}`;
}

/** Installs every pair (once) and returns the spec paths. */
export function setupPairs() {
  mkdirSync(LIFECYCLE_DIR, { recursive: true });
  const manifest = join(LIFECYCLE_DIR, "package.json");
  if (!existsSync(manifest))
    writeFileSync(manifest, `${JSON.stringify({ name: "omb-lifecycle", private: true })}\n`);
  const missing = PAIRS.flatMap((pair) =>
    ["old", "new"]
      .filter((side) => !existsSync(join(LIFECYCLE_DIR, "node_modules", alias(pair, side), pair[side].file)))
      .map((side) => `${alias(pair, side)}@npm:${pair.package}@${pair[side].version}`),
  );
  if (missing.length > 0) {
    log(`setup: npm install ${missing.join(" ")} in ${LIFECYCLE_DIR}`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", ...missing], {
      cwd: LIFECYCLE_DIR,
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 900_000,
    });
  }
  return PAIRS.map((pair) => ({
    ...pair,
    oldFile: join(LIFECYCLE_DIR, "node_modules", alias(pair, "old"), pair.old.file),
    newFile: join(LIFECYCLE_DIR, "node_modules", alias(pair, "new"), pair.new.file),
  }));
}

function readSpec(file) {
  const text = readFileSync(file, "utf8");
  return file.endsWith(".json") ? JSON.parse(text) : parse(text);
}

/** `node dist/cli/main.js ...args`: stdout, exit status and wall time. */
function runCli(args) {
  const started = now();
  const result = spawnSync(process.execPath, [OUR_CLI, ...args], {
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status, ms: now() - started };
}

function diffJson(pair, oldFile, newFile) {
  const run = runCli(["diff", ...pair.flags, "--no-cache", oldFile, newFile, "--format", "json"]);
  if (run.status !== 0 && run.status !== 1) throw new Error(`diff failed (${run.status}): ${run.stderr}`);
  return { ...run, changes: JSON.parse(run.stdout).changes };
}

function countBy(changes, key) {
  const counts = {};
  for (const c of changes) counts[c[key]] = (counts[c[key]] ?? 0) + 1;
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

/** Operations to keep in a pair's extract, as selectors (operationId or `METHOD /path`). */
function chooseOperations(judgement, changes) {
  const selector = (op) => op.operationId ?? `${op.method} ${op.path}`;
  const chosen = new Set(judgement.broken.map(selector));
  for (const op of judgement.proseOnly.slice(0, 12)) chosen.add(selector(op));
  const byCode = new Map();
  for (const c of changes) {
    if (c.code === "tool-added" || c.code === "tool-removed") continue;
    const list = byCode.get(c.code) ?? [];
    list.push(c);
    byCode.set(c.code, list);
  }
  // Two operations per rule the diff found, so that the extract shows every kind of change.
  for (const list of byCode.values())
    for (const c of list.slice(0, 2)) chosen.add(c.operationId ?? `${c.method} ${c.path}`);
  for (const c of changes.filter((c) => c.code === "tool-added").slice(0, 3))
    chosen.add(c.operationId ?? `${c.method} ${c.path}`);
  return [...chosen].sort();
}

function writeFixtures() {
  mkdirSync(FIXTURES_DIR, { recursive: true });
  const lines = [];
  for (const pair of setupPairs()) {
    const oldDoc = readSpec(pair.oldFile);
    const newDoc = readSpec(pair.newFile);
    const judgement = judgeSpecPair(oldDoc, newDoc);
    const { changes } = diffJson(pair, pair.oldFile, pair.newFile);
    const selectors = chooseOperations(judgement, changes);
    for (const side of ["old", "new"]) {
      const doc = side === "old" ? oldDoc : newDoc;
      const file = join(FIXTURES_DIR, `${pair.name}.${side}.json`);
      writeFileSync(file, `${JSON.stringify(extractOperations(doc, selectors))}\n`);
      log(`wrote ${file} (${(statSync(file).size / 1024).toFixed(0)} KiB)`);
    }
    lines.push(
      `| ${pair.name}.old.json, ${pair.name}.new.json | ${pair.title}: \`${pair.package}\` ${pair.old.version} (\`${pair.old.file}\`) and ${pair.new.version} (\`${pair.new.file}\`) | ${pair.license} | ${selectors.length} |`,
    );
  }
  writeFileSync(
    join(FIXTURES_DIR, "README.md"),
    [
      "# Real spec pairs for the lifecycle test",
      "",
      "Extracts of real specs at two published versions, written by `node bench/lifecycle.mjs fixtures`",
      "(bench/spec-extract.mjs): the chosen operations and everything they reference, as the",
      "packages ship them (nothing rewritten). Chosen: every operation bench/spec-judge.mjs finds",
      "broken or changed in prose only (up to 12), two operations per rule the diff found, and a few",
      "new ones. test/e2e/lifecycle.test.ts holds `diff` to the judge on each pair.",
      "",
      "| Files | Source (npm package, versions, file) | Licence | Operations kept |",
      "| --- | --- | --- | --- |",
      ...lines,
      "",
    ].join("\n"),
  );
}

// ---------------------------------------------------------------------------------------------
// Measurement

function measurePair(pair) {
  const oldDoc = readSpec(pair.oldFile);
  const newDoc = readSpec(pair.newFile);
  const judgeStarted = now();
  const judgement = judgeSpecPair(oldDoc, newDoc);
  const judgeMs = now() - judgeStarted;
  const tmp = join(LIFECYCLE_DIR, "out");
  mkdirSync(tmp, { recursive: true });
  const oldCatalog = join(tmp, `${pair.name}.old.catalog.json`);
  const newCatalog = join(tmp, `${pair.name}.new.catalog.json`);
  const newYaml = join(tmp, `${pair.name}.new.catalog.yaml`);
  const diffTimes = [];
  const catalogTimes = [];
  const catalogPreviousTimes = [];
  const catalogDiffTimes = [];
  let diff;
  let catalogDiff;
  for (let i = 0; i < RUNS; i++) {
    // Interleaved: one of each per round, so that the machine's load falls on all alike.
    diff = diffJson(pair, pair.oldFile, pair.newFile);
    diffTimes.push(diff.ms);
    const first = runCli(["catalog", ...pair.flags, "--no-cache", pair.oldFile, "-o", oldCatalog]);
    if (first.status !== 0) throw new Error(first.stderr);
    catalogTimes.push(first.ms);
    const next = runCli([
      "catalog",
      ...pair.flags,
      "--no-cache",
      pair.newFile,
      "--previous",
      oldCatalog,
      "-o",
      newCatalog,
    ]);
    if (next.status !== 0) throw new Error(next.stderr);
    catalogPreviousTimes.push(next.ms);
    catalogDiff = diffJson(pair, oldCatalog, pair.newFile);
    catalogDiffTimes.push(catalogDiff.ms);
  }
  const yaml = runCli(["catalog", ...pair.flags, pair.newFile, "--previous", oldCatalog, "-o", newYaml]);
  if (yaml.status !== 0) throw new Error(yaml.stderr);
  const newCatalogDoc = JSON.parse(readFileSync(newCatalog, "utf8"));
  const check = checkDiffAgainstJudge(judgement, diff.changes);
  const checkCatalog = checkDiffAgainstJudge(judgement, catalogDiff.changes);
  return {
    pair,
    judgement,
    judgeMs,
    changes: diff.changes,
    check,
    checkCatalog,
    catalogChanges: catalogDiff.changes,
    diffMs: median(diffTimes),
    diffRange: [Math.min(...diffTimes), Math.max(...diffTimes)],
    catalogMs: median(catalogTimes),
    catalogPreviousMs: median(catalogPreviousTimes),
    catalogDiffMs: median(catalogDiffTimes),
    catalogBytes: statSync(newCatalog).size,
    catalogYamlBytes: statSync(newYaml).size,
    catalogVersion: newCatalogDoc.catalogVersion,
    catalogTools: countBy(newCatalogDoc.tools, "status"),
    catalogCompatibility: countBy(newCatalogDoc.tools, "compatibility"),
  };
}

function pairMarkdown(m) {
  const { pair, judgement, changes, check, checkCatalog } = m;
  const severities = countBy(changes, "severity");
  const rules = Object.entries(countBy(changes, "code")).sort(
    (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
  );
  const brokenOps = new Set(judgement.broken.map((b) => `${b.method} ${b.path}`)).size;
  const kinds = Object.entries(countBy(judgement.broken, "kind"))
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
  return [
    `## ${pair.title}: \`${pair.package}\` ${pair.old.version} → ${pair.new.version}`,
    "",
    `Operations: ${judgement.operations.old} → ${judgement.operations.new}. Flags: ${pair.flags.length > 0 ? `\`${pair.flags.join(" ")}\`` : "none"}.`,
    "",
    `- \`diff\` (spec → spec, JSON output, no model cache): **${formatMs(m.diffMs)}** median of ${RUNS} (${formatMs(m.diffRange[0])} – ${formatMs(m.diffRange[1])}); both specs loaded, validated and planned, then compared.`,
    `- Changes: ${changes.length}: **${severities.breaking ?? 0} breaking**, ${severities.compatible ?? 0} compatible, ${severities.docs ?? 0} docs, in ${new Set(changes.map((c) => c.tool)).size} tools.`,
    `- Judge (bench/spec-judge.mjs, reads the raw specs, ${formatMs(m.judgeMs)}): ${brokenOps} operations broken (${kinds || "none"}), ${judgement.proseOnly.length} changed in prose only.`,
    `  - broken operations the diff did not report as breaking: **${check.missed.length}**${check.missed.length > 0 ? ` (${check.missed.map((o) => `${o.method} ${o.path}: ${o.kind}`).join("; ")})` : ""}`,
    `  - prose-only operations the diff reported as breaking: **${check.falseAlarms.length}**${check.falseAlarms.length > 0 ? ` (${check.falseAlarms.map((o) => `${o.method} ${o.path}`).join("; ")})` : ""}`,
    `  - the same with the old side as a catalog: ${checkCatalog.missed.length} missed, ${checkCatalog.falseAlarms.length} false alarms (${m.catalogChanges.length} changes: prose shows as one \`docs-changed\` per tool)`,
    `- \`catalog\` of the old spec: ${formatMs(m.catalogMs)}; of the new one with \`--previous\`: ${formatMs(m.catalogPreviousMs)}; \`diff\` catalog → spec: ${formatMs(m.catalogDiffMs)} (medians).`,
    `- New catalog: catalogVersion ${m.catalogVersion}, ${kb(m.catalogBytes)} as JSON (${kb(m.catalogYamlBytes)} as YAML); tools by status ${JSON.stringify(m.catalogTools)}, by compatibility ${JSON.stringify(m.catalogCompatibility)}.`,
    "",
    "Changes per rule:",
    "",
    markdownTable(
      ["Rule", "Severity", "Changes"],
      rules.map(([code, n]) => [`\`${code}\``, changes.find((c) => c.code === code).severity, String(n)]),
    ),
    "",
  ].join("\n");
}

async function measure() {
  if (!existsSync(OUR_CLI)) throw new Error(`${OUR_CLI} is missing: run \`npm run build\` first`);
  const pairs = setupPairs();
  const results = [];
  for (const pair of pairs) {
    log(`measuring ${pair.name}`);
    results.push(measurePair(pair));
  }
  const env = describeEnvironment();
  const text = [
    "# Tool lifecycle: `diff` and `catalog` on real specs at two published versions",
    "",
    // The first four lines: date, node, machine, commit (no competitor takes part here).
    environmentMarkdown(env).split("\n").slice(0, 4).join("\n"),
    "",
    "Rerun: `npm run build && node bench/lifecycle.mjs` (installs the packages into",
    "`$SCRATCH/lifecycle` once). Each case runs the built CLI as a user would; times are wall",
    `clock, medians of ${RUNS} interleaved runs, on a shared 2-core machine (the load is noisy).`,
    "The judge is independent of the diff: it reads the raw documents and names the operations the",
    "specs show broken (removed, parameter removed, new or newly required parameter, enum value",
    "removed; request-body fields count as parameters) and those changed in prose only.",
    "",
    ...results.map(pairMarkdown),
  ].join("\n");
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, "lifecycle.md");
  writeFileSync(file, text);
  log(`wrote ${file}`);
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === "fixtures") writeFixtures();
  else await measure();
}
