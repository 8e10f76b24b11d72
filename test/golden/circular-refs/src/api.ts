/**
 * Circular refs 1.0.0: the model this MCP server runs.
 *
 * The tools live in `./tools/`, one module each, with their hooks. The runtime in
 * `./runtime/` is the openapi-mcp-bridge runtime, copied unchanged but for `version.ts`
 * (this server's name and version).
 */
import { type BridgeModel, IR_VERSION } from "./model/types.js";
import { searchIndex } from "./search-index.js";
import { hooks, tools } from "./tools/index.js";

/** The API: where it is, how it authenticates, and its tools. */
export const model: BridgeModel = {
  irVersion: IR_VERSION,
  info: {
    title: "Circular refs",
    version: "1.0.0",
    specVersion: "3.1",
  },
  servers: [
    {
      url: "https://refs.example.test",
      variables: {},
    },
  ],
  securitySchemes: {},
  tools: tools,
  diagnostics: [],
  searchIndex: searchIndex,
};

export { hooks };
