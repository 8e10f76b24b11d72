/** `lint SPEC`: what makes the spec hard for a model, with fixes, and tools/list's size in tokens. */
import { Command, InvalidArgumentError } from "commander";

interface LintFlags {
  json?: boolean;
  budget?: number;
  schemaTokens?: number;
  strict?: boolean;
  allowNetworkRefs?: boolean;
  validate?: boolean;
  outputSchemas?: boolean;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("a positive whole number");
  return n;
}

export function createLintCommand(): Command {
  return new Command("lint")
    .description(
      "report what makes a spec hard for a model to use (with JSON pointers and fixes) and tools/list's size in tokens",
    )
    .argument("<spec>", "spec file, http(s) URL or - for stdin")
    .option("--json", "print the report as JSON")
    .option(
      "--budget <chars>",
      "characters of operation prose a tool description keeps (default 200)",
      positiveInteger,
    )
    .option(
      "--schema-tokens <n>",
      "report input schemas larger than this many tokens (default 2000)",
      positiveInteger,
    )
    .option("--strict", "exit 1 when there are errors")
    .option("--allow-network-refs", "resolve $ref to http(s) URLs (refused by default)")
    .option("--no-validate", "skip structural validation of the spec")
    .option("--no-output-schemas", "count tools without output schemas")
    .action(async (spec: string, flags: LintFlags) => {
      const [{ loadSpec }, { planModel }, { lintSpec, formatLintReport }, tokens, { toListedTool }] =
        await Promise.all([
          import("../generator/load.js"),
          import("../generator/plan.js"),
          import("../generator/lint.js"),
          import("../generator/lint-tokens.js"),
          import("../runtime/server.js"),
        ]);
      const loaded = await loadSpec(spec, {
        allowNetworkRefs: flags.allowNetworkRefs === true,
        validate: flags.validate !== false,
      });
      const model = planModel(loaded, {
        ...(flags.budget !== undefined ? { descriptionBudget: flags.budget } : {}),
        outputSchemas: flags.outputSchemas !== false,
      });
      const listed = model.tools.map((tool) => toListedTool(tool));
      const report = lintSpec(loaded, model, listed, {
        countTokens: await tokens.loadTokenCounter(),
        tokenizer: tokens.TOKENIZER_NAME,
        ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
        ...(flags.schemaTokens !== undefined ? { schemaTokens: flags.schemaTokens } : {}),
      });
      process.stdout.write(
        flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatLintReport(report, loaded.source),
      );
      if (flags.strict && report.counts.error > 0) process.exitCode = 1;
    });
}
