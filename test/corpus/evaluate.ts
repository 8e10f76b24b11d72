/**
 * The acceptance thresholds (issues 5 and 13) and the allowlist of explained failures.
 *
 * - every spec loads, or fails with coded diagnostics (never a crash, never a time-out);
 * - every tool has a valid, unique name and input/output schemas that compile;
 * - at least 99% of the judged calls of each pass (full and minimal) are accepted by Prism;
 * - no call whose arguments match the tool's input schema is refused by the bridge;
 * - every call Prism did not accept, and every spec whose calls could not be made, is listed in
 *   test/corpus/allowlist.json with the reason: a spec bug, a Prism limitation (with the
 *   evidence), or ours to fix later.
 */
import { readFileSync } from "node:fs";
import { type CallFailure, type CallPass, emptyPass, type PassResult, type SpecResult } from "./types.js";

export type AllowReason = "spec-bug" | "prism-limitation" | "ours-to-fix-later";

export interface AllowEntry {
  /** Spec id, as in sample.txt. */
  spec: string;
  /** Tool name; absent or `*` for every tool of the spec. */
  tool?: string;
  /** Start of the failure's cause (e.g. `422 UNPROCESSABLE_ENTITY: query`); absent for any. */
  cause?: string;
  /** The pass the entry is about; absent for both. */
  pass?: CallPass;
  reason: AllowReason;
  explanation: string;
}

export interface Allowlist {
  /** Calls Prism did not accept. */
  calls: AllowEntry[];
  /** Specs whose calls could not be made (Prism did not start, a time-out after loading). */
  specs: AllowEntry[];
}

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

/** One pass's numbers over every spec. */
export interface PassVerdict {
  pass: CallPass;
  /** Failures with their allowlist entry, or none when unexplained. */
  explained: { spec: string; failure: CallFailure; entry: AllowEntry | undefined }[];
  callsMade: number;
  callsAccepted: number;
  /** Calls made less those rejected by a documented Prism limitation. */
  judged: number;
  /** Rejections that are documented Prism limitations (out of `judged`). */
  prismLimited: number;
  /** Calls the bridge refused although their arguments matched the tool's input schema. */
  refusedValid: number;
}

export interface Verdict {
  passed: boolean;
  checks: Check[];
  /** Both passes' failures with their allowlist entry, or none when unexplained. */
  explained: { spec: string; pass: CallPass; failure: CallFailure; entry: AllowEntry | undefined }[];
  specEntries: { result: SpecResult; entry: AllowEntry | undefined }[];
  passes: Record<CallPass, PassVerdict>;
  /** The full pass's numbers, as before the minimal pass existed. */
  callsMade: number;
  callsAccepted: number;
  judged: number;
}

export const ACCEPTANCE_RATE = 0.99;

/**
 * The bridge refusing arguments its own input schema accepts breaks the tool contract (README,
 * "The tool contract"): never a spec bug nor a Prism limitation, so never allowlisted.
 */
export const REFUSED_VALID_CAUSE = "not sent: bridge refused valid arguments";

export function loadAllowlist(file: string): Allowlist {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Allowlist>;
  return { calls: parsed.calls ?? [], specs: parsed.specs ?? [] };
}

export function matchCall(
  allowlist: Allowlist,
  spec: string,
  failure: CallFailure,
  pass: CallPass = "full",
): AllowEntry | undefined {
  if (failure.cause.startsWith(REFUSED_VALID_CAUSE)) return undefined;
  return allowlist.calls.find(
    (entry) =>
      entry.spec === spec &&
      (entry.pass === undefined || entry.pass === pass) &&
      (entry.tool === undefined || entry.tool === "*" || entry.tool === failure.tool) &&
      (entry.cause === undefined || failure.cause.startsWith(entry.cause)),
  );
}

/** Specs that loaded but whose calls could not all be made. */
export function callsBlocked(result: SpecResult): boolean {
  return (
    result.prismError !== undefined ||
    (result.status === "timeout" && result.phase !== "load" && result.phase !== "start")
  );
}

/** A spec's results of one pass (results written before the minimal pass have none: empty). */
export function passOf(result: SpecResult, pass: CallPass): PassResult {
  return pass === "full" ? result : (result.minimal ?? emptyPass());
}

function evaluatePass(results: SpecResult[], allowlist: Allowlist, pass: CallPass): PassVerdict {
  const passes = results.map((r) => ({ id: r.id, out: passOf(r, pass) }));
  const callsMade = passes.reduce((n, p) => n + p.out.callsMade, 0);
  const callsAccepted = passes.reduce((n, p) => n + p.out.callsAccepted, 0);
  const explained = passes.flatMap((p) =>
    p.out.failures.map((failure) => ({
      spec: p.id,
      failure,
      entry: matchCall(allowlist, p.id, failure, pass),
    })),
  );
  // A rejection that is a documented Prism limitation is no verdict on the bridge: such calls
  // leave the denominator (the report shows the raw rate too). Spec bugs and our own count.
  const prismLimited = explained.filter(
    (e) => e.entry?.reason === "prism-limitation" && !e.failure.cause.startsWith("harness"),
  ).length;
  const refusedValid = explained.filter((e) => e.failure.cause.startsWith(REFUSED_VALID_CAUSE)).length;
  return {
    pass,
    explained,
    callsMade,
    callsAccepted,
    judged: callsMade - prismLimited,
    prismLimited,
    refusedValid,
  };
}

function rateCheck(verdict: PassVerdict, what: string): Check {
  const { callsAccepted, judged, callsMade, prismLimited } = verdict;
  const rate = judged <= 0 ? 1 : callsAccepted / judged;
  return {
    name: `at least ${ACCEPTANCE_RATE * 100}% of judged ${what} accepted by Prism`,
    passed: rate >= ACCEPTANCE_RATE,
    detail: `${callsAccepted} of ${judged} (${percent(rate)}); ${callsMade} reached Prism, ${prismLimited} of them hit a documented Prism limitation (raw rate ${percent(callsMade === 0 ? 1 : callsAccepted / callsMade)})`,
  };
}

export function evaluate(
  results: SpecResult[],
  allowlist: Allowlist,
  _options: { sample: boolean },
): Verdict {
  const broken = results.filter(
    (r) => r.status === "crashed" || (r.status === "timeout" && (r.phase === "load" || r.phase === "start")),
  );
  const problems = results.flatMap((r) => r.problems.map((p) => ({ spec: r.id, ...p })));
  const full = evaluatePass(results, allowlist, "full");
  const minimal = evaluatePass(results, allowlist, "minimal");
  const explained = [full, minimal].flatMap((v) => v.explained.map((e) => ({ ...e, pass: v.pass })));
  const specEntries = results
    .filter(callsBlocked)
    .map((result) => ({ result, entry: allowlist.specs.find((e) => e.spec === result.id) }));
  const unexplained = explained.filter((e) => !e.entry).length;
  const unexplainedSpecs = specEntries.filter((e) => !e.entry).length;
  const refusedValid = full.refusedValid + minimal.refusedValid;
  const checks: Check[] = [
    {
      name: "every spec loads or gives a clear diagnostic",
      passed: broken.length === 0,
      detail:
        broken.length === 0
          ? `${results.length} of ${results.length}`
          : `${broken.length} crashed or timed out: ${broken.map((r) => r.id).join(", ")}`,
    },
    {
      name: "every tool has a valid unique name and compiling schemas; no operation lost",
      passed: problems.length === 0,
      detail:
        problems.length === 0
          ? `${results.reduce((n, r) => n + r.tools, 0)} tools`
          : `${problems.length} problems, e.g. ${problems[0]!.spec} ${problems[0]!.tool ?? ""}: ${problems[0]!.message}`,
    },
    rateCheck(full, "full calls (required and optional arguments)"),
    rateCheck(minimal, "minimal calls (required arguments only)"),
    {
      name: "no call refused by the bridge for a reason its input schema does not state",
      passed: refusedValid === 0,
      detail:
        refusedValid === 0
          ? "0 in either pass"
          : `${full.refusedValid} full, ${minimal.refusedValid} minimal calls refused with arguments the schema accepts`,
    },
    {
      name: "every remaining failure is listed and explained in allowlist.json",
      passed: unexplained === 0 && unexplainedSpecs === 0,
      detail: `${explained.length - unexplained} of ${explained.length} failed calls explained; ${specEntries.length - unexplainedSpecs} of ${specEntries.length} specs whose calls could not be made`,
    },
  ];
  return {
    passed: checks.every((c) => c.passed),
    checks,
    explained,
    specEntries,
    passes: { full, minimal },
    callsMade: full.callsMade,
    callsAccepted: full.callsAccepted,
    judged: full.judged,
  };
}

export function percent(rate: number): string {
  return `${(Math.floor(rate * 10000) / 100).toFixed(2)}%`;
}
