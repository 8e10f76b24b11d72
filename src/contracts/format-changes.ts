/**
 * Changes as text for people: a one-line summary (a log line after a reload, the first line of
 * `diff`) and the readable report `diff --format text` prints, grouped by severity, then tool.
 */
import type { ChangeSeverity } from "./change-rules.js";
import { SEVERITY_ORDER } from "./change-rules.js";
import { countChanges, type ToolChange } from "./diff-tools.js";

/** `3 breaking, 2 compatible, 1 docs changes in 4 tools`, or `no changes`. */
export function summarizeChanges(changes: ToolChange[]): string {
  if (changes.length === 0) return "no changes";
  const { bySeverity } = countChanges(changes);
  const tools = new Set(changes.map((c) => c.tool)).size;
  const counts = SEVERITY_ORDER.map((severity) => `${bySeverity[severity]} ${severity}`).join(", ");
  return `${counts} change${changes.length === 1 ? "" : "s"} in ${tools} tool${tools === 1 ? "" : "s"}`;
}

/** Changes grouped by severity and by tool (changes are in diffContracts' order). */
export function groupChanges(changes: ToolChange[]): { severity: ChangeSeverity; tools: ToolChange[][] }[] {
  const groups: { severity: ChangeSeverity; tools: ToolChange[][] }[] = [];
  for (const severity of SEVERITY_ORDER) {
    const byTool = new Map<string, ToolChange[]>();
    for (const c of changes) {
      if (c.severity !== severity) continue;
      const list = byTool.get(c.tool) ?? [];
      list.push(c);
      byTool.set(c.tool, list);
    }
    if (byTool.size > 0) groups.push({ severity, tools: [...byTool.values()] });
  }
  return groups;
}

/** The report of `diff --format text`: a summary line, then each group. */
export function formatChangesText(changes: ToolChange[], sides: { old: string; new: string }): string {
  const lines = [`${sides.old} → ${sides.new}: ${summarizeChanges(changes)}`];
  for (const { severity, tools } of groupChanges(changes)) {
    const count = tools.reduce((n, list) => n + list.length, 0);
    lines.push("", `${severity} (${count})`);
    for (const list of tools) {
      const first = list[0]!;
      lines.push(`  ${first.tool}  ${first.method} ${first.path}`);
      for (const c of list)
        lines.push(`    ${c.code}: ${c.message}${c.pointer !== "" ? `  (${c.pointer})` : ""}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
