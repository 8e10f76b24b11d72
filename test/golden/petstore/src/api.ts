/**
 * Swagger Petstore 1.0.0: the model this MCP server runs.
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
    title: "Swagger Petstore",
    version: "1.0.0",
    description: "This is a sample server Petstore server. You can find out more about Swagger at http://swagger.io or on irc.freenode.net, #swagger. For this sample, you can use the api key special-key to test the authorization filters.",
    specVersion: "3.0",
  },
  servers: [
    {
      url: "http://petstore.swagger.io/v2",
      variables: {},
    },
  ],
  securitySchemes: {
    petstore_auth: {
      type: "oauth2",
      flows: {
        implicit: {
          authorizationUrl: "http://petstore.swagger.io/oauth/dialog",
          scopes: {
            "write:pets": "modify pets in your account",
            "read:pets": "read your pets",
          },
        },
      },
    },
    api_key: {
      type: "apiKey",
      in: "header",
      name: "api_key",
    },
  },
  tools: tools,
  diagnostics: [],
  searchIndex: searchIndex,
};

/** The hooks of `./hooks.ts`, by tool name, as the runtime takes them (own properties only). */
export const hooks = userHooks as Record<string, ToolHooks<object>>;
