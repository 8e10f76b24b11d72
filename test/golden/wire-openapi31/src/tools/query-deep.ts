/**
 * Read /query/deep (query).
 * Returns JSON.
 *
 * Tool `queryDeep`: `GET /query/deep`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `queryDeep` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  color?: Color;
}

export type Color = {
  R?: number;
  G?: number;
  B?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryDeep",
  title: "Query deep",
  description: "Read /query/deep (query).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      color: {
        $ref: "#/$defs/Color",
      },
    },
    additionalProperties: false,
    $defs: {
      Color: {
        type: "object",
        properties: {
          R: {
            type: "integer",
          },
          G: {
            type: "integer",
          },
          B: {
            type: "integer",
          },
        },
      },
    },
  },
  annotations: {
    title: "Query deep",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/deep",
    parameters: [
      {
        argument: "color",
        name: "color",
        in: "query",
        required: false,
        style: "deepObject",
        explode: true,
        allowReserved: false,
        shape: "object",
      },
    ],
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
    pointer: "/paths/~1query~1deep/get",
    operationId: "queryDeep",
  },
  tags: ["query"],
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
