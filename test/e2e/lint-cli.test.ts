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
});
