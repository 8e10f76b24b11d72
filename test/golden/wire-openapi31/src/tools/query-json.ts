/**
 * Read /query/json (query).
 * Returns JSON.
 *
 * Tool `queryJson`: `GET /query/json`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `queryJson` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  filter?: {
    a?: number;
    b?: string;
  };
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryJson",
  title: "Query json",
  description: "Read /query/json (query).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      filter: {
        type: "object",
        properties: {
          a: {
            type: "integer",
          },
          b: {
            type: "string",
          },
        },
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Query json",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/json",
    parameters: [
      {
        argument: "filter",
        name: "filter",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "object",
        contentType: "application/json",
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
    pointer: "/paths/~1query~1json/get",
    operationId: "queryJson",
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
