/** The tool-selection flags `serve`, `generate` and `tools` share, and how they apply to a model. */
import { type Command, Option } from "commander";
import type { BridgeModel } from "../model/types.js";
import type { DestructivePolicy, ToolSelection } from "../runtime/access/select.js";
import { collectList } from "./options.js";

export interface SelectionFlags {
  includeTools?: string[];
  excludeTools?: string[];
  includeTags?: string[];
  excludeTags?: string[];
  methods?: string[];
  paths?: string[];
  readOnly?: boolean;
  destructive?: DestructivePolicy;
}

/** Adds the selection flags; `policies` are the `--destructive` choices the command supports. */
export function addSelectionOptions(command: Command, policies: DestructivePolicy[]): Command {
  return command
    .option(
      "--include-tools <globs>",
      "only tools whose name matches (comma-separated, repeatable)",
      collectList,
    )
    .option("--exclude-tools <globs>", "leave out tools whose name matches", collectList)
    .option("--include-tags <tags>", "only operations with one of these tags", collectList)
    .option("--exclude-tags <tags>", "leave out operations with one of these tags", collectList)
    .option("--methods <methods>", "only these HTTP methods, e.g. get,post", collectList)
    .option("--paths <globs>", "only paths matching (`*` one segment, `**` any), e.g. /pets/**", collectList)
    .option("--read-only", "only GET, HEAD and OPTIONS operations")
    .addOption(
      new Option(
        "--destructive <policy>",
        `DELETE and other destructive operations: ${policies.join(", ")}` +
          (policies.includes("confirm") ? " (ask the user through the client)" : " (refuse leaves them out)"),
      )
        .choices(policies)
        .default("allow"),
    );
}

export function toToolSelection(flags: SelectionFlags): ToolSelection {
  const selection: ToolSelection = { destructive: flags.destructive ?? "allow" };
  if (flags.includeTools) selection.includeTools = flags.includeTools;
  if (flags.excludeTools) selection.excludeTools = flags.excludeTools;
  if (flags.includeTags) selection.includeTags = flags.includeTags;
  if (flags.excludeTags) selection.excludeTags = flags.excludeTags;
  if (flags.methods) selection.methods = flags.methods;
  if (flags.paths) selection.paths = flags.paths;
  if (flags.readOnly === true) selection.readOnly = true;
  return selection;
}

/** The model with only the selected tools; a pattern that matches nothing is noted on stderr. */
export async function applySelection(
  model: BridgeModel,
  flags: SelectionFlags,
  commandName: string,
): Promise<BridgeModel> {
  const { selectToolsChecked } = await import("../runtime/access/select.js");
  const selected = selectToolsChecked(
    model.tools,
    toToolSelection(flags),
    `see \`openapi-mcp-bridge ${commandName} --help\``,
  );
  noteUnmatched(selected.unmatched);
  return { ...model, tools: selected.tools };
}

/** A note on stderr for each selection criterion that matched no tool (likely a typo). */
export function noteUnmatched(unmatched: string[]): void {
  for (const criterion of unmatched) {
    process.stderr.write(`openapi-mcp-bridge: note: ${criterion} matches no operation of the spec\n`);
  }
}
