/**
 * Path matrix.
 * Returns JSON. Required: prim, arr, obj.
 *
 * Tool `pathMatrix`: `GET /path/matrix/{prim}/{arr}/{obj}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `pathMatrix` after validation: what its `beforeCall` hook receives. */
export interface Args {
  prim: number;
  arr: number[];
  obj: Color;
}

export type Color = {
  R?: number;
  G?: number;
  B?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathMatrix",
  title: "Path matrix",
  description: "Path matrix.\nReturns JSON. Required: prim, arr, obj.",
  inputSchema: {
    type: "object",
    properties: {
      prim: {
        type: "integer",
      },
      arr: {
        type: "array",
        items: {
          type: "integer",
        },
        minItems: 1,
      },
      obj: {
        $ref: "#/$defs/Color",
        minProperties: 1,
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
