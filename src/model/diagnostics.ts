import { DIAGNOSTIC_CODES, type DiagnosticCode } from "./diagnostic-codes.js";
import type { Diagnostic, DiagnosticSeverity } from "./types.js";

/** A diagnostic as created here: its code is one of the catalog's (a saved model's may be any string). */
export interface CodedDiagnostic extends Diagnostic {
  code: DiagnosticCode;
}

/** Where a diagnostic points and what to do; the severity defaults to the code's in the catalog. */
export interface DiagnosticFields {
  severity?: DiagnosticSeverity;
  file?: string;
  pointer?: string;
  hint?: string;
  tool?: string;
}

/** An error that carries coded diagnostics; the CLI prints these without a stack trace. */
export class BridgeError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[]) {
    super(formatDiagnostics(diagnostics));
    this.name = "BridgeError";
    this.diagnostics = diagnostics;
  }

  get code(): string {
    const fallback: DiagnosticCode = "OMB_ERROR";
    return this.diagnostics[0]?.code ?? fallback;
  }
}

/**
 * A diagnostic of a catalog code. Only the fields given are set (in this order, which is the
 * order saved models have): the catalog's fix is not copied into `hint`, see diagnostic-codes.ts.
 */
export function createDiagnostic(
  code: DiagnosticCode,
  message: string,
  fields: DiagnosticFields = {},
): CodedDiagnostic {
  const severity = fields.severity ?? DIAGNOSTIC_CODES[code].severity;
  const diagnostic: CodedDiagnostic = { code, severity, message };
  if (fields.file !== undefined) diagnostic.file = fields.file;
  if (fields.pointer !== undefined) diagnostic.pointer = fields.pointer;
  if (fields.hint !== undefined) diagnostic.hint = fields.hint;
  if (fields.tool !== undefined) diagnostic.tool = fields.tool;
  return diagnostic;
}

/** Throws a BridgeError with a single diagnostic (an error unless the catalog says otherwise). */
export function failWith(
  code: DiagnosticCode,
  message: string,
  fields: Omit<DiagnosticFields, "severity"> = {},
): never {
  throw new BridgeError([createDiagnostic(code, message, fields)]);
}

/** `file#/pointer: [CODE] message (hint)` one per line. */
export function formatDiagnostics(diagnostics: Diagnostic[]): string {
  return diagnostics.map(formatDiagnostic).join("\n");
}

export function formatDiagnostic(d: Diagnostic): string {
  const where =
    d.file || d.pointer ? `${d.file ?? ""}${d.pointer !== undefined ? `#${d.pointer}` : ""}: ` : "";
  const hint = d.hint ? `\n  hint: ${d.hint}` : "";
  return `${d.severity} ${d.code} ${where}${d.message}${hint}`;
}
