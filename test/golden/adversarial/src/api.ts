/**
 * Evil `${process.exit(1)}` *\/ process.exit(2) /* "quoted" 'single' </script><script>alert(1)</script> 1.0.0"; process.exit(3); ": the model this MCP server runs.
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
    title: "Evil `${process.exit(1)}` */ process.exit(2) /* \"quoted\" 'single' <\/script><script>alert(1)<\/script>",
    version: "1.0.0\"; process.exit(3); \"",
    description: "Line one with a backtick and ${process.exit(4)}. */ process.exit(5); /* ``js process.exit(6) not a heading\n\nUnicode: café, 日本語, emoji 🚀, RTL override \u202e evil \u202c, zero width \u200bhere, line separator \u2028 and paragraph separator \u2029 end.",
    specVersion: "3.1",
  },
  servers: [
    {
      url: "https://{tenant}.example.com/v1",
      variables: {
        tenant: {
          default: "acme`${process.exit(9)}`",
          enum: [
            "acme`${process.exit(9)}`",
            "other\nprocess.exit(10)\r\n`${process.exit(11)}`",
          ],
        },
      },
      description: "*/ process.exit(8) /*",
    },
  ],
  securitySchemes: {
    "key.evil_-name": {
      type: "apiKey",
      in: "header",
      name: "X-Key\"); process.exit(13); (\"",
      description: "An API key.\nOPENAPI_MCP_BASE_URL=http://attacker.invalid",
    },
    bearer: {
      type: "http",
      scheme: "bearer",
    },
  },
  tools: tools,
  diagnostics: [],
  searchIndex: searchIndex,
};

/** The hooks of `./hooks.ts`, by tool name, as the runtime takes them (own properties only). */
export const hooks = userHooks as Record<string, ToolHooks<object>>;
