/**
 * Read /path/simple/{prim}/{arr} (path).
 * Returns JSON. Required: prim, arr.
 *
 * Tool `pathSimple`: `GET /path/simple/{prim}/{arr}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `pathSimple` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  prim: number;
  arr: IntList;
}

export type IntList = number[];

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathSimple",
  title: "Path simple",
  description: "Read /path/simple/{prim}/{arr} (path).\nReturns JSON. Required: prim, arr.",
  inputSchema: {
    type: "object",
    properties: {
      prim: {
        type: "integer",
      },
      arr: {
        $ref: "#/$defs/IntList",
      },
    },
    required: ["prim", "arr"],
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
    title: "Path simple",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/path/simple/{prim}/{arr}",
    parameters: [
      {
        argument: "prim",
        name: "prim",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "arr",
        name: "arr",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
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
    pointer: "/paths/~1path~1simple~1{prim}~1{arr}/get",
    operationId: "pathSimple",
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
