/**
 * The option table as help text: one description per option (what `serve --help` shows through
 * commander) and the whole `--help` of a generated server. Help strings mark code with
 * backticks for the README; on a terminal the backticks are left out.
 */
import { getOptionSpec, OPTION_KEYS, type OptionKey, type OptionSpec } from "./option-table.js";

/** Help text as a terminal shows it: backtick code marks removed. */
export function toPlainText(text: string): string {
  return text.replace(/`([^`]*)`/g, "$1");
}

/** `--port N`, `--stateless`. */
export function formatFlag(spec: OptionSpec<unknown>): string {
  return spec.placeholder === undefined ? `--${spec.flag}` : `--${spec.flag} ${spec.placeholder}`;
}

/** ` (repeatable)` after what a repeatable option does; lists say they are comma-separated too. */
export function formatRepeatable(spec: OptionSpec<unknown>): string {
  if (spec.parser.kind === "list") return " (comma-separated, repeatable)";
  return spec.parser.repeatable ? " (repeatable)" : "";
}

/** The default as help shows it, or undefined when there is none. */
export function formatDefault(spec: OptionSpec<unknown>): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  return spec.default === undefined ? undefined : String(spec.default);
}

/** `OPENAPI_MCP_STATELESS=1`, `OPENAPI_MCP_HEADERS` (a JSON object ...): the variable as help shows it. */
export function formatEnv(spec: OptionSpec<unknown>): string | undefined {
  if (spec.env === undefined) return undefined;
  if (spec.parser.isSwitch) return `${spec.env}=1`;
  return spec.envFormat !== undefined ? `${spec.env}, ${spec.envFormat}` : spec.env;
}

/**
 * What an option does, its default and its variable, in one line of plain text: `HTTP: the
 * port to listen on (0 picks a free one); default 3000 [OPENAPI_MCP_PORT]`. `env: false`
 * leaves the variable out (for commands that read only flags).
 */
export function describeOption(key: OptionKey, options: { env?: boolean } = {}): string {
  const spec = getOptionSpec(key);
  const parts = [`${spec.transports === "http" ? "HTTP: " : ""}${toPlainText(spec.help)}`];
  parts[0] += formatRepeatable(spec);
  const fallback = formatDefault(spec);
  if (fallback !== undefined) parts.push(`default ${fallback}`);
  const env = options.env === false ? undefined : formatEnv(spec);
  return `${parts.join("; ")}${env !== undefined ? ` [${env}]` : ""}`;
}

/** Words of `text` in lines of at most `width` characters (a longer word gets its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

const FLAG_COLUMN = 28;
const LINE_WIDTH = 100;

/** A generated server's `--help`: usage, `intro`, then every option of the table. */
export function renderHelp(usage: string, intro: string): string {
  const out = [`Usage: ${usage} [options]`, "", ...wrap(intro, LINE_WIDTH), "", "Options:"];
  const rows: [string, string][] = OPTION_KEYS.map((key) => [
    formatFlag(getOptionSpec(key)),
    describeOption(key),
  ]);
  rows.push(
    ["--version", "show the API's version and this server's (its package)"],
    ["--help", "show this help"],
  );
  for (const [flag, description] of rows) {
    const lines = wrap(description, LINE_WIDTH - FLAG_COLUMN);
    const head = `  ${flag}`;
    if (head.length < FLAG_COLUMN) out.push(`${head.padEnd(FLAG_COLUMN)}${lines.shift() ?? ""}`);
    else out.push(head);
    for (const line of lines) out.push(`${" ".repeat(FLAG_COLUMN)}${line}`);
  }
  return `${out.join("\n")}\n`;
}
