/**
 * `lint SPEC`: what makes the spec hard for a model, as diagnostics (OMB_LINT_* codes, with hints),
 * and tools/list's size in tokens.
 */
import { Command } from "commander";
import { PLAN_OPTIONS, toBuildOptions } from "../generator/compile/plan-option-table.js";
import { createProgress } from "../generator/shared/progress.js";
import { isAnnounced } from "../model/diagnostic-codes.js";
import { formatDiagnostic } from "../model/diagnostics.js";
import { addPlanOptions, parsePositiveInteger, type SpecFlags } from "./options.js";

interface LintFlags extends SpecFlags {
  json?: boolean;
  schemaTokens?: number;
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
    .action(async (spec: string, flags: LintFlags) => {
      const progress = createProgress("lint");
      progress.step("start");
      const [
        { loadSpec },
        { planModel },
        { lintSpec },
        { formatLintReport },
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
      const auto = chooseAutoMode(model.tools);
      progress.step("lint");
      const report = lintSpec(loaded, model, listed, {
        mode: { auto: auto.mode, estimatedTokens: auto.tokens ?? 0, summary: formatAutoReport(auto) },
        countTokens: await tokens.loadTokenCounter(),
        tokenizer: tokens.TOKENIZER_NAME,
        ...(flags.descriptionBudget !== undefined ? { budget: flags.descriptionBudget } : {}),
        ...(flags.schemaTokens !== undefined ? { schemaTokens: flags.schemaTokens } : {}),
      });
      progress.done();
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatLintReport(report));
      if (flags.strict && report.counts.error > 0) process.exitCode = 1;
    });
}
