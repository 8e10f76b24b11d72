/**
 * Flags and environment variables → typed settings, by the option table. Flags win over the
 * environment; an empty variable counts as unset (a `.env` line left blank). A bad value stops
 * the start with one coded diagnostic that names the flag or variable it came from, what was
 * expected, and where the options are described: `serve` and the generated server refuse the
 * same values with the same words.
 */
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { failWith } from "../../model/diagnostics.js";
import { getOptionSpec, OPTION_KEYS, type OptionKey, type Settings } from "./option-table.js";
import { OptionValueError } from "./value-parsers.js";

/** The code of a bad option value (a number that is none, an unknown choice, a port out of range). */
export const OPTION_INVALID: DiagnosticCode = "OMB_OPTION_INVALID";

/** The code of a flag a server does not take (or one given without its value). */
export const OPTION_UNKNOWN: DiagnosticCode = "OMB_OPTION_UNKNOWN";

/** Every occurrence of each flag, by flag name without dashes: `{ port: ["3000"] }`. */
export type RawFlags = Readonly<Record<string, readonly string[] | undefined>>;

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface ReadSettingsOptions {
  /** Where the options are described, for hints: "`openapi-mcp-bridge serve --help`". */
  help: string;
  /** The options to read (default: all of them). */
  keys?: readonly OptionKey[];
}

/** The settings the flags and the environment give, checked and typed. */
export function readSettings(flags: RawFlags, env: Environment, options: ReadSettingsOptions): Settings {
  const settings: Record<string, unknown> = {};
  for (const key of options.keys ?? OPTION_KEYS) {
    const value = readOption(key, flags, env, options.help);
    if (value !== undefined) settings[key] = value;
  }
  return settings as Settings;
}

function readOption(key: OptionKey, flags: RawFlags, env: Environment, help: string): unknown {
  const spec = getOptionSpec(key);
  const flag = `--${spec.flag}`;
  const given = flags[spec.flag];
  const variable = spec.env !== undefined && !spec.env.includes("<") ? spec.env : undefined;
  const text = variable !== undefined ? env[variable] : undefined;
  /** `what` names the source in the message and in the hint, with what it takes. */
  const parse = <T>(source: { what: string; name: string; takes: string }, run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof OptionValueError)) throw error;
      const note = error.note !== undefined ? ` (${error.note})` : "";
      return failWith(spec.code ?? OPTION_INVALID, `${source.what}: ${error.message}`, {
        hint: `${source.name} takes ${source.takes}${note}; ${help} lists every option`,
      });
    }
  };
  const fromEnv =
    variable !== undefined && text !== undefined && text !== ""
      ? parse(
          { what: `${variable} (${flag})`, name: variable, takes: spec.envFormat ?? spec.parser.expected },
          () => spec.parser.fromEnv(text),
        )
      : undefined;
  const fromFlags =
    given !== undefined && given.length > 0
      ? parse({ what: flag, name: flag, takes: spec.parser.expected }, () => spec.parser.fromFlags(given))
      : undefined;
  if (fromFlags === undefined) return fromEnv;
  if (fromEnv === undefined || spec.parser.combine === undefined) return fromFlags;
  return spec.parser.combine(fromEnv, fromFlags);
}

/**
 * Parsed flags (node:util parseArgs values, commander option values) as every occurrence of
 * each: a string is one occurrence, a switch that is on is `["true"]`.
 */
export function toRawFlags(values: Readonly<Record<string, unknown>>): RawFlags {
  const raw: Record<string, string[]> = {};
  for (const [flag, value] of Object.entries(values)) {
    if (typeof value === "string") raw[flag] = [value];
    else if (value === true) raw[flag] = ["true"];
    else if (Array.isArray(value)) raw[flag] = value.filter((v): v is string => typeof v === "string");
  }
  return raw;
}
