/**
 * Path simple object.
 * Returns JSON. Required: obj, objExploded.
 *
 * Tool `pathSimpleObject`: `GET /path/simple-object/{obj}/{objExploded}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `pathSimpleObject` after validation: what its `beforeCall` hook receives. */
export interface Args {
  obj: Color;
  objExploded: Color;
}

export type Color = {
  R?: number;
  G?: number;
  B?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathSimpleObject",
  title: "Path simple object",
  description: "Path simple object.\nReturns JSON. Required: obj, objExploded.",
  inputSchema: {
    type: "object",
    properties: {
      obj: {
        $ref: "#/$defs/Color",
        minProperties: 1,
      },
      objExploded: {
        $ref: "#/$defs/Color",
        minProperties: 1,
      },
    },
    required: ["obj", "objExploded"],
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
    title: "Path simple object",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/path/simple-object/{obj}/{objExploded}",
    parameters: [
      {
        argument: "obj",
        name: "obj",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "object",
      },
      {
        argument: "objExploded",
        name: "objExploded",
        in: "path",
        required: true,
        style: "simple",
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
    pointer: "/paths/~1path~1simple-object~1{obj}~1{objExploded}/get",
    operationId: "pathSimpleObject",
  },
  tags: ["path"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
