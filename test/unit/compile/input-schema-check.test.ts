/**
 * Each tool's input schema is compiled when the model is planned: one that does not compile
 * (a spec loaded without validation, a slip no repair can read) is named with its reason, and
 * the same schema is what the runtime's validator refuses to compile at call time.
 */
import { describe, expect, it } from "vitest";
import { checkInputSchemas } from "../../../src/generator/compile/input-schema-check.js";
import { createArgumentValidator } from "../../../src/runtime/arguments/validate.js";
import { planSpec } from "../../e2e/safety-support.js";

const OK = { "200": { description: "OK" } };

function planWithLimit(schema: Record<string, unknown>) {
  return planSpec({
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          parameters: [{ name: "limit", in: "query", schema }],
          responses: OK,
        },
      },
      "/ping": { get: { operationId: "ping", responses: OK } },
    },
  });
}

describe("input schemas compiled at plan time", () => {
  it("a schema that compiles gives no diagnostic", () => {
    const model = planWithLimit({ type: "integer", maximum: 50, pattern: "(?<=a)b" });
    expect(model.diagnostics.filter((d) => d.code === "OMB_TOOL_UNUSABLE")).toEqual([]);
  });

  it.each([
    ["a bound written as text", { type: "integer", maximum: "fifty" }, 'maximum value must be ["number"]'],
    ["a step written as text", { type: "integer", multipleOf: "two" }, 'multipleOf value must be ["number"]'],
  ])("%s makes its tool unusable, named with the reason the runtime gives", (_what, schema, reason) => {
    const model = planWithLimit(schema);
    expect(model.diagnostics.filter((d) => d.code === "OMB_TOOL_UNUSABLE")).toEqual([
      {
        code: "OMB_TOOL_UNUSABLE",
        severity: "warning",
        message: `tool listThings cannot be called: its input schema does not compile (${reason}); it stays listed, and a call of it answers operation_unavailable`,
        file: "test.yaml",
        pointer: "/paths/~1things/get",
        tool: "listThings",
      },
    ]);
    // The runtime refuses the same schema at call time, for the same reason.
    const tool = model.tools.find((t) => t.name === "listThings")!;
    expect(createArgumentValidator(tool.inputSchema)({})).toEqual({
      ok: false,
      unusable: `Cannot compile the tool's input schema: ${reason}`,
    });
  });

  it("checks past a first failure and across fresh Ajv instances", () => {
    const model = planWithLimit({ type: "integer", maximum: "fifty" });
    const broken = model.tools.find((t) => t.name === "listThings")!;
    const fine = model.tools.find((t) => t.name === "ping")!;
    const tools = Array.from({ length: 450 }, (_, i) => (i % 150 === 0 ? broken : fine));
    expect(checkInputSchemas(tools, "test.yaml")).toHaveLength(3);
  });
});
