/**
 * The README's table of diagnostic codes, rendered from the catalog so the two cannot disagree:
 * scripts/codes-table.mjs writes it between the marker comments, and a unit test fails when the
 * README holds another table than this renders.
 */
import { DIAGNOSTIC_CODES, type DiagnosticCodeEntry } from "./diagnostic-codes.js";

export const CODES_BEGIN = "<!-- codes:begin -->";
export const CODES_END = "<!-- codes:end -->";

/** A Markdown table cell: pipes escaped, on one line. */
function toCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/**
 * `| code | severity | what it means | fix |`, one row per code in catalog order, each column
 * padded to its widest cell: the layout biome's Markdown formatter gives, so that formatting
 * the README leaves the table as rendered.
 */
export function renderDiagnosticCodesTable(
  catalog: Readonly<Record<string, DiagnosticCodeEntry>> = DIAGNOSTIC_CODES,
): string {
  const header = ["code", "severity", "what it means", "fix"];
  const rows = Object.entries(catalog).map(([code, entry]) => [
    `\`${code}\``,
    entry.severity,
    toCell(entry.title),
    toCell(entry.fix),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

/** What is between the markers (without the newlines next to them), or undefined without markers. */
export function readCodesSection(readme: string): string | undefined {
  const begin = readme.indexOf(CODES_BEGIN);
  const end = readme.indexOf(CODES_END);
  if (begin < 0 || end < begin) return undefined;
  return readme
    .slice(begin + CODES_BEGIN.length, end)
    .replace(/^\n/, "")
    .replace(/\n$/, "");
}

/** The README with `table` between the markers; throws when the markers are missing. */
export function replaceCodesSection(readme: string, table: string): string {
  const begin = readme.indexOf(CODES_BEGIN);
  const end = readme.indexOf(CODES_END);
  if (begin < 0 || end < begin) throw new Error(`the README has no ${CODES_BEGIN} ... ${CODES_END} section`);
  return `${readme.slice(0, begin + CODES_BEGIN.length)}\n${table}\n${readme.slice(end)}`;
}
