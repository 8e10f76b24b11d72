/**
 * What planning one operation reads: the document, the shared schema converter, where the
 * operation is, and the diagnostics it adds to; and how a component `$ref` is followed.
 */
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { createDiagnostic } from "../../model/diagnostics.js";
import { HTTP_METHODS } from "../../model/http-methods.js";
import { followLocalRef, joinPointer } from "../../model/pointer.js";
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
  return followLocalRef(document, value, { cached: true });
}

/** A diagnostic about the operation, at `pointer`, of the code's severity in the catalog. */
export function warn(
  context: OperationContext,
  code: DiagnosticCode,
  message: string,
  pointer: string,
): void {
  context.diagnostics.push(createDiagnostic(code, message, { file: context.source, pointer }));
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

/** Where one operation is in the document: its path item (refs followed) and pointers. */
export interface OperationSite {
  path: string;
  /** `/paths/~1pets~1{petId}` */
  pathPointer: string;
  method: HttpMethod;
  /** `/paths/~1pets~1{petId}/get` */
  pointer: string;
  pathItem: Record<string, unknown>;
  operation: Record<string, unknown>;
}

/** Every operation of the document, in path then method order (OpenAPI's method order). */
export function listOperations(document: Record<string, unknown>): OperationSite[] {
  const sites: OperationSite[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, rawPathItem] of Object.entries(paths)) {
    const pathItem = resolveRefObject(document, rawPathItem);
    if (!isRecord(pathItem)) continue;
    const pathPointer = joinPointer("paths", path);
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isRecord(operation))
        sites.push({ path, pathPointer, method, pointer: `${pathPointer}/${method}`, pathItem, operation });
    }
  }
  return sites;
}
