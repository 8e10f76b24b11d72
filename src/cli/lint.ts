/**
 * `lint SPEC`: what makes the spec hard for a model, as diagnostics (OMB_LINT_* codes, with hints),
 * and tools/list's size in tokens.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { PLAN_OPTIONS, toBuildOptions } from "../generator/compile/plan-option-table.js";
import { EXAMPLES_PER_CODE, GROUP_OVER, LINT_SEVERITIES } from "../generator/lint/format-lint-report.js";
import { createProgress } from "../generator/shared/progress.js";
import {
  isAnnounced,
  LINT_CODES,
  type LintCode,
  spellLintCode,
  toLintCode,
} from "../model/diagnostic-codes.js";
import { formatDiagnostic } from "../model/diagnostics.js";
import { suggestNames } from "../model/similarity.js";
import type { DiagnosticSeverity } from "../model/types.js";
import { addPlanOptions, parsePositiveInteger, type SpecFlags } from "./options.js";

interface LintFlags extends SpecFlags {
  json?: boolean;
  schemaTokens?: number;
  severity?: DiagnosticSeverity;
  code?: LintCode[];
  group?: boolean;
}

/** `--code`: one or more lint codes (comma-separated, the prefix optional), repeatable. */
function collectCodes(value: string, previous: LintCode[] = []): LintCode[] {
  const codes = [...previous];
  for (const part of value.split(",")) {
    if (part.trim() === "") continue;
    const code = toLintCode(part);
    if (code === undefined) {
      const near = suggestNames(spellLintCode(part), LINT_CODES, 2);
      throw new InvalidArgumentError(
        `"${part.trim()}" is no lint code${near.length > 0 ? ` (did you mean ${near.join(" or ")}?)` : ""}; the codes are in docs/diagnostics.md`,
      );
    }
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

export function createLintCommand(): Command {
  return addPlanOptions(
    new Command("lint")
      .description(
        "report what makes a spec hard for a model to use (diagnostics with JSON pointers and hints) and tools/list's size in tokens",
      )
      .argument("<spec>", "spec file, http(s) URL or - for stdin")
      .option("--json", "print the report as JSON"),
    "count tools with the output schemas `serve --output-schemas` advertises",
    {
      strict: `${PLAN_OPTIONS.strict.help}; and exit 1 when there are errors`,
    },
  )
    .option(
      "--schema-tokens <n>",
      "report input schemas larger than this many tokens (default 2000)",
      parsePositiveInteger,
    )
    .addOption(
      new Option(
        "--severity <level>",
        "show findings of this severity and above: error, warning (and errors) or info (all, the default); the counts and --strict's exit code still count every finding",
      ).choices(LINT_SEVERITIES),
    )
    .option(
      "--code <codes>",
      "show only the findings of these codes (comma-separated or repeated; the OMB_LINT prefix may be left out, any case)",
      collectCodes,
    )
    .option(
      "--group",
      `summarise the findings by code: a count, the fix and the first ${EXAMPLES_PER_CODE} places of each (the default past ${GROUP_OVER} findings)`,
    )
    .option("--no-group", `list every finding, however many (the default up to ${GROUP_OVER})`)
    .action(async (spec: string, flags: LintFlags) => {
      const progress = createProgress("lint");
      progress.step("start");
      const [
        { loadSpec },
        { planModel },
        { lintSpec },
        { filterLintReport, formatLintReport },
        tokens,
        { toListedTool },
        { chooseAutoMode },
        { formatAutoReport },
      ] = await Promise.all([
        import("../generator/spec/load-spec.js"),
        import("../generator/compile/plan-model.js"),
        import("../generator/lint/lint-spec.js"),
        import("../generator/lint/format-lint-report.js"),
        import("../generator/lint/token-count.js"),
        import("../runtime/server/tool-list.js"),
        import("../runtime/discovery/mode.js"),
        import("../runtime/discovery/mode-line.js"),
      ]);
      // lint takes the load and plan options only: no overrides, cache or profile.
      const { overrides: _none, ...options } = toBuildOptions(flags);
      progress.step("load and validate");
      const loaded = await loadSpec(spec, options);
      progress.step("plan");
      const model = planModel(loaded, options);
      // What the lenient loader repaired or left out, and tools that cannot be called.
      for (const d of model.diagnostics) if (isAnnounced(d)) process.stderr.write(`${formatDiagnostic(d)}\n`);
      const listed = model.tools.map((tool) => toListedTool(tool));
      const auto = chooseAutoMode(model.tools, model.clientToolLimit);
      progress.step("lint");
      const report = lintSpec(loaded, model, listed, {
        mode: { auto: auto.mode, estimatedTokens: auto.tokens ?? 0, summary: formatAutoReport(auto) },
        countTokens: await tokens.loadTokenCounter(),
        tokenizer: tokens.TOKENIZER_NAME,
        ...(flags.descriptionBudget !== undefined ? { budget: flags.descriptionBudget } : {}),
        ...(flags.schemaTokens !== undefined ? { schemaTokens: flags.schemaTokens } : {}),
      });
      progress.done();
      // --json is never grouped: every finding the filter keeps, with the counts of all of them.
      const shown = filterLintReport(report, {
        ...(flags.severity !== undefined ? { severity: flags.severity } : {}),
        ...(flags.code !== undefined ? { codes: flags.code } : {}),
      });
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(shown, null, 2)}\n`
          : formatLintReport(shown, flags.group !== undefined ? { group: flags.group } : {}),
      );
      if (flags.strict && report.counts.error > 0) process.exitCode = 1;
    });
}
