import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import { lintSpec } from "../../../src/generator/lint/lint-spec.js";
import { loadTokenCounter } from "../../../src/generator/lint/token-count.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import { toListedTool } from "../../../src/runtime/tool-list.js";
import { fixture, runCli } from "../../helpers/bridge.js";

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
        code: "missing-operation-id",
        severity: "warning",
        pointer: "/paths/~1pets~1{petId}/get",
        fix: "add operationId: getPetsByPetId",
      },
    },
    {
      name: "no summary nor description",
      paths: { "/pets": { get: { operationId: "listPets", responses: ok } } },
      want: {
        code: "missing-description",
        severity: "error",
        pointer: "/paths/~1pets/get",
        tool: "listPets",
      },
    },
    {
      name: "a description that is the path",
      paths: { "/pets": { get: { operationId: "listPets", summary: "/pets", responses: ok } } },
      want: { code: "vague-description", severity: "warning" },
    },
    {
      name: "a two-word summary",
      paths: { "/pets": { get: { operationId: "listPets", summary: "Pets list.", responses: ok } } },
      want: { code: "vague-description", severity: "warning" },
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
      want: { code: "description-over-budget", severity: "info" },
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
        code: "parameter-without-description",
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
      want: { code: "parameter-without-description", pointer: "/components/parameters/Limit" },
    },
    {
      name: "the same summary twice",
      paths: {
        "/pets": { get: { operationId: "listPets", summary: "List the pets", responses: ok } },
        "/animals": { get: { operationId: "listAnimals", summary: "List the pets.", responses: ok } },
      },
      want: { code: "duplicate-summary", pointer: "/paths/~1animals/get/summary", tool: "listAnimals" },
    },
    {
      name: "the same operationId twice",
      paths: {
        "/pets": { get: { operationId: "list", summary: "List the pets", responses: ok } },
        "/owners": { get: { operationId: "List", summary: "List the owners", responses: ok } },
      },
      want: { code: "duplicate-operation-id", severity: "error", pointer: "/paths/~1owners/get/operationId" },
    },
    {
      name: "same method and path but for parameter names",
      paths: {
        "/pets/{id}": { get: { operationId: "getPet", summary: "Get one pet", responses: ok } },
        "/pets/{petId}/": { get: { operationId: "getPetAgain", summary: "Get a pet again", responses: ok } },
      },
      want: { code: "near-identical-tools", pointer: "/paths/~1pets~1{petId}~1/get" },
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
        code: "schema-too-large",
        severity: "warning",
        tool: "createPet",
        pointer: "/paths/~1pets/post",
      },
    },
  ])("$name", ({ paths, components, schemaTokens, want }) => {
    const report = lint(paths, components, schemaTokens);
    expect(report.findings).toContainEqual(expect.objectContaining(want));
    for (const finding of report.findings) {
      expect(finding.fix.length).toBeGreaterThan(10);
      expect(finding.pointer.startsWith("/")).toBe(true);
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

  it("counts with the real o200k_base tokenizer", async () => {
    const count = await loadTokenCounter();
    expect(count("hello world")).toBe(2);
    expect(count('{"type":"object"}')).toBeGreaterThan(3);
  });
});

describe("lint command", () => {
  it("prints findings, the tools/list size and the largest tools; --strict exits 1 on errors", async () => {
    const spec = fixture("petstore", "petstore.openapi30.yaml");
    const text = await runCli(["lint", spec], { timeoutMs: 60_000 });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/duplicate-summary .*#\/paths\/~1user~1createWithList\/post\/summary/);
    expect(text.stdout).toMatch(/20 tools; tools\/list is [\d,]+ tokens \(o200k_base/);
    expect(text.stdout).toContain("largest tools");

    const json = await runCli(["lint", spec, "--json", "--description-budget", "100"], { timeoutMs: 60_000 });
    const report = JSON.parse(json.stdout) as { tools: number; totalTokens: number; largest: unknown[] };
    expect(report.tools).toBe(20);
    expect(report.totalTokens).toBeGreaterThan(1000);
    expect(report.largest).toHaveLength(10);

    const noWords = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/x": { get: { responses: { "200": { description: "ok" } } } } },
    });
    const strict = await runCli(["lint", "-", "--strict"], { stdin: noWords, timeoutMs: 60_000 });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("error missing-description");
    const lax = await runCli(["lint", "-"], { stdin: noWords, timeoutMs: 60_000 });
    expect(lax.code).toBe(0);
  }, 120_000);
});
