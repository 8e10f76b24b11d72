#!/usr/bin/env node
/**
 * Starts this MCP server over stdio (the default: what Claude Desktop, Claude Code, Cursor and
 * VS Code start) or Streamable HTTP. Every option is a flag or an environment variable; flags
 * win; `--help` lists them. The options and the start are the runtime's
 * (`runtime/config/`), the same code as `openapi-mcp-bridge serve`.
 */
import { hooks, model } from "./api.js";
import { runServer } from "./runtime/main.js";

await runServer(model, { hooks, argv: process.argv.slice(2), env: process.env });
