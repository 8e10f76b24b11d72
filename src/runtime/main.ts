/**
 * A generated server's whole command line: its flags parsed by node:util parseArgs from the
 * option table (a generated project has no commander), `--help` rendered from the table, then
 * readSettings and startServer as `serve` does. Problems are one coded diagnostic on stderr,
 * never a stack trace: exit code 2 for a usage or configuration problem, 1 when the server
 * could not listen or something unexpected happened.
 */
import { parseArgs } from "node:util";
import { BridgeError, createDiagnostic, formatDiagnostics } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import { renderHelp } from "./config/help-text.js";
import { getOptionSpec, OPTION_KEYS } from "./config/option-table.js";
import {
  type Environment,
  OPTION_INVALID,
  OPTION_UNKNOWN,
  readSettings,
  toRawFlags,
} from "./config/read-settings.js";
import type { BridgeOptions } from "./engine/bridge-options.js";
import { LISTEN_FAILED, PORT_IN_USE, startServer } from "./start-server.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "./version.js";

export interface RunServerOptions {
  hooks?: BridgeOptions["hooks"];
  /** The arguments after the script (default: `process.argv.slice(2)`). */
  argv?: string[];
  /** Default: `process.env`. */
  env?: Environment;
  /** How the server is started, for `--help` and hints (default `node dist/index.js`). */
  command?: string;
}

type ParseArgsOptions = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

/** parseArgs's options for every flag of the table, `--help` and `--version`. */
function toParseArgsOptions(): ParseArgsOptions {
  const options: NonNullable<ParseArgsOptions> = { help: { type: "boolean" }, version: { type: "boolean" } };
  for (const key of OPTION_KEYS) {
    const spec = getOptionSpec(key);
    options[spec.flag] = {
      type: spec.parser.isSwitch ? "boolean" : "string",
      ...(spec.parser.repeatable ? { multiple: true } : {}),
    };
  }
  return options;
}

/** parseArgs's own errors (an unknown flag, a flag without its value) as diagnostics. */
function toUsageError(error: unknown, help: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) return error;
  const message = (error as Error).message;
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  const hint = `${help} lists every option`;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return new BridgeError([createDiagnostic(OPTION_UNKNOWN, `unknown option ${quoted}`, { hint })]);
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    return new BridgeError([
      createDiagnostic(OPTION_UNKNOWN, `unexpected argument "${quoted}": the server takes options only`, {
        hint,
      }),
    ]);
  }
  const flag = /'(--[^' ]+)/.exec(message)?.[1];
  const problem =
    flag === undefined
      ? message
      : /argument missing/.test(message)
        ? `${flag}: the value is missing`
        : /does not take an argument/.test(message)
          ? `${flag} takes no value`
          : message;
  return new BridgeError([createDiagnostic(OPTION_INVALID, problem, { hint })]);
}

/** Runs the server the command line asks for; on failure, says why on stderr and sets the exit code. */
export async function runServer(model: BridgeModel, options: RunServerOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const command = options.command ?? "node dist/index.js";
  const help = `\`${command} --help\``;
  try {
    let values: Record<string, unknown>;
    try {
      values = parseArgs({
        args: options.argv ?? process.argv.slice(2),
        options: toParseArgsOptions(),
        strict: true,
        allowPositionals: false,
      }).values;
    } catch (error) {
      throw toUsageError(error, help);
    }
    if (values["help"] === true) {
      process.stderr.write(
        renderHelp(
          command,
          `Starts the ${model.info.title} MCP server over stdio (the default) or Streamable HTTP. ` +
            "Each option is also an environment variable (in brackets); flags win.",
        ),
      );
      return;
    }
    if (values["version"] === true) {
      // On stderr as --help: a server's stdout is the protocol's. BRIDGE_NAME is the project's package name in a generated server.
      process.stderr.write(`${model.info.title} ${model.info.version} (${BRIDGE_NAME} ${BRIDGE_VERSION})\n`);
      return;
    }
    const { help: _help, version: _version, ...flags } = values;
    const settings = readSettings(toRawFlags(flags), env, { help });
    await startServer(model, settings, {
      name: model.info.title,
      env,
      help,
      ...(options.hooks ? { hooks: options.hooks } : {}),
    });
  } catch (error) {
    process.exitCode = reportError(error, env);
  }
}

function reportError(error: unknown, env: Environment): number {
  if (error instanceof BridgeError) {
    process.stderr.write(`${formatDiagnostics(error.diagnostics)}\n`);
    return error.code === PORT_IN_USE || error.code === LISTEN_FAILED ? 1 : 2;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error OMB_INTERNAL: ${message}\n`);
  if ((env["OPENAPI_MCP_DEBUG"] || env["DEBUG"]) && error instanceof Error) {
    process.stderr.write(`${error.stack}\n`);
  }
  return 1;
}
