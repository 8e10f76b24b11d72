/**
 * Tool titles and descriptions written for a model: what the operation does (summary, then
 * the description with markup and doc pointers removed), what it returns when no output schema
 * says so, and which error statuses it documents, within a character budget that keeps the most
 * useful parts first. Never "undefined": an operation with no words gets method, path and tags.
 */
import type { OperationContext } from "./plan.js";
import { resolveRefObject } from "./plan.js";
import { isRecord } from "./schema.js";
import { cleanProse, fitText, humanizeIdentifier } from "./text.js";

export { humanizeIdentifier } from "./text.js";

export interface DescribeOptions {
  /** Maximum characters of the whole description. */
  budget: number;
  /** The tool advertises an output schema (so the text need not describe the result). */
  hasOutputSchema: boolean;
}

export function titleOperation(context: OperationContext): string {
  const summary = cleanProse(context.operation.summary, false);
  if (summary !== "") return fitText(summary.replace(/[.!]$/, ""), 80);
  const operationId = typeof context.operation.operationId === "string" ? context.operation.operationId : "";
  if (operationId.trim() !== "") return fitText(humanizeIdentifier(operationId), 80);
  return `${context.method.toUpperCase()} ${context.path}`;
}

export function describeOperation(context: OperationContext, options: DescribeOptions): string {
  const { operation } = context;
  const summary = cleanProse(operation.summary, false);
  const description = cleanProse(operation.description);
  let lead = summary !== "" ? ensurePeriod(summary) : "";
  let body = description;
  if (lead === "") {
    // No summary: the description's first sentence leads; failing that, method, path and tags.
    const first = firstSentence(description);
    lead = first !== "" ? ensurePeriod(first) : describeRoute(context);
    body = description.slice(first.length).trim();
  } else if (description.startsWith(summary.replace(/[.!]$/, ""))) {
    body = description.slice(summary.replace(/[.!]$/, "").length).replace(/^[.!:\s]+/, "");
  }
  if (operation.deprecated === true) lead = `Deprecated. ${lead}`;
  const tail = [options.hasOutputSchema ? "" : describeReturns(context), describeErrors(context)]
    .filter((line) => line !== "")
    .join(" ");
  let text = fitText(lead, options.budget);
  const room = options.budget - text.length - (tail === "" ? 0 : tail.length + 1) - 1;
  if (body !== "" && room > 40) text = `${text}\n${fitText(body, room)}`;
  if (tail !== "" && text.length + tail.length + 1 <= options.budget) text = `${text}\n${tail}`;
  return text;
}

function describeRoute(context: OperationContext): string {
  const tags = Array.isArray(context.operation.tags)
    ? context.operation.tags.filter((t): t is string => typeof t === "string")
    : [];
  const verb: Record<string, string> = {
    get: "Read",
    head: "Check",
    post: "Create or run",
    put: "Replace",
    patch: "Update",
    delete: "Delete",
    options: "Describe",
    trace: "Trace",
  };
  const subject = tags.length > 0 ? ` (${tags.join(", ")})` : "";
  return `${verb[context.method] ?? context.method.toUpperCase()} ${context.path}${subject}.`;
}

/** "Returns text/csv." / "Returns no content." for tools without an output schema. */
function describeReturns(context: OperationContext): string {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const success = Object.keys(responses).filter((status) => /^2/.test(status));
  if (success.length === 0) return "";
  const types = new Set<string>();
  for (const status of success) {
    const response = resolveRefObject(context.document, responses[status]);
    if (isRecord(response) && isRecord(response.content)) {
      for (const mediaType of Object.keys(response.content)) types.add(mediaType);
    }
  }
  if (types.size === 0) return "Returns no content.";
  return `Returns ${[...types].slice(0, 3).join(" or ")}.`;
}

/** "Errors: 404, 422." from the documented 4xx/5xx statuses. */
function describeErrors(context: OperationContext): string {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const errors = Object.keys(responses).filter((status) => /^[45]/.test(status));
  return errors.length > 0 ? `Errors: ${errors.slice(0, 6).join(", ")}.` : "";
}

function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?](\s|$)/.exec(text.split("\n")[0] ?? "");
  return (match ? match[0] : (text.split("\n")[0] ?? "")).trim();
}

function ensurePeriod(text: string): string {
  return /[.!?:]$/.test(text) ? text : `${text}.`;
}
