/** `tools SPEC`: what the bridge would serve, before serving it. */
import { Command } from "commander";
import { isAnnounced } from "../model/diagnostic-codes.js";
import { formatDiagnostic } from "../model/diagnostics.js";
import { readSettings } from "../runtime/config/read-settings.js";
import { addSpecOptions, readModelOrSpec, type SpecFlags } from "./options.js";
import { addSelectionOptions, applySelection, readSelection } from "./selection.js";
import { addTableOptions, readTableFlags } from "./table-options.js";

const MODE_KEYS = ["mode"] as const;

export function createToolsCommand(): Command {
  const command = new Command("tools")
    .description(
      "list the tools a spec gives, their size and the mode --mode auto would serve (--json: exactly what tools/list returns)",
    )
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a saved model file")
    .option("--json", "print the tools/list result as JSON")
    .option("--verbose", "also print every spec diagnostic");
  // The same mode and selection as `serve`, so the list shows exactly what those flags would serve.
  addTableOptions(command, MODE_KEYS, { env: false });
  addSelectionOptions(command, ["allow", "refuse", "confirm"]);
  addSpecOptions(command);
  type ToolsFlags = SpecFlags & { json?: boolean; verbose?: boolean };
  return command.action(async (spec: string, flags: ToolsFlags) => {
    const { mode } = readSettings(
      readTableFlags(flags, MODE_KEYS),
      {},
      {
        help: "`openapi-mcp-bridge tools --help`",
        keys: MODE_KEYS,
      },
    );
    const selection = readSelection(flags, ["allow", "refuse", "confirm"], "tools");
    const fullModel = await readModelOrSpec(spec, flags);
    // What the lenient loader repaired or left out, and tools that cannot be called, always.
    for (const d of fullModel.diagnostics)
      if (flags.verbose || isAnnounced(d)) process.stderr.write(`${formatDiagnostic(d)}\n`);
    const model = await applySelection(fullModel, selection, "tools");
    const [
      { assembleBridgeRuntime },
      { createLiveRuntime },
      { chooseAutoMode },
      { formatAutoReport, formatServedTools },
    ] = await Promise.all([
      import("../runtime/engine/bridge-runtime.js"),
      import("../serve/reload/live-runtime.js"),
      import("../runtime/discovery/mode.js"),
      import("../runtime/discovery/mode-line.js"),
    ]);
    // As serve lists them: each tool with its contract version and digest in `_meta`.
    const runtime = createLiveRuntime(
      assembleBridgeRuntime(model, { env: {}, ...(mode !== undefined ? { mode } : {}) }),
    );
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = runtime.listTools(cursor);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    await runtime.close();
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ tools }, null, 2)}\n`);
      return;
    }
    const width = Math.min(64, Math.max(...tools.map((t) => t.name.length), 4));
    const lines = [`${model.info.title} ${model.info.version}: ${formatServedTools(runtime.mode)}`];
    for (const tool of tools) {
      const properties = Object.keys((tool.inputSchema.properties as object | undefined) ?? {}).length;
      const required = (tool.inputSchema.required as string[] | undefined)?.length ?? 0;
      const summary = (tool.description ?? "").split("\n")[0]!.slice(0, 80);
      lines.push(
        `${tool.name.padEnd(width)}  ${String(properties).padStart(2)} ${(properties === 1 ? "arg" : "args").padEnd(4)} (${required} required)  ${summary}`,
      );
    }
    lines.push(formatAutoReport(chooseAutoMode(model.tools, model.clientToolLimit)));
    process.stdout.write(`${lines.join("\n")}\n`);
  });
}
