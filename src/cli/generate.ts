/** `generate SPEC -o DIR`: a standalone TypeScript MCP server project for the spec. */
import { Command } from "commander";
import { createProgress } from "../generator/shared/progress.js";
import { addSpecOptions, readModelOrSpec, type SpecFlags } from "./options.js";
import { parseOutputPath } from "./output-path.js";
import { addSelectionOptions, noteUnmatched, readSelection } from "./selection.js";

interface GenerateFlags extends SpecFlags {
  output: string;
  name?: string;
  force?: boolean;
  overwriteChanged?: boolean;
}

export function createGenerateCommand(): Command {
  const command = new Command("generate")
    .description("write a standalone TypeScript MCP server project for a spec (or a saved model)")
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a model file saved by `model`")
    .requiredOption(
      "-o, --output <dir>",
      "directory to write the project into (new or empty)",
      parseOutputPath,
    )
    .option("--name <name>", "npm package name and MCP client key (default: from the spec's title)")
    .option(
      "--force",
      "write into a non-empty directory: replaces the files an earlier generation wrote, unless you changed them; completes a generation that was interrupted",
    )
    .option("--overwrite-changed", "with --force: replace the files you changed too, instead of refusing");
  addSelectionOptions(command, ["allow", "refuse"]);
  addSpecOptions(command);
  return command.action(async (spec: string, flags: GenerateFlags) => {
    const selection = readSelection(flags, ["allow", "refuse"], "generate");
    const { generateProject } = await import("../generator/codegen/generate.js");
    const progress = createProgress("generate");
    const result = await generateProject(spec, {
      outDir: flags.output,
      force: flags.force === true,
      overwriteChanged: flags.overwriteChanged === true,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      // The same tool selection as `serve`: unselected tools get no module.
      selection,
      loadModel: (source) => readModelOrSpec(source, flags, progress.step),
      onStep: progress.step,
    });
    progress.done();
    noteUnmatched(result.unmatched, result.near);
    const tools = result.model.tools.length;
    const removed = result.removed.length;
    const unchanged = result.unchanged.length;
    const written = result.files.length - unchanged;
    const summary =
      written === 0
        ? `${flags.output} is up to date: its ${unchanged} files (${tools} tool${tools === 1 ? "" : "s"}) already are what this generation writes`
        : `wrote ${written} files (${tools} tool${tools === 1 ? "" : "s"}) to ${flags.output}${unchanged > 0 ? `, ${unchanged} unchanged` : ""}`;
    if (result.interrupted) {
      process.stderr.write(
        `openapi-mcp-bridge: the last generation into ${flags.output} had been interrupted; this one completed it\n`,
      );
    }
    process.stderr.write(
      `openapi-mcp-bridge: ${summary}` +
        `${removed > 0 ? `, removed ${removed} unchanged file(s) of the previous generation` : ""}\n`,
    );
    if (result.kept.length > 0) {
      process.stderr.write(
        `openapi-mcp-bridge: kept ${result.kept.length} file(s) of the previous generation that you changed and this one no longer writes: ${result.kept.join(", ")}\n`,
      );
    }
    process.stderr.write(`next: cd ${flags.output} && npm install && npm run build && npm start\n`);
  });
}
