#!/usr/bin/env node
/** openapi-mcp-bridge command line: errors as diagnostics on stderr, never a stack trace. */
import { Command, CommanderError } from "commander";
import type { DiagnosticCode } from "../model/diagnostic-codes.js";
import { BridgeError, formatDiagnostics } from "../model/diagnostics.js";
import { isOptionErrorCode } from "../runtime/settings/read-settings.js";
import { BRIDGE_VERSION } from "../runtime/version.js";
import { createGenerateCommand } from "./generate.js";
import { createInstallCommand, createUninstallCommand } from "./install.js";
import { createLintCommand } from "./lint.js";
import { createModelCommand } from "./model.js";
import { createServeCommand } from "./serve.js";
import { createToolsCommand } from "./tools.js";

const program = new Command("openapi-mcp-bridge")
  .description("Turn an OpenAPI description into Model Context Protocol tools")
  .version(BRIDGE_VERSION)
  .showHelpAfterError()
  .exitOverride()
  .configureOutput({ writeOut: (s) => process.stderr.write(s), writeErr: (s) => process.stderr.write(s) });

for (const command of [
  createServeCommand(),
  createToolsCommand(),
  createModelCommand(),
  createGenerateCommand(),
  createLintCommand(),
  createInstallCommand(),
  createUninstallCommand(),
]) {
  program.addCommand(command.exitOverride().configureOutput({ writeErr: (s) => process.stderr.write(s) }));
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}

function reportError(error: unknown): number {
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
