/**
 * Naming 1.0.0: the model this MCP server runs.
 *
 * The tools live in `./tools/`, one module each; their hooks in `./hooks.ts`. The runtime in
 * `./runtime/` is the openapi-mcp-bridge runtime, copied unchanged but for `version.ts`
 * (this server's name and version).
 */
import { type BridgeModel, IR_VERSION } from "./model/types.js";
import { hooks as userHooks } from "./hooks.js";
import type { ToolHooks } from "./runtime/engine/bridge-options.js";
import { searchIndex } from "./search-index.js";
import { tools } from "./tools/index.js";

/** The API: where it is, how it authenticates, and its tools. */
export const model: BridgeModel = {
  irVersion: IR_VERSION,
  info: {
    title: "Naming",
    version: "1.0.0",
    specVersion: "3.1",
  },
  servers: [
    {
      url: "https://names.example.test",
      variables: {},
    },
  ],
  securitySchemes: {},
  tools: tools,
  diagnostics: [],
  searchIndex: searchIndex,
};

/** The hooks of `./hooks.ts`, by tool name, as the runtime takes them (own properties only). */
export const hooks = userHooks as Record<string, ToolHooks<object>>;
