/**
 * lint's report for a reader: the findings kept by a filter (severity and above, some codes),
 * then as text for a terminal, each finding (code, place, message, hint) or a summary by code
 * (a count and a few places each), then the sizes.
 */
import { DIAGNOSTIC_CODES, type LintCode } from "../../model/diagnostic-codes.js";
import { formatCount } from "../../model/format-count.js";
import type { DiagnosticSeverity } from "../../model/types.js";
import type { LintFinding, LintReport } from "./lint-spec.js";

/** What `--severity` and `--code` keep; both absent: every finding. */
export interface LintFilter {
  /** This severity and the more severe ones (info: all, warning: warnings and errors, error: errors). */
  severity?: DiagnosticSeverity;
  /** Only these codes. */
  codes?: readonly LintCode[];
}

/** A report whose findings a filter chose: the counts stay those of every finding. */
export interface FilteredLintReport extends LintReport {
  /** Present when a filter was given: what it was and how many findings it kept. */
  filter?: { severity?: DiagnosticSeverity; codes?: LintCode[]; shown: number };
}

export const LINT_SEVERITIES: readonly DiagnosticSeverity[] = ["error", "warning", "info"];

/** More findings than this are summarised by code unless the caller asks for each (`--no-group`). */
export const GROUP_OVER = 50;

/** Places shown for each code in the summary. */
export const EXAMPLES_PER_CODE = 3;

const RANK: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2 };

/** The report with only the findings the filter keeps (the same report when there is none). */
export function filterLintReport(report: LintReport, filter: LintFilter = {}): FilteredLintReport {
  const { severity, codes } = filter;
  if (severity === undefined && (codes === undefined || codes.length === 0)) return report;
  const wanted = codes === undefined || codes.length === 0 ? undefined : new Set<string>(codes);
  const findings = report.findings.filter(
    (f) =>
      (severity === undefined || RANK[f.severity] <= RANK[severity]) &&
      (wanted === undefined || wanted.has(f.code)),
  );
  return {
    ...report,
    findings,
    filter: {
      ...(severity !== undefined ? { severity } : {}),
      ...(wanted !== undefined ? { codes: [...wanted] as LintCode[] } : {}),
      shown: findings.length,
    },
  };
}

export interface FormatOptions {
  /**
   * true: a summary by code; false: every finding; undefined: every finding up to GROUP_OVER of
   * them, a summary past that.
   */
  group?: boolean;
}

export function formatLintReport(report: FilteredLintReport, options: FormatOptions = {}): string {
  const group = options.group ?? report.findings.length > GROUP_OVER;
  const lines = group ? summaryLines(report.findings) : findingLines(report.findings);
  if (lines.length > 0) lines.push("");
  lines.push(
    `${report.tools} tools; tools/list is ${formatCount(report.totalTokens)} tokens (${report.tokenizer}), median ${report.medianTokens} a tool`,
  );
  if (report.largest.length > 0) {
    lines.push("largest tools (tokens: total = description + input schema + output schema + rest):");
    for (const t of report.largest) {
      const rest = t.tokens - t.descriptionTokens - t.inputSchemaTokens - t.outputSchemaTokens;
      lines.push(
        `  ${t.name.padEnd(40)} ${String(t.tokens).padStart(6)} = ${t.descriptionTokens} + ${t.inputSchemaTokens} + ${t.outputSchemaTokens} + ${rest}`,
      );
    }
  }
  if (report.mode !== undefined) lines.push(report.mode.summary);
  lines.push(`${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} notes`);
  if (report.filter !== undefined) lines.push(filterLine(report));
  if (group && report.findings.length > 0) {
    lines.push("a summary by code: --no-group lists every finding, --code CODE the findings of one code");
  }
  return `${lines.join("\n")}\n`;
}

function findingLines(findings: readonly LintFinding[]): string[] {
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${f.severity} ${f.code} ${place(f)}`);
    lines.push(`  ${f.message}`);
    lines.push(`  hint: ${f.hint}`);
  }
  return lines;
}

/**
 * One block per code, the most severe first, then the most frequent: its count and what it
 * means, its fix, and the first places (each with its own hint where it says more).
 */
function summaryLines(findings: readonly LintFinding[]): string[] {
  const byCode = new Map<LintCode, LintFinding[]>();
  for (const f of findings) {
    const list = byCode.get(f.code);
    if (list === undefined) byCode.set(f.code, [f]);
    else list.push(f);
  }
  const groups = [...byCode].sort(
    ([codeA, a], [codeB, b]) =>
      RANK[a[0]!.severity] - RANK[b[0]!.severity] || b.length - a.length || codeA.localeCompare(codeB),
  );
  const lines: string[] = [];
  for (const [code, list] of groups) {
    const entry = DIAGNOSTIC_CODES[code];
    const n = list.length;
    lines.push(`${list[0]!.severity} ${code}: ${n} finding${n === 1 ? "" : "s"}: ${entry.title}`);
    lines.push(`  fix: ${entry.fix}`);
    for (const f of examplesOf(list)) {
      lines.push(`  ${place(f)}`);
      lines.push(`    ${f.message}`);
      if (f.hint !== entry.fix) lines.push(`    hint: ${f.hint}`);
    }
    if (n > EXAMPLES_PER_CODE)
      lines.push(`  ... and ${n - EXAMPLES_PER_CODE} more (--code ${code} lists them)`);
  }
  return lines;
}

/** The first findings at distinct places (one place may be a finding of many tools). */
function examplesOf(list: readonly LintFinding[]): LintFinding[] {
  const examples: LintFinding[] = [];
  const places = new Set<string>();
  for (const f of list) {
    if (examples.length >= EXAMPLES_PER_CODE) break;
    if (places.has(f.pointer)) continue;
    places.add(f.pointer);
    examples.push(f);
  }
  for (const f of list) {
    if (examples.length >= EXAMPLES_PER_CODE) break;
    if (!examples.includes(f)) examples.push(f);
  }
  return examples;
}

function place(f: LintFinding): string {
  return `${f.file}#${f.pointer}${f.tool !== undefined ? ` (${f.tool})` : ""}`;
}

function filterLine(report: FilteredLintReport): string {
  const filter = report.filter!;
  const total = report.counts.error + report.counts.warning + report.counts.info;
  const what: string[] = [];
  if (filter.severity !== undefined && filter.severity !== "info") {
    what.push(filter.severity === "error" ? "errors only" : "warnings and errors");
  }
  if (filter.codes !== undefined) what.push(filter.codes.join(", "));
  return `showing ${filter.shown} of ${total} findings${what.length > 0 ? ` (${what.join("; ")})` : ""}`;
}
