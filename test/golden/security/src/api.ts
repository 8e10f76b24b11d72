/**
 * Security requirements 1.0.0: the model this MCP server runs.
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
    title: "Security requirements",
    version: "1.0.0",
    specVersion: "3.1",
  },
  servers: [
    {
      url: "https://security.example.test",
      variables: {},
    },
  ],
  securitySchemes: {
    "my-key.v2": {
      type: "apiKey",
      in: "header",
      name: "X-Key",
    },
    queryKey: {
      type: "apiKey",
      in: "query",
      name: "key",
    },
    OAuth2: {
      type: "oauth2",
      flows: {
        clientCredentials: {
          tokenUrl: "https://security.example.test/token",
          scopes: {
            read: "read things",
          },
        },
      },
    },
    oidc: {
      type: "openIdConnect",
      openIdConnectUrl: "https://security.example.test/.well-known/openid-configuration",
    },
  },
  tools: tools,
  diagnostics: [],
  searchIndex: searchIndex,
};

/** The hooks of `./hooks.ts`, by tool name, as the runtime takes them (own properties only). */
export const hooks = userHooks as Record<string, ToolHooks<object>>;
