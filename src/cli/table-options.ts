/**
 * Commander options made from the runtime's option table (src/runtime/config/option-table.ts),
 * so `serve`, `tools` and `generate` take exactly the options, help text and values a generated
 * server takes. Commander only collects the text of each flag; the table's parsers (through
 * readSettings) turn it into values, so a bad value is the same coded diagnostic everywhere.
 */
import { type Command, Option } from "commander";
import { describeOption } from "../runtime/config/help-text.js";
import { getOptionSpec, type OptionKey } from "../runtime/config/option-table.js";
import { type RawFlags, toRawFlags } from "../runtime/config/read-settings.js";

/** Every occurrence of a repeatable flag, in order. */
function collectText(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Adds the options `keys` name. `env: false` for commands that read only flags (their help
 * then names no variables); `describe` replaces an option's description.
 */
export function addTableOptions(
  command: Command,
  keys: readonly OptionKey[],
  options: { env?: boolean; describe?: Partial<Record<OptionKey, string>> } = {},
): Command {
  for (const key of keys) {
    const spec = getOptionSpec(key);
    const flags = spec.placeholder === undefined ? `--${spec.flag}` : `--${spec.flag} <${spec.placeholder}>`;
    const option = new Option(flags, options.describe?.[key] ?? describeOption(key, options));
    if (option.attributeName() !== key)
      throw new Error(`option ${flags} would be read as ${option.attributeName()}`);
    if (spec.parser.repeatable) option.argParser(collectText);
    command.addOption(option);
  }
  return command;
}

/** The text commander collected for the options `keys` name, by flag, for readSettings. */
export function readTableFlags(values: object, keys: readonly OptionKey[]): RawFlags {
  const byFlag: Record<string, unknown> = {};
  for (const key of keys) byFlag[getOptionSpec(key).flag] = (values as Record<string, unknown>)[key];
  return toRawFlags(byFlag);
}
