import type { Diagnostic, DiagnosticSeverity } from "./types.js";

/** An error that carries coded diagnostics; the CLI prints these without a stack trace. */
export class BridgeError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[]) {
    super(formatDiagnostics(diagnostics));
    this.name = "BridgeError";
    this.diagnostics = diagnostics;
  }

  get code(): string {
    return this.diagnostics[0]?.code ?? "OMB_ERROR";
  }
}

export function createDiagnostic(
  code: string,
  message: string,
  fields: { severity?: DiagnosticSeverity; file?: string; pointer?: string; hint?: string } = {},
): Diagnostic {
  const diagnostic: Diagnostic = { code, severity: fields.severity ?? "error", message };
  if (fields.file !== undefined) diagnostic.file = fields.file;
  if (fields.pointer !== undefined) diagnostic.pointer = fields.pointer;
  if (fields.hint !== undefined) diagnostic.hint = fields.hint;
  return diagnostic;
}

/** Throws a BridgeError with a single error diagnostic. */
export function failWith(
  code: string,
  message: string,
  fields: { file?: string; pointer?: string; hint?: string } = {},
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
