/** `generate SPEC -o DIR`: a standalone TypeScript MCP server project for the spec. */
import { Command, Option } from "commander";
import { failWith } from "../model/diagnostics.js";
import type { ToolSelection } from "../runtime/select.js";
import { addSpecOptions, collectList, readModelOrSpec, type SpecFlags } from "./options.js";

interface GenerateFlags extends SpecFlags {
  output: string;
  name?: string;
  force?: boolean;
  includeTools?: string[];
  excludeTools?: string[];
  includeTags?: string[];
  excludeTags?: string[];
  methods?: string[];
  paths?: string[];
  readOnly?: boolean;
  destructive: "allow" | "refuse";
}

export function createGenerateCommand(): Command {
  const command = new Command("generate")
    .description("write a standalone TypeScript MCP server project for a spec (or a saved model)")
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a model file saved by `model`")
    .requiredOption("-o, --output <dir>", "directory to write the project into (new or empty)")
    .option("--name <name>", "npm package name and MCP client key (default: from the spec's title)")
    .option("--force", "write into a non-empty directory, overwriting generated files of the same name")
    // The same tool selection as `serve`, applied once here: unselected tools get no module.
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
        "DELETE and other destructive operations: allow, or refuse (leave out)",
      )
        .choices(["allow", "refuse"])
        .default("allow"),
    );
  addSpecOptions(command);
  return command.action(async (spec: string, flags: GenerateFlags) => {
    const { checkOutDir, emitProject, writeProject } = await import("../generator/generate.js");
    checkOutDir(flags.output, flags.force === true);
    const fullModel = await readModelOrSpec(spec, flags);
    const { selectTools } = await import("../runtime/select.js");
    let selected: ReturnType<typeof selectTools>;
    try {
      selected = selectTools(fullModel.tools, toolSelectionOf(flags));
    } catch (error) {
      failWith("OMB_OPTION", (error as Error).message, { hint: "see `openapi-mcp-bridge generate --help`" });
    }
    for (const unmatched of selected.unmatched) {
      process.stderr.write(`openapi-mcp-bridge: note: ${unmatched} matches no operation of the spec\n`);
    }
    const model = { ...fullModel, tools: selected.tools };
    const files = await emitProject(model, {
      outDir: flags.output,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
    });
    const removed = writeProject(flags.output, files, flags.force === true);
    const tools = model.tools.length;
    process.stderr.write(
      `openapi-mcp-bridge: wrote ${files.length} files (${tools} tool${tools === 1 ? "" : "s"}) to ${flags.output}` +
        `${removed.length > 0 ? `, removed ${removed.length} unchanged file(s) of the previous generation` : ""}\n` +
        `next: cd ${flags.output} && npm install && npm run build && npm start\n`,
    );
  });
}

function toolSelectionOf(flags: GenerateFlags): ToolSelection {
  const selection: ToolSelection = { destructive: flags.destructive };
  if (flags.includeTools) selection.includeTools = flags.includeTools;
  if (flags.excludeTools) selection.excludeTools = flags.excludeTools;
  if (flags.includeTags) selection.includeTags = flags.includeTags;
  if (flags.excludeTags) selection.excludeTags = flags.excludeTags;
  if (flags.methods) selection.methods = flags.methods;
  if (flags.paths) selection.paths = flags.paths;
  if (flags.readOnly === true) selection.readOnly = true;
  return selection;
}
