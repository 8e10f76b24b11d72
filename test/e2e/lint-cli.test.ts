/** `openapi-mcp-bridge lint` as a command: the text and JSON reports and `--strict`, through the built CLI. */
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../src/model/diagnostic-codes.js";
import { fixture, runCli } from "../helpers/bridge.js";

describe("lint command", () => {
  it("prints findings, the tools/list size and the largest tools; --strict exits 1 on errors", async () => {
    const spec = fixture("petstore", "petstore.openapi30.yaml");
    const text = await runCli(["lint", spec], { timeoutMs: 60_000 });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /warning OMB_LINT_DUPLICATE_SUMMARY .*petstore\.openapi30\.yaml#\/paths\/~1user~1createWithList\/post\/summary/,
    );
    expect(text.stdout).toMatch(/\n {2}hint: say in the summary what makes this operation different/);
    expect(text.stdout).toMatch(/20 tools; tools\/list is [\d,]+ tokens \(o200k_base/);
    expect(text.stdout).toContain("largest tools");

    const json = await runCli(["lint", spec, "--json", "--description-budget", "100"], { timeoutMs: 60_000 });
    const report = JSON.parse(json.stdout) as {
      tools: number;
      totalTokens: number;
      largest: unknown[];
      findings: Record<string, unknown>[];
    };
    expect(report.tools).toBe(20);
    expect(report.totalTokens).toBeGreaterThan(1000);
    expect(report.largest).toHaveLength(10);
    // Findings are diagnostics, in the shape (and key order) every other diagnostic has.
    expect(report.findings.length).toBeGreaterThan(0);
    for (const finding of report.findings) {
      expect(Object.keys(finding)).toEqual(
        ["code", "severity", "message", "file", "pointer", "hint", "tool"].filter((key) => key in finding),
      );
      expect(finding.file).toBe(spec);
    }
    expect(report.findings).toContainEqual({
      code: "OMB_LINT_DUPLICATE_SUMMARY",
      severity: "warning",
      message:
        'summary "creates list of users with given input array" is shared with POST /user/createWithArray; a model cannot tell the tools apart by it',
      file: spec,
      pointer: "/paths/~1user~1createWithList/post/summary",
      hint: DIAGNOSTIC_CODES.OMB_LINT_DUPLICATE_SUMMARY.fix,
      tool: "createUsersWithListInput",
    });

    const noWords = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/x": { get: { responses: { "200": { description: "ok" } } } } },
    });
    const strict = await runCli(["lint", "-", "--strict"], { stdin: noWords, timeoutMs: 60_000 });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("error OMB_LINT_MISSING_DESCRIPTION <stdin>#/paths/~1x/get (get_x)");
    const lax = await runCli(["lint", "-"], { stdin: noWords, timeoutMs: 60_000 });
    expect(lax.code).toBe(0);
  }, 120_000);

  /** 30 operations without words (errors), ids (warnings) or parameter descriptions (notes). */
  const LARGE = JSON.stringify({
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `/things${i}/{id}`,
        {
          get: {
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      ]),
    ),
  });

  it("a long report is summarised by code; --severity, --code, --no-group and --json choose what is shown", async () => {
    const lint = (...flags: string[]) => runCli(["lint", "-", ...flags], { stdin: LARGE, timeoutMs: 60_000 });
    const summary = await lint();
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stdout).toMatch(/^error OMB_LINT_MISSING_DESCRIPTION: 30 findings: /m);
    expect(summary.stdout).toMatch(/^warning OMB_LINT_MISSING_OPERATION_ID: 30 findings: /m);
    expect(summary.stdout).toMatch(/^info OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION: 30 findings: /m);
    expect(summary.stdout).toContain("  ... and 27 more (--code OMB_LINT_MISSING_DESCRIPTION lists them)");
    expect(summary.stdout).toContain("30 errors, 30 warnings, 30 notes\na summary by code:");
    expect(summary.stdout.split("\n").length).toBeLessThan(70);

    const all = await lint("--no-group");
    expect(all.stdout.match(/^(error|warning|info) OMB_LINT_\w+ <stdin>#/gm)).toHaveLength(90);

    const errors = await lint("--severity", "error", "--no-group");
    expect(errors.stdout.match(/^error OMB_LINT_MISSING_DESCRIPTION <stdin>#/gm)).toHaveLength(30);
    expect(errors.stdout).not.toMatch(/^(warning|info) OMB_LINT/m);
    expect(errors.stdout).toContain("\nshowing 30 of 90 findings (errors only)\n");
    const warnings = await lint("--severity", "warning", "--group");
    expect(warnings.stdout).toMatch(/^warning OMB_LINT_MISSING_OPERATION_ID: 30 findings/m);
    expect(warnings.stdout).not.toMatch(/^info OMB_LINT/m);

    const oneCode = await lint("--code", "missing-operation-id", "--no-group");
    expect(oneCode.stdout.match(/^warning OMB_LINT_MISSING_OPERATION_ID <stdin>#/gm)).toHaveLength(30);
    expect(oneCode.stdout).toContain("showing 30 of 90 findings (OMB_LINT_MISSING_OPERATION_ID)");

    // --json: every finding unless filtered (never grouped); filtered, it says what it kept.
    const json = JSON.parse((await lint("--json")).stdout) as { findings: unknown[]; filter?: unknown };
    expect(json.findings).toHaveLength(90);
    expect(json.filter).toBeUndefined();
    const filtered = JSON.parse((await lint("--json", "--severity", "warning")).stdout) as {
      findings: { severity: string }[];
      counts: Record<string, number>;
      filter: unknown;
    };
    expect(filtered.findings).toHaveLength(60);
    expect(filtered.counts).toEqual({ error: 30, warning: 30, info: 30 });
    expect(filtered.filter).toEqual({ severity: "warning", shown: 60 });

    // --strict still counts the errors a filter hides.
    expect((await lint("--strict", "--severity", "warning")).code).toBe(1);

    const badLevel = await lint("--severity", "errors");
    expect(badLevel.code).toBe(2);
    expect(badLevel.stderr).toContain("Allowed choices are error, warning, info");
    const badCode = await lint("--code", "MISSING_DESCRIPTON");
    expect(badCode.code).toBe(2);
    expect(badCode.stderr).toContain("did you mean OMB_LINT_MISSING_DESCRIPTION?");
  }, 120_000);

  it("never fails on tokenizer special tokens in the spec's text", async () => {
    const special = "<|endoftext|> <|endofprompt|> <|fim_prefix|> <|im_start|>";
    const spec = JSON.stringify({
      openapi: "3.0.3",
      info: { title: `T ${special}`, version: "1", description: special },
      paths: {
        "/x": {
          get: {
            operationId: "getX",
            summary: `Get x ${special}`,
            description: `Stop at <|endoftext|> and go on ${special}`,
            parameters: [
              {
                name: "q",
                in: "query",
                description: special,
                schema: { type: "string", enum: ["<|endoftext|>", "plain"], default: "<|endoftext|>" },
              },
            ],
            responses: { "200": { description: special } },
          },
        },
      },
    });
    for (const flags of [[], ["--json"]]) {
      const run = await runCli(["lint", "-", ...flags], { stdin: spec, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain("OMB_INTERNAL");
    }
  }, 120_000);
});
