/**
 * Read /clash-two.
 * Returns no content.
 *
 * Tool `clash_name`: `GET /clash-two`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `clash_name` after validation: what `hooks.beforeCall` receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "clash_name",
  title: "Clash name",
  description: "Read /clash-two.\nReturns no content.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Clash name",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/clash-two",
    parameters: [],
    security: [],
    responses: [
      {
        status: "204",
        description: "ok",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1clash-two/get",
    operationId: "clash_name",
  },
  tags: [],
  deprecated: false,
};

/**
 * Hooks around this tool's HTTP call; fill them in to change what is sent or returned.
 * `beforeCall` gets the arguments after validation and returns the arguments to send.
 * `afterCall` gets the result (a success or an upstream error) and returns the result to give
 * back; configured secrets are still redacted after it. A hook that throws gives an error result.
 */
export const hooks: ToolHooks<Args> = {
  beforeCall(args) {
    return args;
  },
  afterCall(result) {
    return result;
  },
};
