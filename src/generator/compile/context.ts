/**
 * What planning one operation reads: the document, the shared schema converter, where the
 * operation is, and the diagnostics it adds to; and how a component `$ref` is followed.
 */
import { createDiagnostic } from "../../model/diagnostics.js";
import { resolveLocalRef } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { Diagnostic, HttpMethod } from "../../model/types.js";
import type { SchemaConverter } from "./json-schema.js";

export interface OperationContext {
  document: Record<string, unknown>;
  converter: SchemaConverter;
  diagnostics: Diagnostic[];
  source: string;
  pointer: string;
  method: HttpMethod;
  path: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}

/** Resolves a `$ref` to a component (parameter, response, request body, path item). */
export function resolveRefObject(document: unknown, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < 16; hops++) {
    if (!isRecord(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#")) return node;
    node = resolveLocalRef(document as object, node.$ref);
  }
  return node;
}

export function warn(
  context: OperationContext,
  code: string,
  message: string,
  pointer: string,
  severity: "warning" | "info" = "warning",
): void {
  context.diagnostics.push(createDiagnostic(code, message, { severity, file: context.source, pointer }));
}

export const PARAMETER_STYLES = new Set<string>([
  "simple",
  "label",
  "matrix",
  "form",
  "spaceDelimited",
  "pipeDelimited",
  "tabDelimited",
  "deepObject",
]);
