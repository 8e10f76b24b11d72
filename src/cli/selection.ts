/**
 * The tool-selection flags `tools` and `generate` share with `serve` (the option table's
 * selection group), and how they apply to a model. These two commands read the flags only:
 * the OPENAPI_MCP_* variables configure a running server, not a listing or a generation.
 */
import type { Command } from "commander";
import { failWith } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import { type DestructivePolicy, describeUnmatched, type ToolSelection } from "../runtime/access/select.js";
import { OPTION_KEYS, OPTION_TABLE } from "../runtime/config/option-table.js";
import { OPTION_INVALID, readSettings } from "../runtime/config/read-settings.js";
import { toToolSelection } from "../runtime/config/to-options.js";
import { addTableOptions, readTableFlags } from "./table-options.js";

const SELECTION_KEYS = OPTION_KEYS.filter((key) => OPTION_TABLE[key].group === "selection");

/** Adds the selection flags; `policies` are the `--destructive` choices the command supports. */
export function addSelectionOptions(command: Command, policies: DestructivePolicy[]): Command {
  return addTableOptions(command, SELECTION_KEYS, {
    env: false,
    describe: {
      destructive:
        `DELETE and other destructive operations: ${policies.join(", ")}` +
        (policies.includes("confirm") ? " (ask the user through the client)" : " (refuse leaves them out)") +
        "; default allow",
    },
  });
}

/** The selection the flags of `commandName` ask for; a bad value is a coded diagnostic. */
export function readSelection(
  flags: object,
  policies: DestructivePolicy[],
  commandName: string,
): ToolSelection {
  const help = `\`openapi-mcp-bridge ${commandName} --help\``;
  const settings = readSettings(readTableFlags(flags, SELECTION_KEYS), {}, { help, keys: SELECTION_KEYS });
  const selection = toToolSelection(settings);
  if (selection.destructive !== undefined && !policies.includes(selection.destructive)) {
    failWith(
      OPTION_INVALID,
      `--destructive: expected one of ${policies.join(", ")}, got "${selection.destructive}"`,
      {
        hint: `${help} lists every option`,
      },
    );
  }
  return selection;
}

/** The model with only the selected tools; a pattern that matches nothing is noted on stderr. */
export async function applySelection(
  model: BridgeModel,
  selection: ToolSelection,
  commandName: string,
): Promise<BridgeModel> {
  const { selectToolsChecked } = await import("../runtime/access/select.js");
  const selected = selectToolsChecked(
    model.tools,
    selection,
    `see \`openapi-mcp-bridge ${commandName} --help\``,
  );
  noteUnmatched(selected.unmatched, selected.near);
  return { ...model, tools: selected.tools };
}

/** A note on stderr for each selection criterion that matched no tool (likely a typo). */
export function noteUnmatched(unmatched: string[], near: Record<string, string[]>): void {
  for (const criterion of unmatched) {
    process.stderr.write(`openapi-mcp-bridge: note: ${describeUnmatched(criterion, near)}\n`);
  }
}
