/**
 * Read /exactly-64.
 * Returns no content.
 *
 * Tool `a234567890123456789012345678901234567890123456789012345678901234`: `GET /exactly-64`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `a234567890123456789012345678901234567890123456789012345678901234` after validation: what `hooks.beforeCall` receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "a234567890123456789012345678901234567890123456789012345678901234",
  title: "A234567890123456789012345678901234567890123456789012345678901234",
  description: "Read /exactly-64.\nReturns no content.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "A234567890123456789012345678901234567890123456789012345678901234",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/exactly-64",
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
    pointer: "/paths/~1exactly-64/get",
    operationId: "a234567890123456789012345678901234567890123456789012345678901234",
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
