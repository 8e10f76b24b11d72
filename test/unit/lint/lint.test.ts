import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import {
  EXAMPLES_PER_CODE,
  filterLintReport,
  formatLintReport,
  GROUP_OVER,
} from "../../../src/generator/lint/format-lint-report.js";
import { LINT_RULES } from "../../../src/generator/lint/lint-rules.js";
import { lintSpec } from "../../../src/generator/lint/lint-spec.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import { DIAGNOSTIC_CODES } from "../../../src/model/diagnostic-codes.js";
import { toListedTool } from "../../../src/runtime/server/tool-list.js";

const ok = { "200": { description: "ok" } };

function lint(
  paths: Record<string, unknown>,
  components: Record<string, unknown> = {},
  schemaTokens?: number,
) {
  const loaded = {
    document: { openapi: "3.0.3", info: { title: "T", version: "1" }, paths, components },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  const model = planModel(loaded);
  const listed = model.tools.map((tool) => toListedTool(tool));
  // one "token" per 4 characters: enough to test the arithmetic without the real tokenizer
  const countTokens = (text: string) => Math.ceil(text.length / 4);
  return lintSpec(loaded, model, listed, {
    countTokens,
    tokenizer: "chars/4",
    ...(schemaTokens !== undefined ? { schemaTokens } : {}),
  });
}

describe("lint findings", () => {
  it.each([
    {
      name: "missing operationId, with a suggested one",
      paths: { "/pets/{petId}": { get: { summary: "Get one pet by its id", responses: ok } } },
      want: {
        code: "OMB_LINT_MISSING_OPERATION_ID",
        severity: "warning",
        pointer: "/paths/~1pets~1{petId}/get",
        hint: "add operationId: getPetsByPetId",
      },
    },
    {
      name: "no summary nor description",
      paths: { "/pets": { get: { operationId: "listPets", responses: ok } } },
      want: {
        code: "OMB_LINT_MISSING_DESCRIPTION",
        severity: "error",
        pointer: "/paths/~1pets/get",
        tool: "listPets",
      },
    },
    {
      name: "a description that is the path",
      paths: { "/pets": { get: { operationId: "listPets", summary: "/pets", responses: ok } } },
      want: { code: "OMB_LINT_VAGUE_DESCRIPTION", severity: "warning" },
    },
    {
      name: "a two-word summary",
      paths: { "/pets": { get: { operationId: "listPets", summary: "Pets list.", responses: ok } } },
      want: { code: "OMB_LINT_VAGUE_DESCRIPTION", severity: "warning" },
    },
    {
      name: "a description far over the budget",
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            summary: "List all pets",
            description: "Words. ".repeat(100),
            responses: ok,
          },
        },
      },
      want: { code: "OMB_LINT_DESCRIPTION_OVER_BUDGET", severity: "info" },
    },
    {
      name: "a parameter without a description, at its own pointer",
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            summary: "List all pets",
            parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
            responses: ok,
          },
        },
      },
      want: {
        code: "OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION",
        severity: "info",
        pointer: "/paths/~1pets/get/parameters/0",
      },
    },
    {
      name: "a shared parameter is reported where it is defined",
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            summary: "List all pets",
            parameters: [{ $ref: "#/components/parameters/Limit" }],
            responses: ok,
          },
        },
      },
      components: { parameters: { Limit: { name: "limit", in: "query", schema: { type: "integer" } } } },
      want: { code: "OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION", pointer: "/components/parameters/Limit" },
    },
    {
      name: "the same summary twice",
      paths: {
        "/pets": { get: { operationId: "listPets", summary: "List the pets", responses: ok } },
        "/animals": { get: { operationId: "listAnimals", summary: "List the pets.", responses: ok } },
      },
      want: {
        code: "OMB_LINT_DUPLICATE_SUMMARY",
        pointer: "/paths/~1animals/get/summary",
        tool: "listAnimals",
      },
    },
    {
      name: "the same operationId twice",
      paths: {
        "/pets": { get: { operationId: "list", summary: "List the pets", responses: ok } },
        "/owners": { get: { operationId: "List", summary: "List the owners", responses: ok } },
      },
      want: {
        code: "OMB_LINT_DUPLICATE_OPERATION_ID",
        severity: "error",
        pointer: "/paths/~1owners/get/operationId",
      },
    },
    {
      name: "same method and path but for parameter names",
      paths: {
        "/pets/{id}": { get: { operationId: "getPet", summary: "Get one pet", responses: ok } },
        "/pets/{petId}/": { get: { operationId: "getPetAgain", summary: "Get a pet again", responses: ok } },
      },
      want: { code: "OMB_LINT_NEAR_IDENTICAL_TOOLS", pointer: "/paths/~1pets~1{petId}~1/get" },
    },
    {
      name: "an input schema over the token limit",
      paths: {
        "/pets": {
          post: {
            operationId: "createPet",
            summary: "Create a pet",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: Object.fromEntries(
                      Array.from({ length: 40 }, (_, i) => [
                        `field${i}`,
                        { type: "string", description: "A field." },
                      ]),
                    ),
                  },
                },
              },
            },
            responses: ok,
          },
        },
      },
      schemaTokens: 100,
      want: {
        code: "OMB_LINT_SCHEMA_TOO_LARGE",
        severity: "warning",
        tool: "createPet",
        pointer: "/paths/~1pets/post",
      },
    },
  ])("$name", ({ paths, components, schemaTokens, want }) => {
    const report = lint(paths, components, schemaTokens);
    expect(report.findings).toContainEqual(expect.objectContaining(want));
    for (const finding of report.findings) {
      expect(finding.hint.length).toBeGreaterThan(10);
      expect(finding.pointer.startsWith("/")).toBe(true);
      expect(finding.file).toBe("spec.yaml");
      expect(finding.severity).toBe(DIAGNOSTIC_CODES[finding.code].severity);
    }
  });

  it("a clean spec has no findings, and sizes add up", () => {
    const report = lint({
      "/pets": {
        get: {
          operationId: "listPets",
          summary: "List all pets of the store",
          parameters: [
            { name: "limit", in: "query", description: "At most this many.", schema: { type: "integer" } },
          ],
          responses: ok,
        },
      },
    });
    expect(report.findings).toEqual([]);
    expect(report.counts).toEqual({ error: 0, warning: 0, info: 0 });
    expect(report.tools).toBe(1);
    expect(report.largest[0]?.name).toBe("listPets");
    expect(report.totalTokens).toBe(report.largest[0]?.tokens);
    expect(report.medianTokens).toBe(report.totalTokens);
  });
});

describe("credential parameters", () => {
  it("one finding for the whole API, not one per operation, naming each parameter with its reach", () => {
    const header = { name: "Api-Key", in: "header", required: true, schema: { type: "string" } };
    const user = { name: "Api-Username", in: "header", required: true, schema: { type: "string" } };
    const paths = {
      "/latest.json": {
        get: {
          operationId: "listLatest",
          summary: "Latest topics",
          parameters: [header, user],
          responses: ok,
        },
      },
      "/t/{id}.json": {
        get: {
          operationId: "getTopic",
          summary: "One topic",
          parameters: [
            header,
            user,
            { name: "id", in: "path", required: true, description: "The topic", schema: { type: "string" } },
          ],
          responses: ok,
        },
      },
      "/backup": {
        get: {
          operationId: "getBackup",
          summary: "Download a backup",
          parameters: [{ name: "token", in: "query", required: true, schema: { type: "string" } }],
          responses: ok,
        },
      },
    };
    const found = lint(paths).findings.filter((f) => f.code === "OMB_LINT_CREDENTIAL_PARAMETER");
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe("warning");
    expect(found[0]!.message).toMatch(
      /^Api-Key \(header, 2 operations\), token \(query, 1 operation\): look like credentials/,
    );
    expect(found[0]!.message).not.toContain("Api-Username");
  });

  it("nothing for a spec without them", () => {
    const paths = { "/pets": { get: { operationId: "listPets", summary: "List pets", responses: ok } } };
    expect(lint(paths).findings.map((f) => f.code)).not.toContain("OMB_LINT_CREDENTIAL_PARAMETER");
  });
});

describe("lint rules", () => {
  it("one rule for each OMB_LINT_* code of the catalog, and no other", () => {
    const lintCodes = Object.keys(DIAGNOSTIC_CODES).filter((code) => code.startsWith("OMB_LINT_"));
    expect(LINT_RULES.map((rule) => rule.code).sort()).toEqual(lintCodes.sort());
  });

  it("runs only the rules it is given", () => {
    const paths = { "/pets": { get: { responses: ok } } };
    const all = lint(paths).findings.map((f) => f.code);
    expect(all).toEqual(
      expect.arrayContaining(["OMB_LINT_MISSING_OPERATION_ID", "OMB_LINT_MISSING_DESCRIPTION"]),
    );
    const loaded = {
      document: { openapi: "3.0.3", info: { title: "T", version: "1" }, paths },
      specVersion: "3.0",
      source: "spec.yaml",
      diagnostics: [],
    } as unknown as LoadedSpec;
    const model = planModel(loaded);
    const only = lintSpec(
      loaded,
      model,
      model.tools.map((tool) => toListedTool(tool)),
      {
        countTokens: (text) => text.length,
        tokenizer: "chars",
        rules: LINT_RULES.filter((rule) => rule.code === "OMB_LINT_MISSING_DESCRIPTION"),
      },
    );
    expect(only.findings.map((f) => f.code)).toEqual(["OMB_LINT_MISSING_DESCRIPTION"]);
    expect(only.counts).toEqual({ error: 1, warning: 0, info: 0 });
  });
});

describe("the report for a reader", () => {
  /** n operations with no words (errors), each with an undescribed parameter (notes), ids missing (warnings). */
  function largeReport(n: number) {
    const paths = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `/things${i}/{id}`,
        {
          get: {
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: ok,
          },
        },
      ]),
    );
    return lint(paths);
  }

  it("--severity keeps that severity and the more severe ones; the counts stay those of all", () => {
    const report = largeReport(3);
    expect(report.counts).toEqual({ error: 3, warning: 3, info: 3 });
    const errors = filterLintReport(report, { severity: "error" });
    expect(new Set(errors.findings.map((f) => f.severity))).toEqual(new Set(["error"]));
    expect(errors.counts).toEqual(report.counts);
    expect(errors.filter).toEqual({ severity: "error", shown: 3 });
    const warnings = filterLintReport(report, { severity: "warning" });
    expect(new Set(warnings.findings.map((f) => f.severity))).toEqual(new Set(["error", "warning"]));
    expect(filterLintReport(report, { severity: "info" }).findings).toHaveLength(9);
    // No filter: the report as it is, without a `filter` key (--json stays what it was).
    expect(filterLintReport(report, {})).toBe(report);
    const codes = filterLintReport(report, { codes: ["OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION"] });
    expect(codes.findings.map((f) => f.code)).toEqual(
      Array(3).fill("OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION"),
    );
    const text = formatLintReport(errors);
    expect(text).toContain("\nshowing 3 of 9 findings (errors only)\n");
    expect(text).not.toContain("warning OMB_LINT");
  });

  it(`lists each finding up to ${GROUP_OVER}, and past that summarises them by code (--group / --no-group decide)`, () => {
    const small = largeReport(3);
    const listed = formatLintReport(small);
    expect(listed.match(/^(error|warning|info) OMB_LINT_\w+ spec\.yaml#/gm)).toHaveLength(9);
    expect(listed).not.toContain("a summary by code");

    const large = largeReport(20); // 60 findings
    const summary = formatLintReport(large);
    const headers = summary.match(/^(error|warning|info) OMB_LINT_\w+: \d+ findings?: .+$/gm);
    expect(headers).toEqual([
      `error OMB_LINT_MISSING_DESCRIPTION: 20 findings: ${DIAGNOSTIC_CODES.OMB_LINT_MISSING_DESCRIPTION.title}`,
      `warning OMB_LINT_MISSING_OPERATION_ID: 20 findings: ${DIAGNOSTIC_CODES.OMB_LINT_MISSING_OPERATION_ID.title}`,
      `info OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION: 20 findings: ${DIAGNOSTIC_CODES.OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION.title}`,
    ]);
    expect(summary).toContain(`  fix: ${DIAGNOSTIC_CODES.OMB_LINT_MISSING_DESCRIPTION.fix}\n`);
    // A few places a code, each with its own hint where it says more than the fix.
    expect(summary.match(/^ {2}spec\.yaml#\/paths\/~1things\d+~1\{id\}\/get/gm)).toHaveLength(
      3 * EXAMPLES_PER_CODE,
    );
    expect(summary).toMatch(/\n {4}hint: add operationId: getThings\d+ById\n/);
    expect(summary).toContain(
      `  ... and ${20 - EXAMPLES_PER_CODE} more (--code OMB_LINT_MISSING_DESCRIPTION lists them)\n`,
    );
    expect(summary).toContain(
      "\n20 errors, 20 warnings, 20 notes\na summary by code: --no-group lists every finding",
    );
    expect(summary.split("\n").length).toBeLessThan(60);

    const everything = formatLintReport(large, { group: false });
    expect(everything.match(/^(error|warning|info) OMB_LINT_\w+ spec\.yaml#/gm)).toHaveLength(60);
    expect(formatLintReport(small, { group: true })).toContain(
      "error OMB_LINT_MISSING_DESCRIPTION: 3 findings",
    );
  });
});
