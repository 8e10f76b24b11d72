/**
 * Path simple.
 * Returns JSON. Required: prim, arr.
 *
 * Tool `pathSimple`: `GET /path/simple/{prim}/{arr}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `pathSimple` after validation: what its `beforeCall` hook receives. */
export interface Args {
  prim: number;
  arr: number[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathSimple",
  title: "Path simple",
  description: "Path simple.\nReturns JSON. Required: prim, arr.",
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
    },
    required: ["prim", "arr"],
    additionalProperties: false,
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
