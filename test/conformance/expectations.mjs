/**
 * test/conformance/expected-failures.json: the suite's checks that do not pass against a bridge
 * and why (each entry names a reason from the file's `reasons`), per requirement set and target.
 * A run is compared with it check by check: a check that does not pass and is not listed, a
 * listed check that passes or is no longer reported, and a listed check whose status changed
 * are each a problem. `--update` rewrites the file from a run (keeping the reasons); CI never does.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { NOT_PASSING } from "./suite.mjs";
import { TARGETS } from "./targets.mjs";

export const REQUIREMENT_SETS = ["2025-11-25", "2026-07-28"];

/** One flattened expectation's identity. */
function keyOf({ requirements, target, scenario, check }) {
  return `${requirements}\u0000${target}\u0000${scenario}\u0000${check}`;
}

/** `[2026-07-28 · serve --stateless] caching › sep-2549-prompts-list-caching-hints` */
export function describeCheck({ requirements, target, scenario, check }) {
  return `[${requirements} · ${TARGETS[target]?.label ?? target}] ${scenario} › ${check}`;
}

/**
 * Reads the file into { reasons, expected: Map<key, flattened entry>, problems } where a
 * flattened entry is { requirements, target, scenario, check, status, reason } (one
 * requirement set and one target); problems are the file's own mistakes.
 */
export function loadExpectations(path) {
  const file = JSON.parse(readFileSync(path, "utf8"));
  const reasons = file.reasons ?? {};
  const expected = new Map();
  const problems = [];
  for (const [index, entry] of (file.expected ?? []).entries()) {
    const where = `expected[${index}] (${entry.scenario} › ${entry.check})`;
    if (typeof entry.scenario !== "string" || typeof entry.check !== "string") {
      problems.push(`${where}: needs "scenario" and "check"`);
      continue;
    }
    if (!NOT_PASSING.has(entry.status))
      problems.push(`${where}: "status" is one of ${[...NOT_PASSING].join(", ")}`);
    if (!entry.reason) {
      problems.push(`${where}: has no reason: name one of "reasons" (or add one there) saying why it fails`);
    } else if (!reasons[entry.reason]) {
      problems.push(`${where}: reason "${entry.reason}" is not a key of "reasons"`);
    }
    for (const requirements of entry.requirements ?? []) {
      if (!REQUIREMENT_SETS.includes(requirements))
        problems.push(`${where}: unknown requirement set ${requirements}`);
      for (const target of entry.targets ?? []) {
        if (!TARGETS[target]) problems.push(`${where}: unknown target ${target}`);
        const flat = { requirements, target, scenario: entry.scenario, check: entry.check };
        const key = keyOf(flat);
        if (expected.has(key)) problems.push(`${where}: listed twice for ${describeCheck(flat)}`);
        expected.set(key, { ...flat, status: entry.status, reason: entry.reason });
      }
    }
  }
  return { reasons, expected, problems };
}

/**
 * Compares runs ([{ requirements, target, scenarios }], scenarios as runSuite reads them) with
 * the expectations for those runs. Returns { problems: string[], expectedFailures, passed }.
 */
export function compareRuns({ expectations, runs }) {
  const problems = [];
  let expectedFailures = 0;
  let passed = 0;
  const seen = new Set();
  for (const run of runs) {
    for (const [scenario, { checks }] of run.scenarios) {
      for (const { id: check, status, message } of checks) {
        const flat = { requirements: run.requirements, target: run.target, scenario, check };
        const key = keyOf(flat);
        seen.add(key);
        const expected = expectations.expected.get(key);
        if (status === "SUCCESS") passed += 1;
        if (!expected) {
          if (NOT_PASSING.has(status)) {
            problems.push(`NEW ${status}  ${describeCheck(flat)}: ${message} (not an expected failure)`);
          }
          continue;
        }
        if (status === expected.status) {
          expectedFailures += 1;
        } else if (NOT_PASSING.has(status)) {
          problems.push(
            `CHANGED  ${describeCheck(flat)}: expected ${expected.status}, got ${status}: ${message}`,
          );
        } else {
          problems.push(
            `NOW ${status}  ${describeCheck(flat)}: listed as an expected ${expected.status} ` +
              `(reason: ${expected.reason}): remove it from the list`,
          );
        }
      }
    }
  }
  const ran = new Set(runs.map((run) => `${run.requirements}\u0000${run.target}`));
  for (const [key, expected] of expectations.expected) {
    if (seen.has(key) || !ran.has(`${expected.requirements}\u0000${expected.target}`)) continue;
    problems.push(
      `NOT REPORTED  ${describeCheck(expected)}: listed as an expected ${expected.status} ` +
        `(reason: ${expected.reason}) but the suite no longer reports this check: remove it from the list`,
    );
  }
  return { problems, expectedFailures, passed };
}

/** JSON as biome formats it here: two spaces, and short arrays of strings on one line. */
function formatJson(value) {
  const text = JSON.stringify(value, null, 2);
  const inline = text.replace(
    /\[\n\s*((?:"[^"\n]*",?\n\s*)+)\]/g,
    (_, items) =>
      `[${items
        .trim()
        .split(/,\n\s*/)
        .join(", ")}]`,
  );
  return `${inline}\n`;
}

/**
 * The file rewritten from runs: the combinations that ran are replaced by what they reported
 * (a new entry takes the reason of a listed check of the same scenario, else none, which the
 * next run reports), the others kept. Entries are grouped: one per check, status and reason,
 * with the requirement sets that share a target list merged.
 */
export function rewriteExpectations({ path, runs }) {
  const file = JSON.parse(readFileSync(path, "utf8"));
  const old = loadExpectations(path);
  const ran = new Set(runs.map((run) => `${run.requirements}\u0000${run.target}`));
  const flat = [...old.expected.values()].filter((e) => !ran.has(`${e.requirements}\u0000${e.target}`));
  const reasonOfScenario = new Map([...old.expected.values()].map((e) => [e.scenario, e.reason]));
  for (const run of runs) {
    for (const [scenario, { checks }] of run.scenarios) {
      for (const { id: check, status } of checks) {
        if (!NOT_PASSING.has(status)) continue;
        const entry = { requirements: run.requirements, target: run.target, scenario, check, status };
        const listed = old.expected.get(keyOf(entry));
        flat.push({ ...entry, reason: listed?.reason ?? reasonOfScenario.get(scenario) ?? "" });
      }
    }
  }
  const groups = new Map();
  for (const e of flat) {
    const id = JSON.stringify([e.scenario, e.check, e.status, e.reason]);
    const byRequirements = groups.get(id) ?? new Map();
    byRequirements.set(e.requirements, [...(byRequirements.get(e.requirements) ?? []), e.target]);
    groups.set(id, byRequirements);
  }
  const targetOrder = Object.keys(TARGETS);
  const expected = [];
  for (const [id, byRequirements] of groups) {
    const [scenario, check, status, reason] = JSON.parse(id);
    const byTargets = new Map();
    for (const requirements of REQUIREMENT_SETS) {
      const targets = byRequirements.get(requirements);
      if (!targets) continue;
      const sorted = [...new Set(targets)].sort((a, b) => targetOrder.indexOf(a) - targetOrder.indexOf(b));
      const list = byTargets.get(sorted.join()) ?? { targets: sorted, requirements: [] };
      list.requirements.push(requirements);
      byTargets.set(sorted.join(), list);
    }
    for (const { targets, requirements } of byTargets.values()) {
      expected.push({ scenario, check, status, requirements, targets, reason });
    }
  }
  expected.sort(
    (a, b) =>
      a.scenario.localeCompare(b.scenario) ||
      a.check.localeCompare(b.check) ||
      a.requirements[0].localeCompare(b.requirements[0]),
  );
  const used = new Set(expected.map((e) => e.reason));
  const reasons = Object.fromEntries(Object.entries(old.reasons).filter(([name]) => used.has(name)));
  const dropped = Object.keys(old.reasons).filter((name) => !used.has(name));
  writeFileSync(path, formatJson({ ...file, reasons, expected }));
  return { entries: expected.length, dropped, unexplained: expected.filter((e) => !e.reason).length };
}
