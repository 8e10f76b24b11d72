/** Saving a BridgeModel to JSON and reading it back, with a version check. */
import { failWith } from "./diagnostics.js";
import { isHttpMethod } from "./http-methods.js";
import { isDeeperThan, MAX_DOCUMENT_DEPTH } from "./json-depth.js";
import { isRecord } from "./records.js";
import { type BridgeModel, IR_VERSION, type ToolNode } from "./types.js";

/** Compact JSON: a model is read at every start, and large APIs give models of megabytes. */
export function serializeModel(model: BridgeModel): string {
  return `${JSON.stringify(model)}\n`;
}

/** True for a parsed JSON document that is a saved model rather than a spec. */
export function isModelDocument(value: unknown): boolean {
  return typeof value === "object" && value !== null && "irVersion" in value && "tools" in value;
}

export function parseModel(text: string, file = "<model>"): BridgeModel {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    failWith("OMB_MODEL_PARSE", `the model file is not valid JSON: ${(error as Error).message}`, { file });
  }
  return checkModel(value, file);
}

export function checkModel(value: unknown, file = "<model>"): BridgeModel {
  return checkModelDepth(value, file, true);
}

/**
 * checkModel for a reader that measured the model's depth as it read it (a lazy model's index,
 * whose shared entries it puts in place with the depth counted: lazy-model.ts).
 */
export function checkModelMeasured(value: unknown, file: string): BridgeModel {
  return checkModelDepth(value, file, false);
}

function checkModelDepth(value: unknown, file: string, measure: boolean): BridgeModel {
  if (!isModelDocument(value)) {
    failWith("OMB_MODEL_INVALID", "not a bridge model (no irVersion and tools)", { file, pointer: "" });
  }
  const model = value as BridgeModel;
  if (model.irVersion !== IR_VERSION) {
    failWith(
      "OMB_MODEL_VERSION",
      `the model has irVersion ${String(model.irVersion)}, this bridge reads ${IR_VERSION}`,
      { file, pointer: "/irVersion", hint: "build the model again from the spec with this version" },
    );
  }
  if (!Array.isArray(model.tools))
    failWith("OMB_MODEL_INVALID", "tools must be an array", { file, pointer: "/tools" });
  // Serving and planning walk a model recursively, as they walk a spec: no deeper than one.
  if (measure && isDeeperThan(model, MAX_DOCUMENT_DEPTH)) {
    failWith("OMB_MODEL_INVALID", `the model nests objects more than ${MAX_DOCUMENT_DEPTH} levels deep`, {
      file,
      pointer: "",
      hint: "build the model again from the spec (`model SPEC -o FILE`)",
    });
  }
  checkClientToolLimit(model, file);
  const tools = model.tools.map((tool, index) => checkToolMethod(tool, index, file));
  return tools.every((tool, index) => tool === model.tools[index]) ? model : { ...model, tools };
}

/**
 * A tool's method as the planner writes it, lower case: a model is an input like a spec, and the
 * runtime's policies (`--destructive`, `--read-only`, which methods are never read-only) go by
 * the method, so `"DELETE"` must be read as the DELETE it is. Not a method: the model is refused.
 */
function checkToolMethod(tool: ToolNode, index: number, file: string): ToolNode {
  const http: unknown = isRecord(tool) ? tool.http : undefined;
  const method = isRecord(http) ? http.method : undefined;
  const lower = typeof method === "string" ? method.toLowerCase() : undefined;
  if (lower === undefined || !isHttpMethod(lower)) {
    return failWith(
      "OMB_MODEL_INVALID",
      `tool ${index} has no HTTP method (http.method: ${JSON.stringify(method)})`,
      {
        file,
        pointer: `/tools/${index}/http/method`,
      },
    );
  }
  return lower === method ? tool : { ...tool, http: { ...tool.http, method: lower } };
}

/** A client tool limit, when there is one, as the profile writes it: auto reads its count. */
function checkClientToolLimit(model: BridgeModel, file: string): void {
  const limit: unknown = model.clientToolLimit;
  if (limit === undefined) return;
  const ok =
    isRecord(limit) &&
    typeof limit.profile === "string" &&
    typeof limit.why === "string" &&
    Number.isSafeInteger(limit.count) &&
    (limit.count as number) > 0;
  if (!ok) {
    failWith(
      "OMB_MODEL_INVALID",
      "clientToolLimit must be { profile, count (a whole number above 0), why }",
      {
        file,
        pointer: "/clientToolLimit",
        hint: "build the model again from the spec (`model SPEC -o FILE`)",
      },
    );
  }
}
