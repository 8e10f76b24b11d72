/** How the command line reports an error: diagnostics on stderr, never a stack trace. */
import { CommanderError } from "commander";
import type { DiagnosticCode } from "../model/diagnostic-codes.js";
import { BridgeError, formatDiagnostics } from "../model/diagnostics.js";
import { getOptionSpec, OPTION_KEYS } from "../runtime/config/option-table.js";
import { OPTION_INVALID, OPTION_UNKNOWN } from "../runtime/config/read-settings.js";

/**
 * Options that are each fine but together (with the spec) cannot work: the codes of
 * runtime/config/check-start.ts and of serve.
 */
const CONFIGURATION_CODES: ReadonlySet<string> = new Set<DiagnosticCode>([
  "OMB_AUTH_CONFIG",
  "OMB_AUTH_SCHEME_UNKNOWN",
  "OMB_SERVER_URL",
  "OMB_SERVER_VARIABLE",
  "OMB_SELECTION_EMPTY",
  "OMB_AUDIT_LOG_UNWRITABLE",
  "OMB_STDIN_CONFLICT",
  "OMB_NAMESPACE",
  "OMB_BRIDGE_CONFIG",
  "OMB_API_OPTION_SHARED",
  "OMB_API_VARIABLE",
  "OMB_WATCH",
  "OMB_SPEC_MISSING",
]);

/**
 * True for the codes of a bad option (a value, or a flag) or of options that cannot work
 * together: usage errors, exit code 2 where the command line has such a convention.
 */
function isOptionErrorCode(code: string): boolean {
  return (
    code === OPTION_INVALID ||
    code === OPTION_UNKNOWN ||
    CONFIGURATION_CODES.has(code) ||
    OPTION_KEYS.some((key) => getOptionSpec(key).code === code)
  );
}

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
