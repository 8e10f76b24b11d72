/**
 * Markdown for the tables this package renders into READMEs (its own option and diagnostic
 * code tables, a generated project's): cells, tables padded the way biome formats them (so
 * formatting a README leaves a rendered table as it is), and sections between marker comments.
 */

/** Text for a table cell: on one line, `|` escaped, and outside code spans the characters markdown would take as markup. */
export function toMarkdownCell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*_<[\]]/g, "\\$&")))
    .join("")
    .replace(/\|/g, "\\|");
}

/** A markdown table with its columns padded to one width, as a formatter would leave it. */
export function renderMarkdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) =>
    Math.max(3, cell.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Two marker comments around a rendered section: `<!-- name:begin -->` ... `<!-- name:end -->`. */
export interface SectionMarkers {
  begin: string;
  end: string;
}

/** What is between the markers (without the line breaks next to them), or undefined without them. */
export function readMarkedSection(text: string, markers: SectionMarkers): string | undefined {
  const begin = text.indexOf(markers.begin);
  const end = text.indexOf(markers.end);
  if (begin < 0 || end < begin) return undefined;
  return text
    .slice(begin + markers.begin.length, end)
    .replace(/^\n/, "")
    .replace(/\n$/, "");
}

/** `text` with `body` between the markers; throws when they are missing. */
export function replaceMarkedSection(text: string, markers: SectionMarkers, body: string): string {
  const begin = text.indexOf(markers.begin);
  const end = text.indexOf(markers.end);
  if (begin < 0 || end < begin)
    throw new Error(`the markers ${markers.begin} and ${markers.end} are missing`);
  return `${text.slice(0, begin + markers.begin.length)}\n${body}\n${text.slice(end)}`;
}
