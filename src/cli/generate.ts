/** `generate SPEC -o DIR`: a standalone TypeScript MCP server project for the spec. */
import { Command } from "commander";
import { addSpecOptions, readModelOrSpec, type SpecFlags } from "./options.js";
import { addSelectionOptions, applySelection, type SelectionFlags } from "./selection.js";

interface GenerateFlags extends SpecFlags, SelectionFlags {
  output: string;
  name?: string;
  force?: boolean;
}

export function createGenerateCommand(): Command {
  const command = new Command("generate")
    .description("write a standalone TypeScript MCP server project for a spec (or a saved model)")
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a model file saved by `model`")
    .requiredOption("-o, --output <dir>", "directory to write the project into (new or empty)")
    .option("--name <name>", "npm package name and MCP client key (default: from the spec's title)")
    .option("--force", "write into a non-empty directory, overwriting generated files of the same name");
  addSelectionOptions(command, ["allow", "refuse"]);
  addSpecOptions(command);
  return command.action(async (spec: string, flags: GenerateFlags) => {
    const { checkOutDir, emitProject, startModulePrinter, writeProject } = await import(
      "../generator/generate.js"
    );
    checkOutDir(flags.output, flags.force === true);
    // Printing workers start now and load the printer while the spec is loaded and planned.
    const printer = startModulePrinter();
    try {
      // The same tool selection as `serve`, applied once here: unselected tools get no module.
      const model = await applySelection(await readModelOrSpec(spec, flags), flags, "generate");
      const files = await emitProject(
        model,
        { outDir: flags.output, ...(flags.name !== undefined ? { name: flags.name } : {}) },
        printer,
      );
      const removed = writeProject(flags.output, files, flags.force === true);
      const tools = model.tools.length;
      process.stderr.write(
        `openapi-mcp-bridge: wrote ${files.length} files (${tools} tool${tools === 1 ? "" : "s"}) to ${flags.output}` +
          `${removed.length > 0 ? `, removed ${removed.length} unchanged file(s) of the previous generation` : ""}\n` +
          `next: cd ${flags.output} && npm install && npm run build && npm start\n`,
      );
    } finally {
      printer.close();
    }
  });
}
