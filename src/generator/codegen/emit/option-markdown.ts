/**
 * The option table as markdown: the README's `serve` options table (between the markers
 * below, rewritten by `npm run options-table`, checked by a test) and the cells a generated
 * project's README lists its options with.
 */

import {
  formatDefault,
  formatEnv,
  formatFlag,
  formatRepeatable,
} from "../../../runtime/settings/help-text.js";
import { getOptionSpec, OPTION_KEYS, type OptionKey } from "../../../runtime/settings/option-table.js";

export const OPTIONS_BEGIN = "<!-- options:begin -->";
export const OPTIONS_END = "<!-- options:end -->";

/** Text for a table cell: `|` escaped, and outside code spans the characters markdown would take as markup. */
export function toMarkdownCell(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*_<[\]]/g, "\\$&")))
    .join("")
    .replace(/\|/g, "\\|");
}

function code(text: string): string {
  return toMarkdownCell(`\`${text}\``);
}

export interface OptionCells {
  option: string;
  variable: string;
  default: string;
  meaning: string;
}

/** One option's cells, as markdown; `details: false` leaves out what refers to this package's README. */
export function toOptionCells(key: OptionKey, options: { details?: boolean } = {}): OptionCells {
  const spec = getOptionSpec(key);
  const env = formatEnv(spec);
  const variable =
    spec.env === undefined
      ? ""
      : spec.envFormat !== undefined
        ? `${code(spec.env)} (${spec.envFormat})`
        : code(env!);
  const fallback = formatDefault(spec);
  const meaning = [
    `${spec.transports === "http" ? "HTTP: " : ""}${spec.help}`,
    formatRepeatable(spec),
    spec.details !== undefined && options.details !== false ? `; ${spec.details}` : "",
  ].join("");
  return {
    option: code(formatFlag(spec)),
    variable,
    default:
      fallback === undefined
        ? ""
        : spec.defaultText !== undefined || typeof spec.default === "number"
          ? toMarkdownCell(fallback)
          : code(fallback),
    meaning: toMarkdownCell(meaning),
  };
}

/** A markdown table with its columns padded to one width, as a formatter would leave it. */
export function renderMarkdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) =>
    Math.max(3, cell.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/**
 * A generated project's README rows (`| variable | flag | meaning |`, the default in the
 * meaning) for every option but `skip`.
 */
export function toProjectOptionRows(skip: readonly OptionKey[]): string[] {
  return OPTION_KEYS.filter((key) => !skip.includes(key)).map((key) => {
    const cells = toOptionCells(key, { details: false });
    const meaning = cells.default === "" ? cells.meaning : `${cells.meaning}; default ${cells.default}`;
    return `| ${cells.variable} | ${cells.option} | ${meaning} |`;
  });
}

/** The README's table of every option `serve` and a generated server take. */
export function renderOptionTable(): string {
  const rows = OPTION_KEYS.map((key) => {
    const cells = toOptionCells(key);
    return [cells.option, cells.variable, cells.default, cells.meaning];
  });
  return renderMarkdownTable(["option", "environment variable", "default", "meaning"], rows);
}

/** `text` with what is between the option markers replaced by `table`; throws without the markers. */
export function replaceOptionTable(text: string, table: string): string {
  const begin = text.indexOf(OPTIONS_BEGIN);
  const end = text.indexOf(OPTIONS_END);
  if (begin < 0 || end < begin)
    throw new Error(`the markers ${OPTIONS_BEGIN} and ${OPTIONS_END} are missing`);
  return `${text.slice(0, begin + OPTIONS_BEGIN.length)}\n${table}\n${text.slice(end)}`;
}

/** What is between the option markers (without the line breaks next to them), or undefined. */
export function readOptionTable(text: string): string | undefined {
  const begin = text.indexOf(OPTIONS_BEGIN);
  const end = text.indexOf(OPTIONS_END);
  if (begin < 0 || end < begin) return undefined;
  return text
    .slice(begin + OPTIONS_BEGIN.length, end)
    .replace(/^\n/, "")
    .replace(/\n$/, "");
}
