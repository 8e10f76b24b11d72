/**
 * Wire API 1.0.0: the model this MCP server runs.
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
    title: "Wire API",
    version: "1.0.0",
    description: "One operation per serialisation rule, for exact on-the-wire tests.",
    specVersion: "3.1",
  },
  servers: [
    {
      url: "https://wire.example.test/api/v1",
      variables: {},
    },
  ],
  securitySchemes: {
    bearerAuth: {
      type: "http",
      scheme: "bearer",
    },
    basicAuth: {
      type: "http",
      scheme: "basic",
    },
    apiKeyHeader: {
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    },
    apiKeyQuery: {
      type: "apiKey",
      in: "query",
      name: "api_key",
    },
    apiKeyCookie: {
      type: "apiKey",
      in: "cookie",
      name: "api_session",
    },
  },
  tools: tools,
  diagnostics: [],
  searchIndex: searchIndex,
};

/** The hooks of `./hooks.ts`, by tool name, as the runtime takes them (own properties only). */
export const hooks = userHooks as Record<string, ToolHooks<object>>;
