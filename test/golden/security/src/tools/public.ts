/**
 * Read /public.
 * Returns JSON.
 *
 * Tool `public`: `GET /public`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `public` after validation: what `hooks.beforeCall` receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "public",
  title: "Public",
  description: "Read /public.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Public",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/public",
    parameters: [],
    security: [],
    responses: [
      {
        status: "200",
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1public/get",
    operationId: "public",
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
