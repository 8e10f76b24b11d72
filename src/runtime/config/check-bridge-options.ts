/**
 * The library's start checks: a BridgeOptions made by a program meets the rules `--timeout`,
 * `--base-url`, `--auth` and the rest meet on the command line (the option table's parsers,
 * check-start.ts, check-missing-credentials.ts), once, when the runtime is created, rather than
 * failing at the first call. What is refused throws a BridgeError with every problem at once,
 * each naming the option as the program wrote it (`options.baseUrl`); warnings go to
 * `options.onWarning`, by default one line each on stderr (never stdout: a stdio server's).
 */
import {
  BridgeError,
  type CodedDiagnostic,
  createDiagnostic,
  formatDiagnostic,
} from "../../model/diagnostics.js";
import type { BridgeModel, Diagnostic } from "../../model/types.js";
import { selectModel } from "../access/select.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import type { HttpServerOptions } from "../transport/transport-options.js";
import { checkMissingCredentials } from "./check-missing-credentials.js";
import { checkStart } from "./check-start.js";
import {
  HTTP_SERVER_OPTION_PATHS,
  LIBRARY_OPTION_PATHS,
  type LibraryOptionKey,
  nameOption,
} from "./library-options.js";
import { getOptionSpec, type Settings } from "./option-table.js";
import { OPTION_INVALID } from "./read-settings.js";
import { checkTypedValue, OptionValueError } from "./value-parsers.js";

/** Where the library's options are described, for hints. */
const LIBRARY_HELP = "BridgeOptions (docs/library.md) describes the options";

/** The warnings of a good start; throws a BridgeError with every error found. */
export function checkBridgeOptions(model: BridgeModel, options: BridgeOptions): CodedDiagnostic[] {
  const refused = checkValues(options);
  if (refused.length > 0) throw new BridgeError(refused);
  const tools = selectModel(model, options.access).tools;
  const passThrough = options.passThroughHeaders ?? {};
  const settings: Settings = {
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.serverVariables !== undefined ? { serverVar: options.serverVariables } : {}),
    ...(options.auth !== undefined ? { auth: options.auth } : {}),
    ...(options.oauth !== undefined
      ? { oauthClient: Object.fromEntries(Object.keys(options.oauth).map((name) => [name, ""])) }
      : {}),
    // Pass-through headers are per request of a Streamable HTTP server the program runs.
    ...(Object.keys(passThrough).length > 0 ? { passThroughHeader: passThrough } : {}),
  };
  const audience = "library";
  const warnings = checkStart({
    model,
    tools,
    settings,
    // Everything is the program's option here: there is no auth config file.
    auth: { auth: {}, oauth: options.oauth ?? {}, passThroughHeaders: {} },
    env: options.env ?? process.env,
    serverVariables: options.serverVariables ?? {},
    audience,
  });
  warnings.push(...checkMissingCredentials({ model, tools, options, audience }));
  return warnings;
}

/** Says each warning of the start, through `options.onWarning` or on stderr. */
export function reportWarnings(options: BridgeOptions, warnings: readonly Diagnostic[]): void {
  const report =
    options.onWarning ??
    ((warning: Diagnostic) => process.stderr.write(`openapi-mcp-bridge: ${formatDiagnostic(warning)}\n`));
  for (const warning of warnings) report(warning);
}

/**
 * startHttpServer's options against the rules of `--port`, `--max-body-bytes` and the rest;
 * throws a BridgeError with every bad value.
 */
export function checkHttpServerOptions(options: HttpServerOptions): void {
  const refused = checkValues(options, HTTP_SERVER_OPTION_PATHS);
  if (refused.length > 0) throw new BridgeError(refused);
}

/** Each option's value against its parser's rules: all the bad ones. */
function checkValues(
  options: BridgeOptions | HttpServerOptions,
  paths: Partial<Record<LibraryOptionKey, string>> = LIBRARY_OPTION_PATHS,
): CodedDiagnostic[] {
  const found: CodedDiagnostic[] = [];
  for (const [key, path] of Object.entries(paths) as [LibraryOptionKey, string][]) {
    // OAuth2 clients are objects here, not the flag's `SCHEME=ID` text: checkStart checks them.
    if (key === "oauthClient") continue;
    const value = readPath(options, path);
    if (value === undefined) continue;
    const spec = getOptionSpec(key);
    try {
      checkTypedValue(spec.parser, value);
    } catch (error) {
      if (!(error instanceof OptionValueError)) throw error;
      const name = nameOption("library", key);
      const note = error.note !== undefined ? ` (${error.note})` : "";
      found.push(
        createDiagnostic(spec.code ?? OPTION_INVALID, `${name}: ${error.message}`, {
          hint: `${name} takes ${spec.parser.expected}${note}; ${LIBRARY_HELP}`,
        }),
      );
    }
  }
  return found;
}

/** `retry.retries` of the options; undefined where a step is not an object (`circuitBreaker: false`). */
function readPath(options: BridgeOptions | HttpServerOptions, path: string): unknown {
  let value: unknown = options;
  for (const step of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}
