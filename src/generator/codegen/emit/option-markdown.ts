/**
 * The option table as markdown: docs/serve.md's `serve` options table (between the markers
 * below, rewritten by `npm run options-table`, checked by a test) and the cells a generated
 * project's README lists its options with.
 */

import { formatDefault, formatEnv, formatFlag, formatRepeatable } from "../../../runtime/config/help-text.js";
import { getOptionSpec, OPTION_KEYS, type OptionKey } from "../../../runtime/config/option-table.js";
import {
  readMarkedSection,
  renderMarkdownTable,
  replaceMarkedSection,
  type SectionMarkers,
  toMarkdownCell,
} from "../../shared/markdown.js";

export const OPTION_MARKERS: SectionMarkers = {
  begin: "<!-- options:begin -->",
  end: "<!-- options:end -->",
};

function code(text: string): string {
  return toMarkdownCell(`\`${text}\``);
}

export interface OptionCells {
  option: string;
  variable: string;
  default: string;
  meaning: string;
}

/** One option's cells, as markdown; `details: false` leaves out what refers to this package's docs. */
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

/** docs/serve.md's table of every option `serve` and a generated server take. */
export function renderOptionTable(): string {
  const rows = OPTION_KEYS.map((key) => {
    const cells = toOptionCells(key);
    return [cells.option, cells.variable, cells.default, cells.meaning];
  });
  return renderMarkdownTable(["option", "environment variable", "default", "meaning"], rows);
}

/** `text` with `table` between the option markers; throws without the markers. */
export function replaceOptionTable(text: string, table: string): string {
  return replaceMarkedSection(text, OPTION_MARKERS, table);
}

/** What is between the option markers (without the line breaks next to them), or undefined. */
export function readOptionTable(text: string): string | undefined {
  return readMarkedSection(text, OPTION_MARKERS);
}
