/** Saved models are inputs like specs: a tool's method is read as the planner writes it. */
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { MAX_DOCUMENT_DEPTH } from "../../../src/model/json-depth.js";
import { parseModel, serializeModel } from "../../../src/model/serialize.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { selectModel } from "../../../src/runtime/access/select.js";
import { planSpec, TOY_PATHS } from "../../e2e/safety-support.js";

const planned = planSpec({ paths: TOY_PATHS });

/** The planned model with every DELETE written as `method` and claiming to be harmless. */
function editedModel(method: unknown): BridgeModel {
  return {
    ...planned,
    tools: planned.tools.map((tool) =>
      tool.http.method === "delete"
        ? {
            ...tool,
            http: { ...tool.http, method: method as "delete" },
            annotations: { ...tool.annotations, destructiveHint: false, readOnlyHint: true },
          }
        : tool,
    ),
  };
}

const deletes = planned.tools.filter((tool) => tool.http.method === "delete").map((tool) => tool.name);

describe("parseModel", () => {
  it("finds DELETE operations in the planned model (the fixture has some)", () => {
    expect(deletes.length).toBeGreaterThan(0);
  });

  it.each(["DELETE", "Delete", "delete"])(
    "reads method %s as delete: refused and never read-only",
    (method) => {
      const model = parseModel(serializeModel(editedModel(method)));
      for (const name of deletes)
        expect(model.tools.find((t) => t.name === name)?.http.method).toBe("delete");
      const refused = selectModel(model, { destructive: "refuse" });
      for (const name of deletes) expect(refused.tools.some((tool) => tool.name === name)).toBe(false);
      const served = selectModel(model, { destructive: "allow" });
      for (const name of deletes) {
        const tool = served.tools.find((t) => t.name === name)!;
        expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      }
    },
  );

  it.each<[string, unknown]>([
    ["an unknown method", "FETCH"],
    ["no method", undefined],
    ["a method that is no string", 7],
  ])("refuses a tool with %s, naming where", (_label, method) => {
    let error: unknown;
    try {
      parseModel(serializeModel(editedModel(method)), "api.model.json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BridgeError);
    const [diagnostic] = (error as BridgeError).diagnostics;
    expect(diagnostic).toMatchObject({ code: "OMB_MODEL_INVALID", file: "api.model.json" });
    expect(diagnostic?.pointer).toMatch(/^\/tools\/\d+\/http\/method$/);
  });

  it.each<[string, unknown]>([
    ["a count of zero", { profile: "cursor", count: 0, why: "w" }],
    ["a fractional count", { profile: "cursor", count: 1.5, why: "w" }],
    ["no why", { profile: "cursor", count: 40 }],
    ["not an object", 40],
  ])("refuses a client tool limit with %s at /clientToolLimit", (_label, clientToolLimit) => {
    let error: unknown;
    try {
      parseModel(serializeModel({ ...planned, clientToolLimit } as typeof planned), "api.model.json");
    } catch (caught) {
      error = caught;
    }
    expect((error as BridgeError).diagnostics[0]).toMatchObject({
      code: "OMB_MODEL_INVALID",
      pointer: "/clientToolLimit",
    });
  });

  it("keeps a client tool limit as the profile writes it", () => {
    const clientToolLimit = {
      profile: "cursor",
      count: 40,
      why: "Cursor offers its agent about 40 tools at most",
    };
    expect(parseModel(serializeModel({ ...planned, clientToolLimit })).clientToolLimit).toEqual(
      clientToolLimit,
    );
  });

  it("refuses a model nested deeper than a spec may be, before anything walks it", () => {
    const text = serializeModel(planned).replace(
      '"tools":[',
      `"deep":${"[".repeat(MAX_DOCUMENT_DEPTH + 5)}${"]".repeat(MAX_DOCUMENT_DEPTH + 5)},"tools":[`,
    );
    expect(() => parseModel(text, "deep.model.json")).toThrow(BridgeError);
    try {
      parseModel(text, "deep.model.json");
    } catch (error) {
      expect((error as BridgeError).diagnostics[0]).toMatchObject({
        code: "OMB_MODEL_INVALID",
        message: `the model nests objects more than ${MAX_DOCUMENT_DEPTH} levels deep`,
      });
    }
  });

  it("keeps a planned model as it is", () => {
    expect(parseModel(serializeModel(planned))).toEqual(planned);
  });
});
