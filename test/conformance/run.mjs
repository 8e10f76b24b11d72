#!/usr/bin/env node
/**
 * `npm run conformance` (CI runs it from .ci/run): the official MCP conformance suite, server
 * side, with the 2025-11-25 and 2026-07-28 requirement sets, against `serve` on
 * examples/petstore (sessionful and --stateless) and against the project `generate` writes for
 * it (installed and built, both ways), all over Streamable HTTP (the suite tests servers by URL
 * only); then the MCP Inspector's CLI in each protocol era over stdio and HTTP. Every check that
 * does not pass must be in test/conformance/expected-failures.json with its reason; a new
 * failure, or a listed one that passes now, fails the run and is named.
 *
 * The suite and the Inspector run on Node 22 from the npm registry (tools.mjs); the bridge runs
 * on the Node that runs this script. Everything listens on 127.0.0.1.
 *
 * Usage: node test/conformance/run.mjs [options] (after `npm run build`)
 *   --update                rewrite expected-failures.json from this run (never in CI)
 *   --targets a,b           only these targets (serve, serve-stateless, generated, generated-stateless)
 *   --requirements r        only these requirement sets (2025-11-25, 2026-07-28)
 *   --no-inspector          skip the Inspector checks
 *   --keep                  keep the scratch folder (the suite's checks.json files) and print its path
 *   --expected FILE         another expected-failures file (default test/conformance/expected-failures.json)
 * Env: OMB_CONFORMANCE_TOOLS, the tools' folder (default node_modules/.cache/omb-conformance/tools).
 * Writes node_modules/.cache/omb-conformance/results.json (bench/conformance/summarize.mjs reads it).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compareRuns, loadExpectations, REQUIREMENT_SETS, rewriteExpectations } from "./expectations.mjs";
import { checkInspector } from "./inspector.mjs";
import { runSuite } from "./suite.mjs";
import { commandOf, prepareGeneratedProject, startServer, TARGETS } from "./targets.mjs";
import { installTools } from "./tools.mjs";
import { startUpstream } from "./upstream.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SPEC = join(ROOT, "examples", "petstore", "openapi.yaml");
const CACHE = join(ROOT, "node_modules", ".cache", "omb-conformance");

const { values: options } = parseArgs({
  options: {
    update: { type: "boolean", default: false },
    targets: { type: "string", default: Object.keys(TARGETS).join(",") },
    requirements: { type: "string", default: REQUIREMENT_SETS.join(",") },
    "no-inspector": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    expected: { type: "string", default: join(ROOT, "test", "conformance", "expected-failures.json") },
  },
});
const EXPECTED = options.expected;

/** Milliseconds as seconds with one decimal. */
function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A comma-separated option, each value checked against the known ones. */
function readList(value, known, what) {
  const list = value.split(",").map((item) => item.trim());
  const unknown = list.filter((item) => !known.includes(item));
  if (unknown.length > 0)
    throw new Error(`unknown ${what}: ${unknown.join(", ")} (known: ${known.join(", ")})`);
  return list;
}

/** Totals of one suite run: the suite's own check counts and its scenarios passed. */
function totalRun(scenarios) {
  const totals = { passed: 0, failed: 0, warnings: 0, scenariosPassed: 0, scenarios: scenarios.size };
  for (const scenario of scenarios.values()) {
    totals.passed += scenario.passed;
    totals.failed += scenario.failed;
    totals.warnings += scenario.warnings;
    if (scenario.failed === 0) totals.scenariosPassed += 1;
  }
  return totals;
}

function readCommit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

async function main() {
  const started = Date.now();
  if (options.update && process.env.CI) throw new Error("--update rewrites the checked-in list: never in CI");
  const targets = readList(options.targets, Object.keys(TARGETS), "target");
  const requirementSets = readList(options.requirements, REQUIREMENT_SETS, "requirement set");
  const problems = [];
  const expectations = loadExpectations(EXPECTED);
  if (!options.update)
    problems.push(...expectations.problems.map((p) => `LIST  expected-failures.json ${p}`));

  const toolsStarted = Date.now();
  const tools = await installTools({
    root: ROOT,
    dir: process.env.OMB_CONFORMANCE_TOOLS ?? join(CACHE, "tools"),
  });
  console.log(
    `conformance tools: node ${tools.versions.node}, @modelcontextprotocol/conformance ` +
      `${tools.versions["@modelcontextprotocol/conformance"]}, @modelcontextprotocol/inspector ` +
      `${tools.versions["@modelcontextprotocol/inspector"]} (${tools.installed ? "installed" : "cached"}, ` +
      `${formatSeconds(Date.now() - toolsStarted)})`,
  );

  const scratch = mkdtempSync(join(tmpdir(), "omb-conformance-"));
  const upstream = await startUpstream();
  const runs = [];
  let inspectorCases = [];
  let suiteUpstreamCalls = 0;
  try {
    const generatedDir = join(scratch, "generated-petstore");
    if (targets.some((target) => TARGETS[target].kind === "generated")) {
      const steps = await prepareGeneratedProject({ root: ROOT, spec: SPEC, dir: generatedDir });
      console.log(
        `generated project: generate ${formatSeconds(steps.generate)}, npm install ` +
          `${formatSeconds(steps.install)}, npm run build ${formatSeconds(steps.build)}`,
      );
    }
    for (const target of targets) {
      let server;
      try {
        server = await startServer(
          commandOf(target, { root: ROOT, spec: SPEC, generatedDir, upstreamUrl: upstream.url }),
        );
        for (const requirements of requirementSets) {
          const outDir = join(scratch, `${target}-${requirements}`);
          const result = await runSuite({ tools, endpoint: server.endpoint, requirements, outDir });
          writeFileSync(`${outDir}.txt`, result.output);
          const totals = totalRun(result.scenarios);
          runs.push({ target, requirements, scenarios: result.scenarios, totals, ms: result.ms });
          console.log(
            `  ${TARGETS[target].label}, ${requirements}: checks ${totals.passed} passed, ${totals.failed} failed, ` +
              `${totals.warnings} warnings; scenarios ${totals.scenariosPassed}/${totals.scenarios} pass ` +
              `(${formatSeconds(result.ms)})`,
          );
        }
      } catch (error) {
        problems.push(
          `RUN  ${TARGETS[target].label}: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        await server?.stop();
      }
    }
    suiteUpstreamCalls = upstream.received.length;
    const sent = upstream.received.slice(0, 5).join(", ");
    console.log(
      `  requests the suite's runs made the bridges send to the API: ${suiteUpstreamCalls} (${sent || "none"})`,
    );
    if (!options["no-inspector"]) {
      inspectorCases = await checkInspector({ tools, root: ROOT, spec: SPEC, upstream, scratch });
      for (const c of inspectorCases) {
        console.log(
          `  ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail.split("\n")[0]} (${formatSeconds(c.ms)})`,
        );
        if (!c.ok) problems.push(`INSPECTOR  ${c.name}: ${c.detail}`);
      }
    }
  } finally {
    await upstream.close();
    if (options.keep) console.log(`scratch folder kept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }

  let comparison = { problems: [], expectedFailures: 0, passed: 0 };
  if (options.update) {
    const written = rewriteExpectations({ path: EXPECTED, runs });
    console.log(
      `${relative(ROOT, EXPECTED)} rewritten: ${written.entries} entries` +
        (written.dropped.length > 0
          ? `; reasons no longer used, dropped: ${written.dropped.join(", ")}`
          : "") +
        (written.unexplained > 0
          ? `; ${written.unexplained} entries need a reason (the next run says which)`
          : ""),
    );
  } else {
    comparison = compareRuns({ expectations, runs });
    problems.push(...comparison.problems);
  }

  mkdirSync(CACHE, { recursive: true });
  const report = {
    commit: readCommit(),
    date: new Date().toISOString(),
    bridgeNode: process.version,
    tools: tools.versions,
    runs: runs.map(({ target, requirements, scenarios, totals, ms }) => ({
      target,
      requirements,
      totals,
      ms,
      scenarios: Object.fromEntries(
        [...scenarios].map(([name, s]) => [
          name,
          { passed: s.passed, failed: s.failed, warnings: s.warnings },
        ]),
      ),
    })),
    suiteUpstreamCalls,
    inspector: inspectorCases,
  };
  writeFileSync(join(CACHE, "results.json"), `${JSON.stringify(report, null, 2)}\n`);

  for (const problem of problems) console.log(`✗ ${problem}`);
  const inspectorOk = inspectorCases.filter((c) => c.ok).length;
  const inspector = options["no-inspector"]
    ? "Inspector skipped"
    : `Inspector ${inspectorOk}/${inspectorCases.length} cases ok`;
  const took = formatSeconds(Date.now() - started);
  if (problems.length > 0) {
    console.log(
      `conformance: FAILED, ${problems.length} problem(s) above (${runs.length} suite runs, ${inspector}, ${took}). ` +
        "A new failure is a bug to fix or, if a bridge cannot pass it, an entry with its reason in " +
        `${relative(ROOT, EXPECTED)}; a listed check that passes now comes out of the list ` +
        "(npm run conformance -- --update rewrites it, keeping the reasons).",
    );
    return 1;
  }
  if (options.update) {
    console.log(`conformance: list rewritten from ${runs.length} suite runs; ${inspector}; ${took}`);
    return 0;
  }
  console.log(
    `conformance: ok: ${runs.length} suite runs, ${comparison.passed} checks pass, ` +
      `${comparison.expectedFailures} expected not-applicable failures, nothing unexpected; ${inspector}; ${took}`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.log(`conformance: FAILED: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  },
);
