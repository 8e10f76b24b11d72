/** lint's report as text for a terminal: each finding (code, place, message, hint), then the sizes. */
import type { LintReport } from "./lint-spec.js";

export function formatLintReport(report: LintReport): string {
  const lines: string[] = [];
  for (const f of report.findings) {
    lines.push(`${f.severity} ${f.code} ${f.file}#${f.pointer}${f.tool !== undefined ? ` (${f.tool})` : ""}`);
    lines.push(`  ${f.message}`);
    lines.push(`  hint: ${f.hint}`);
  }
  if (lines.length > 0) lines.push("");
  lines.push(
    `${report.tools} tools; tools/list is ${report.totalTokens.toLocaleString("en-US")} tokens (${report.tokenizer}), median ${report.medianTokens} a tool`,
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
  return `${lines.join("\n")}\n`;
}
