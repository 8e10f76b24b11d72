/** openapi-mcp-bridge command line: errors as diagnostics on stderr, never a stack trace. */
import { Command } from "commander";
import { BRIDGE_VERSION } from "../runtime/version.js";
import { createCatalogCommand } from "./catalog.js";
import { createDiffCommand } from "./diff.js";
import { createGenerateCommand } from "./generate.js";
import { createInstallCommand, createUninstallCommand } from "./install.js";
import { createLintCommand } from "./lint.js";
import { createModelCommand } from "./model.js";
import { reportError } from "./report-error.js";
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
  createCatalogCommand(),
  createDiffCommand(),
  createInstallCommand(),
  createUninstallCommand(),
]) {
  program.addCommand(command.exitOverride().configureOutput({ writeErr: (s) => process.stderr.write(s) }));
}

// Not a top-level await: scripts/bundle-cli.mjs makes the command CommonJS, which has none.
program.parseAsync(process.argv).catch((error: unknown) => {
  process.exitCode = reportError(error);
});
