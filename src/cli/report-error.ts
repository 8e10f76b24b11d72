/** How the command line reports an error: diagnostics on stderr, never a stack trace. */
import { CommanderError } from "commander";
import type { DiagnosticCode } from "../model/diagnostic-codes.js";
import { BridgeError, formatDiagnostics } from "../model/diagnostics.js";
import { isOptionErrorCode } from "../runtime/config/read-settings.js";

/** Writes the error to stderr and returns the exit status (2 for usage errors, else 1). */
export function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof BridgeError) {
    process.stderr.write(`${formatDiagnostics(error.diagnostics)}\n`);
    // A bad option value is a usage error, as commander's own (an unknown flag) are.
    return isOptionErrorCode(error.code) ? 2 : 1;
  }
  // Anything else is a bug: every user error (a spec, an option, a path) is a BridgeError.
  const message = error instanceof Error ? error.message : String(error);
  const code: DiagnosticCode = "OMB_INTERNAL";
  process.stderr.write(`error ${code}: ${message}\n`);
  if (process.env.OPENAPI_MCP_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return 1;
}
