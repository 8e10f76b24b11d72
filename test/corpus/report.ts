/** The markdown summary of a corpus run. */
import { callsBlocked, type PassVerdict, passOf, percent, type Verdict } from "./evaluate.js";
import type { CallFailure, CallPass, PassResult, SpecResult } from "./types.js";

export interface ReportInput {
  name: string;
  results: SpecResult[];
  verdict: Verdict;
  elapsedMs: number;
  jobs: number;
  /** Calls a spec at most (0: every tool); undefined when no calls were made. */
  maxCalls: number | undefined;
  commit: string;
  /** Specs the run was to cover (more than results when it was cut short). */
  planned?: number;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function renderReport(input: ReportInput): string {
  const { results, verdict } = input;
  const count = (predicate: (r: SpecResult) => boolean) => results.filter(predicate).length;
  const sum = (pick: (r: SpecResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  const byVersion = new Map<string, number>();
  for (const r of results) {
    const key = `${r.declaredVersion.startsWith("2") ? "2.0" : r.declaredVersion.slice(0, 3)} (origin ${r.origin})`;
    byVersion.set(key, (byVersion.get(key) ?? 0) + 1);
  }
  const lines: string[] = [];
  lines.push(`# Corpus run: ${input.name}`);
  lines.push("");
  lines.push(
    `Commit ${input.commit}, ${new Date().toISOString().slice(0, 10)}; ${input.jobs} specs at a time; ${
      input.maxCalls === undefined
        ? "no calls"
        : input.maxCalls > 0
          ? `at most ${input.maxCalls} calls a spec (evenly spaced tools)`
          : "every tool called"
    }; run time ${formatDuration(input.elapsedMs)}.`,
  );
  lines.push("");
  lines.push("| | |");
  lines.push("| --- | --- |");
  lines.push(
    `| specs | ${results.length}${input.planned !== undefined && input.planned > results.length ? ` of ${input.planned} planned (the run was cut short; the largest ${input.planned - results.length} were not reached)` : ""} |`,
  );
  lines.push(
    `| loaded / diagnosed / crashed / timed out | ${count((r) => r.status === "ok")} / ${count((r) => r.status === "diagnosed")} / ${count((r) => r.status === "crashed")} / ${count((r) => r.status === "timeout")} |`,
  );
  lines.push(
    `| declared version (origin) | ${[...byVersion.entries()]
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")} |`,
  );
  lines.push(`| operations in the specs | ${sum((r) => r.operations)} |`);
  lines.push(`| tools built | ${sum((r) => r.tools)} |`);
  lines.push(`| operations skipped with a stated reason | ${sum((r) => r.skipped.length)} |`);
  lines.push(`| tool problems (names, schemas, accounting) | ${sum((r) => r.problems.length)} |`);
  lines.push(`| specs whose calls could not be made | ${count(callsBlocked)} |`);
  lines.push("");
  lines.push(...renderPasses(results, verdict));
  lines.push("");
  lines.push("## Acceptance");
  lines.push("");
  lines.push("| check | result | detail |");
  lines.push("| --- | --- | --- |");
  for (const check of verdict.checks) {
    lines.push(`| ${check.name} | ${check.passed ? "pass" : "**FAIL**"} | ${cell(check.detail)} |`);
  }
  lines.push("");
  lines.push(`**${verdict.passed ? "PASSED" : "FAILED"}**`);

  // Failures grouped by pass and cause, with an example each.
  const groups = new Map<string, { spec: string; failure: CallFailure; reason?: string }[]>();
  for (const item of verdict.explained) {
    const key = `${item.pass}: ${item.failure.cause}`;
    const list = groups.get(key) ?? [];
    list.push({ spec: item.spec, failure: item.failure, reason: item.entry?.reason });
    groups.set(key, list);
  }
  lines.push("");
  lines.push("## Failed calls by cause");
  lines.push("");
  if (groups.size === 0) lines.push("None.");
  else {
    lines.push("| pass: cause | calls | specs | allowlisted as | example |");
    lines.push("| --- | --- | --- | --- | --- |");
    for (const [cause, list] of [...groups.entries()].sort((a, b) => b[1].length - a[1].length)) {
      const specs = new Set(list.map((i) => i.spec)).size;
      const reasons = [...new Set(list.map((i) => i.reason ?? "**unexplained**"))].join(", ");
      const example = list[0]!;
      lines.push(
        `| ${cell(cause)} | ${list.length} | ${specs} | ${reasons} | ${cell(`${example.spec} ${example.failure.tool}: ${clip(example.failure.message, 220)}`)} |`,
      );
    }
    lines.push("");
    lines.push("### One example of each cause");
    for (const [cause, list] of [...groups.entries()].sort((a, b) => b[1].length - a[1].length)) {
      const { spec, failure } = list[0]!;
      lines.push("");
      lines.push(`- **${cell(cause)}** — \`${spec}\` \`${failure.tool}\` (${failure.operation})`);
      lines.push(`  - Prism / bridge: ${cell(clip(failure.message, 400))}`);
      if (failure.exchange) {
        const e = failure.exchange;
        lines.push(
          `  - sent: \`${cell(clip(`${e.method} ${e.path}`, 300))}\`${e.body ? ` body \`${cell(clip(e.body, 200))}\`` : ""}`,
        );
      }
      if (failure.args) lines.push(`  - arguments: \`${cell(clip(failure.args, 300))}\``);
    }
  }

  const blocked = verdict.specEntries;
  if (blocked.length > 0) {
    lines.push("");
    lines.push("## Specs whose calls could not be made");
    lines.push("");
    lines.push("| spec | why | allowlisted as |");
    lines.push("| --- | --- | --- |");
    for (const { result, entry } of blocked) {
      const why = result.prismError ?? `time limit in phase ${result.phase}`;
      lines.push(
        `| ${result.id} | ${cell(clip(why.split("\n")[0] ?? why, 200))} | ${entry ? entry.reason : "**unexplained**"} |`,
      );
    }
  }

  const diagnosed = results.filter((r) => r.status === "diagnosed");
  if (diagnosed.length > 0) {
    lines.push("");
    lines.push("## Specs refused with a diagnostic");
    lines.push("");
    lines.push("| spec | first diagnostic |");
    lines.push("| --- | --- |");
    for (const r of diagnosed) lines.push(`| ${r.id} | ${cell(clip(r.diagnostics?.[0] ?? "", 250))} |`);
  }

  const broken = results.filter((r) => r.status === "crashed" || r.status === "timeout");
  if (broken.length > 0) {
    lines.push("");
    lines.push("## Crashes and time-outs");
    lines.push("");
    for (const r of broken) {
      lines.push(
        `- \`${r.id}\`: ${r.status}${r.phase ? ` in phase ${r.phase}` : ""} ${cell(clip(r.crash ?? "", 400))}`,
      );
    }
  }

  const problems = results.flatMap((r) => r.problems.map((p) => ({ spec: r.id, ...p })));
  if (problems.length > 0) {
    lines.push("");
    lines.push("## Tool problems");
    lines.push("");
    for (const p of problems.slice(0, 50))
      lines.push(`- \`${p.spec}\` ${p.tool ?? ""} (${p.kind}): ${cell(clip(p.message, 300))}`);
    if (problems.length > 50) lines.push(`- … and ${problems.length - 50} more`);
  }

  const mismatches = results.flatMap((r) =>
    [r, passOf(r, "minimal")].flatMap((p) => p.outputMismatches.map((m) => ({ spec: r.id, ...m }))),
  );
  if (mismatches.length > 0) {
    lines.push("");
    lines.push("## Accepted calls whose 2xx body was off the output schema");
    lines.push("");
    lines.push(
      "Prism's mock body (from the spec's examples or schema) did not match the tool's output schema;",
    );
    lines.push("the bridge reported it as an error that includes the response.");
    lines.push("");
    for (const m of mismatches.slice(0, 30))
      lines.push(`- \`${m.spec}\` ${m.tool}: ${cell(clip(m.message, 250))}`);
    if (mismatches.length > 30) lines.push(`- … and ${mismatches.length - 30} more`);
  }

  const slow = [...results].sort((a, b) => (b.timings.total ?? 0) - (a.timings.total ?? 0)).slice(0, 5);
  lines.push("");
  lines.push("## Slowest specs");
  lines.push("");
  lines.push("| spec | bytes | tools | load ms | Prism start ms | calls ms | total ms |");
  lines.push("| --- | --- | --- | --- | --- | --- | --- |");
  for (const r of slow) {
    const t = r.timings;
    lines.push(
      `| ${r.id} | ${r.bytes} | ${r.tools} | ${t.load ?? ""} | ${t.prism ?? ""} | ${t.calls ?? ""} | ${t.total ?? ""} |`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

/** The two passes side by side: what was called, what reached Prism, what it accepted. */
function renderPasses(results: SpecResult[], verdict: Verdict): string[] {
  const passes: CallPass[] = ["full", "minimal"];
  const row = (label: string, value: (pass: PassResult[], verdict: PassVerdict) => string) =>
    `| ${label} | ${passes
      .map((pass) =>
        value(
          results.map((r) => passOf(r, pass)),
          verdict.passes[pass],
        ),
      )
      .join(" | ")} |`;
  const sum = (list: PassResult[], pick: (p: PassResult) => number) =>
    String(list.reduce((n, p) => n + pick(p), 0));
  const rate = (accepted: number, of: number) => percent(of <= 0 ? 1 : accepted / of);
  return [
    "| calls | full pass (required and optional arguments) | minimal pass (required arguments only) |",
    "| --- | --- | --- |",
    row("sent but not judgeable by Prism (path key with a #fragment)", (list) =>
      sum(list, (p) => p.callsUnjudgeable ?? 0),
    ),
    row("not sent: no valid arguments exist (the schema admits no value), the bridge refused them", (list) =>
      sum(list, (p) => p.callsNotSent ?? 0),
    ),
    row("not sent although the arguments match the input schema (never allowed)", (_, v) =>
      String(v.refusedValid),
    ),
    row("made (reached Prism)", (_, v) => String(v.callsMade)),
    row(
      "accepted by Prism (raw rate: of calls made)",
      (_, v) => `${v.callsAccepted} (${rate(v.callsAccepted, v.callsMade)})`,
    ),
    row(
      "judged (made, less rejections that are documented Prism limitations)",
      (_, v) => `${v.judged}; accepted ${rate(v.callsAccepted, v.judged)}`,
    ),
    row("… accepted, answered with a documented non-2xx (no 2xx in the spec)", (list) =>
      sum(list, (p) => p.acceptedNon2xx),
    ),
    row(
      "… accepted, then Prism's 500 about its own mock answer (the spec's example off its schema, XML...)",
      (list) => sum(list, (p) => p.prismResponseErrors ?? 0),
    ),
    row("… accepted, 2xx bodies off the tool's output schema", (list) =>
      sum(list, (p) => p.outputMismatches.length),
    ),
  ];
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
