/**
 * Tool titles and descriptions. A model picks tools from these alone, so they say what the
 * operation does, whether it changes data, and never read "undefined".
 */
import type { ParameterBindingNode } from "../model/types.js";
import type { OperationContext } from "./plan.js";

export function titleOperation(context: OperationContext): string {
  const summary = cleanText(context.operation.summary);
  if (summary !== "") return firstLine(summary).slice(0, 120);
  const operationId = typeof context.operation.operationId === "string" ? context.operation.operationId : "";
  if (operationId !== "") return humanizeIdentifier(operationId);
  return `${context.method.toUpperCase()} ${context.path}`;
}

export function describeOperation(
  context: OperationContext,
  options: { budget: number; parameters: ParameterBindingNode[] },
): string {
  const { operation, method, path } = context;
  const parts: string[] = [];
  const summary = cleanText(operation.summary);
  const description = cleanText(operation.description);
  if (summary !== "") parts.push(ensurePeriod(summary));
  if (description !== "" && description !== summary) parts.push(description);
  if (parts.length === 0) {
    const tags = Array.isArray(operation.tags) ? operation.tags.filter((t) => typeof t === "string") : [];
    const subject = tags.length > 0 ? ` (${tags.join(", ")})` : "";
    parts.push(`${method.toUpperCase()} ${path}${subject}.`);
  }
  if (operation.deprecated === true) parts.unshift("DEPRECATED: prefer another operation if one exists.");
  const text = parts.join("\n\n");
  return truncateText(text, options.budget);
}

/** Trims, drops HTML tags and collapses runs of blank lines. */
export function cleanText(value: unknown): string {
  if (typeof value !== "string") return "";
  return value
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .replace(/\r\n?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function truncateText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const cut = text.slice(0, Math.max(0, budget - 1));
  const lastBreak = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("\n"));
  return `${lastBreak > budget * 0.6 ? cut.slice(0, lastBreak + 1) : cut}…`;
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

function ensurePeriod(text: string): string {
  return /[.!?:]$/.test(text) ? text : `${text}.`;
}

/** `getPetById` → `Get pet by id`; `list_user-repos` → `List user repos`. */
export function humanizeIdentifier(identifier: string): string {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.\s/]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
