/**
 * docs/diagnostics.md's table of diagnostic codes, rendered from the catalog so the two cannot disagree:
 * scripts/codes-table.mjs writes it between the marker comments, and a unit test fails when the
 * README holds another table than this renders.
 */
import { DIAGNOSTIC_CODES, type DiagnosticCodeEntry } from "../../model/diagnostic-codes.js";
import {
  readMarkedSection,
  renderMarkdownTable,
  replaceMarkedSection,
  type SectionMarkers,
  toMarkdownCell,
} from "./markdown.js";

export const CODE_MARKERS: SectionMarkers = { begin: "<!-- codes:begin -->", end: "<!-- codes:end -->" };

/**
 * `| code | severity | what it means | fix |`, one row per code in catalog order, padded as
 * biome's Markdown formatter leaves a table.
 */
export function renderDiagnosticCodesTable(
  catalog: Readonly<Record<string, DiagnosticCodeEntry>> = DIAGNOSTIC_CODES,
): string {
  const rows = Object.entries(catalog).map(([code, entry]) => [
    `\`${code}\``,
    entry.severity,
    toMarkdownCell(entry.title),
    toMarkdownCell(entry.fix),
  ]);
  return renderMarkdownTable(["code", "severity", "what it means", "fix"], rows);
}

/** What is between the markers (without the newlines next to them), or undefined without markers. */
export function readCodesSection(readme: string): string | undefined {
  return readMarkedSection(readme, CODE_MARKERS);
}

/** The README with `table` between the markers; throws when the markers are missing. */
export function replaceCodesSection(readme: string, table: string): string {
  return replaceMarkedSection(readme, CODE_MARKERS, table);
}
