/**
 * describe_operations' answer: for each operation named, everything needed to call it through
 * call_operation (what it does, the JSON Schema of its arguments, what it returns, annotations
 * and whether the user must confirm it), as `structuredContent` and the same JSON as text,
 * each thing said once (describe-budget.ts's showOperation: no tags, no repeated title, the
 * responses as a map of status to text).
 * Names that are no operation are listed with the closest ones; when none is, it is an error.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { JsonSchema, ResultFieldsNode, ToolAnnotationsNode, ToolNode } from "../../model/types.js";
import { isDestructive } from "../access/select.js";
import { toErrorResult } from "../results/error-result.js";
import { fitText, hasBudget, type KeepOptions, TRUNCATION_META_KEY } from "../results/truncate.js";
import { toResponseKey } from "./boilerplate-responses.js";
import { fitDescribed } from "./describe-budget.js";
import { DESCRIBE_TOOL, nameApi, SEARCH_TOOL } from "./discovery-tools.js";

export interface DescribedOperation {
  name: string;
  title: string;
  method: string;
  path: string;
  tags: string[];
  description: string;
  inputSchema: JsonSchema;
  /** The JSON of a successful answer, when the tool declares it (`--output-schemas`). */
  outputSchema?: JsonSchema;
  /** The names of a successful answer's fields, shown as `returns` (describe-returns.ts). */
  resultFields?: ResultFieldsNode;
  /** Every documented answer: status, what it means, media types. */
  responses: { status: string; description: string; mediaTypes?: string[] }[];
  annotations: ToolAnnotationsNode;
  /** True when `--destructive confirm` asks the user before the call is sent. */
  needsConfirmation: boolean;
  deprecated?: true;
  /** Arguments that are the API's options, on nearly every operation (bindings marked `apiWide`). */
  apiWide?: string[];
}

const NO_BOILERPLATE: ReadonlySet<string> = new Set();

export interface NotFound {
  name: string;
  closest: string[];
}

export function describeOperation(
  tool: ToolNode,
  confirmDestructive: boolean,
  boilerplate: ReadonlySet<string> = NO_BOILERPLATE,
): DescribedOperation {
  const apiWide = tool.http.parameters.filter((p) => p.apiWide).map((p) => p.argument);
  return {
    name: tool.name,
    title: tool.title,
    method: tool.http.method.toUpperCase(),
    path: tool.http.path,
    tags: tool.tags,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.resultFields !== undefined ? { resultFields: tool.resultFields } : {}),
    responses: tool.http.responses.map((r) => ({
      status: r.status,
      // The API's boilerplate for this status (boilerplate-responses.ts) says nothing of this one.
      description: boilerplate.has(toResponseKey(r.status, r.description)) ? "" : r.description,
      ...(r.mediaTypes.length > 0 ? { mediaTypes: r.mediaTypes } : {}),
    })),
    annotations: tool.annotations,
    needsConfirmation: confirmDestructive && isDestructive(tool),
    ...(tool.deprecated ? { deprecated: true as const } : {}),
    ...(apiWide.length > 0 ? { apiWide } : {}),
  };
}

/**
 * The answer for the operations found and the names that are none, within `budget` characters
 * where summaries make it fit (describe-budget.ts).
 */
export function toDescribeResult(
  found: DescribedOperation[],
  notFound: NotFound[],
  apiTitle: string,
  budget = Number.POSITIVE_INFINITY,
): CallToolResult {
  if (found.length === 0) {
    const lines = notFound.map(
      (n) =>
        `${JSON.stringify(n.name)} is no operation of ${nameApi(apiTitle)}` +
        (n.closest.length > 0 ? `; the closest: ${n.closest.join(", ")}.` : "."),
    );
    lines.push(`${SEARCH_TOOL} finds operations by what they do.`);
    return toErrorResult(lines.join("\n"), "unknown_tool");
  }
  const structuredContent = {
    ...fitDescribed(found, budget, DESCRIBE_TOOL),
    ...(notFound.length > 0 ? { notFound } : {}),
  };
  return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
}

/**
 * The last resort when summaries could not bring a describe answer within the budget (a
 * schema of thousands of properties): the text cut, kept whole for reading in parts.
 */
export function keepWithinBudget(result: CallToolResult, budget: number, keep: KeepOptions): CallToolResult {
  const first = result.content[0];
  if (result.isError || result.content.length !== 1 || first?.type !== "text") return result;
  if (!hasBudget(budget) || first.text.length <= budget) return result;
  const fitted = fitText(first.text, { budget, keep });
  return {
    content: [{ type: "text", text: fitted.text }],
    ...(fitted.truncation ? { _meta: { [TRUNCATION_META_KEY]: { ...fitted.truncation } } } : {}),
  };
}
