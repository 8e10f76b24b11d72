/**
 * `serve SPEC`: the live bridge over stdio or Streamable HTTP. Its runtime options come from
 * the runtime's option table (flags and OPENAPI_MCP_* variables, as a generated server takes
 * them) and it starts through the same startServer; only the spec options are its own.
 */
import { Command } from "commander";
import { failWith, formatDiagnostic } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import { OPTION_KEYS, OPTION_TABLE } from "../runtime/settings/option-table.js";
import { readSettings } from "../runtime/settings/read-settings.js";
import { addSpecOptions, readModelOrSpec, type SpecFlags } from "./options.js";
import { addTableOptions, readTableFlags } from "./table-options.js";

interface ServeFlags extends SpecFlags {
  verbose?: boolean;
}

const HELP = "`openapi-mcp-bridge serve --help`";

export function createServeCommand(): Command {
  const command = new Command("serve")
    .description("serve an OpenAPI spec (or a saved model) as MCP tools, calling the real API")
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a model file saved by `model`");
  addTableOptions(command, OPTION_KEYS);
  command.option("--verbose", "print every spec diagnostic to stderr");
  addSpecOptions(command);
  return command.action(async (spec: string, flags: ServeFlags) => {
    // Checked before the spec is read: a bad option fails at once, not after the planning.
    const settings = readSettings(readTableFlags(flags, OPTION_KEYS), process.env, { help: HELP });
    if (spec === "-" && (settings.transport ?? OPTION_TABLE.transport.default) === "stdio") {
      failWith(
        "OMB_STDIN_CONFLICT",
        "serve -: over stdio, standard input carries the MCP messages, so it cannot carry the spec too",
        {
          hint: "save the spec to a file and serve that, or serve it with --transport http",
        },
      );
    }
    // Code mode's signatures show what each call gives: its result outline is planned too.
    const model = await readModelOrSpec(spec, {
      ...flags,
      ...((settings.mode ?? OPTION_TABLE.mode.default) === "code" ? { resultSchemas: true } : {}),
    });
    reportDiagnostics(model, flags.verbose === true);
    const { startServer } = await import("../runtime/settings/start-server.js");
    await startServer(model, settings, { name: "openapi-mcp-bridge", env: process.env, help: HELP });
  });
}

function reportDiagnostics(model: BridgeModel, verbose: boolean): void {
  const warnings = model.diagnostics.filter((d) => d.severity !== "info");
  if (verbose) {
    for (const d of model.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  } else if (warnings.length > 0) {
    process.stderr.write(
      `openapi-mcp-bridge: ${warnings.length} spec warning(s); run \`openapi-mcp-bridge tools SPEC --verbose\` to see them\n`,
    );
  }
}
