/**
 * `diff OLD NEW`: the changes between the tools two specs, saved models or catalogs give, as
 * text, markdown (a pull request comment) or JSON. Exit status: 1 when a change is breaking,
 * 0 when none is, 2 when a side cannot be read.
 */
import { Command, Option } from "commander";
import type { ChangeSeverity } from "../contracts/change-rules.js";
import type { ToolChange } from "../contracts/diff-tools.js";
import { renderMarkdownTable, toMarkdownCell } from "../generator/shared/markdown.js";
import { reportError } from "./report-error.js";
import { addToolSetOptions, readToolSet, type ToolSet, type ToolSetFlags } from "./tool-set.js";

type DiffFlags = ToolSetFlags & { format: "text" | "markdown" | "json" };

/** Exit status when a side cannot be read (1 means a breaking change). */
const UNREADABLE_EXIT = 2;

export function createDiffCommand(): Command {
  const command = new Command("diff")
    .description(
      "compare the tools of two specs, saved models or catalogs; exit 1 on a breaking change, 0 when none, 2 when a side cannot be read",
    )
    .argument("<old>", "the old side: spec file, http(s) URL, saved model or catalog")
    .argument("<new>", "the new side: spec file, http(s) URL, saved model or catalog")
    .addOption(
      new Option("--format <format>", "text (grouped, readable), markdown (a pull request comment) or json")
        .choices(["text", "markdown", "json"])
        .default("text"),
    );
  addToolSetOptions(command);
  return command.action(async (oldSource: string, newSource: string, flags: DiffFlags) => {
    let sides: [ToolSet, ToolSet];
    try {
      // One after the other: two large specs planned at once would double the peak memory.
      const oldSide = await readToolSet(oldSource, flags, "diff");
      sides = [oldSide, await readToolSet(newSource, flags, "diff")];
    } catch (error) {
      process.exitCode = reportError(error) === 0 ? 0 : UNREADABLE_EXIT;
      return;
    }
    const [{ diffContracts }, { formatChangesText }] = await Promise.all([
      import("../contracts/diff-tools.js"),
      import("../contracts/format-changes.js"),
    ]);
    const [oldSide, newSide] = sides;
    // Results are compared only between outlines that name every field (see tool-set.ts).
    const results = oldSide.completeResults && newSide.completeResults;
    const changes = diffContracts(oldSide.contracts, newSide.contracts, { results });
    const labels = { old: oldSide.label, new: newSide.label };
    if (flags.format === "json") process.stdout.write(`${JSON.stringify({ changes }, null, 2)}\n`);
    else if (flags.format === "markdown") process.stdout.write(await formatChangesMarkdown(changes, labels));
    else process.stdout.write(formatChangesText(changes, labels));
    if (!results && flags.outputSchemas !== false) {
      process.stderr.write(
        "openapi-mcp-bridge: note: results not compared: a saved model's outlines name at most 12 fields per object (diff the specs, or catalogs of them, to compare results)\n",
      );
    }
    if (oldSide.kind === "catalog" || newSide.kind === "catalog") {
      process.stderr.write(
        "openapi-mcp-bridge: note: a catalog keeps no prose, so docs changes are counted per tool, not shown\n",
      );
    }
    process.exitCode = changes.some((c) => c.severity === "breaking") ? 1 : 0;
  });
}

/** Rows per severity in the markdown report: a pull request comment holds 65,536 characters. */
const MARKDOWN_ROWS = 150;

const HEADINGS: Record<ChangeSeverity, string> = {
  breaking: "Breaking changes",
  compatible: "Compatible changes",
  docs: "Docs changes",
};

/** The markdown report: breaking changes as a table, the others folded away. */
export async function formatChangesMarkdown(
  changes: ToolChange[],
  sides: { old: string; new: string },
): Promise<string> {
  const { groupChanges, summarizeChanges } = await import("../contracts/format-changes.js");
  const breaking = changes.some((c) => c.severity === "breaking");
  const lines = [
    `### MCP tool changes: ${breaking ? "**breaking**" : "no breaking change"}`,
    "",
    `${toMarkdownCell(sides.old)} → ${toMarkdownCell(sides.new)}: ${summarizeChanges(changes)}`,
  ];
  for (const { severity, tools } of groupChanges(changes)) {
    const all = tools.flat();
    const rows = all
      .slice(0, MARKDOWN_ROWS)
      .map((c) => [
        `\`${c.tool}\``,
        toMarkdownCell(`${c.method} ${c.path}`),
        toMarkdownCell(c.message),
        `\`${c.code}\``,
        c.pointer === "" ? "" : toMarkdownCell(`\`${c.pointer.replaceAll("`", "'")}\``),
      ]);
    const table = renderMarkdownTable(["Tool", "Operation", "Change", "Rule", "Pointer"], rows);
    const more =
      all.length > MARKDOWN_ROWS
        ? `\n\n${all.length - MARKDOWN_ROWS} more: see \`diff --format json\` or the job log.`
        : "";
    const title = `${HEADINGS[severity]} (${all.length})`;
    if (severity === "breaking") lines.push("", `#### ${title}`, "", table + more);
    else lines.push("", `<details><summary>${title}</summary>`, "", table + more, "", "</details>");
  }
  return `${lines.join("\n")}\n`;
}
