/**
 * Read /path/simple-explode/{arr} (path).
 * Returns JSON. Required: arr.
 *
 * Tool `pathSimpleExplode`: `GET /path/simple-explode/{arr}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `pathSimpleExplode` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  arr: IntList;
}

export type IntList = number[];

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathSimpleExplode",
  title: "Path simple explode",
  description: "Read /path/simple-explode/{arr} (path).\nReturns JSON. Required: arr.",
  inputSchema: {
    type: "object",
    properties: {
      arr: {
        $ref: "#/$defs/IntList",
      },
    },
    required: ["arr"],
    additionalProperties: false,
    $defs: {
      IntList: {
        type: "array",
        items: {
          type: "integer",
        },
      },
    },
  },
  annotations: {
    title: "Path simple explode",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/path/simple-explode/{arr}",
    parameters: [
      {
        argument: "arr",
        name: "arr",
        in: "path",
        required: true,
        style: "simple",
        explode: true,
        allowReserved: false,
        shape: "array",
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
    pointer: "/paths/~1path~1simple-explode~1{arr}/get",
    operationId: "pathSimpleExplode",
  },
  tags: ["path"],
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
