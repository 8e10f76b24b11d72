/**
 * The outline of what an operation's success answer is, as the model planned it: code mode's
 * typed result outline when planned, else the advertised output schema (its `result` when the
 * answer is wrapped). One reading for the signatures and for the result's decoding.
 */
import { isRecord } from "../../model/records.js";
import type { JsonSchema, ToolNode } from "../../model/types.js";

export function findDocumentedResult(tool: ToolNode): JsonSchema | undefined {
  if (tool.resultSchema !== undefined) return tool.resultSchema;
  const output = tool.outputSchema;
  if (output === undefined) return undefined;
  if (!tool.outputWrapped) return output;
  const result = isRecord(output.properties) ? output.properties.result : undefined;
  return isRecord(result) ? (result as JsonSchema) : undefined;
}

/** Whether the documented answer may be a string (`"string"`, or a list of types holding it). */
export function mayBeString(schema: JsonSchema | undefined): boolean {
  const type = schema?.type;
  return type === "string" || (Array.isArray(type) && type.includes("string"));
}
