/**
 * Read /path/matrix/{prim}/{arr}/{obj} (path).
 * Returns JSON. Required: prim, arr, obj.
 *
 * Tool `pathMatrix`: `GET /path/matrix/{prim}/{arr}/{obj}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `pathMatrix` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  prim: number;
  arr: IntList;
  obj: Color;
}

export type Color = {
  R?: number;
  G?: number;
  B?: number;
};

export type IntList = number[];

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathMatrix",
  title: "Path matrix",
  description: "Read /path/matrix/{prim}/{arr}/{obj} (path).\nReturns JSON. Required: prim, arr, obj.",
  inputSchema: {
    type: "object",
    properties: {
      prim: {
        type: "integer",
      },
      arr: {
        $ref: "#/$defs/IntList",
      },
      obj: {
        $ref: "#/$defs/Color",
      },
    },
    required: ["prim", "arr", "obj"],
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
      IntList: {
        type: "array",
        items: {
          type: "integer",
        },
      },
    },
  },
  annotations: {
    title: "Path matrix",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/path/matrix/{prim}/{arr}/{obj}",
    parameters: [
      {
        argument: "prim",
        name: "prim",
        in: "path",
        required: true,
        style: "matrix",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "arr",
        name: "arr",
        in: "path",
        required: true,
        style: "matrix",
        explode: false,
        allowReserved: false,
        shape: "array",
      },
      {
        argument: "obj",
        name: "obj",
        in: "path",
        required: true,
        style: "matrix",
        explode: false,
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
    pointer: "/paths/~1path~1matrix~1{prim}~1{arr}~1{obj}/get",
    operationId: "pathMatrix",
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
