/**
 * Path simple explode.
 * Returns JSON. Required: arr.
 *
 * Tool `pathSimpleExplode`: `GET /path/simple-explode/{arr}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `pathSimpleExplode` after validation: what its `beforeCall` hook receives. */
export interface Args {
  arr: number[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "pathSimpleExplode",
  title: "Path simple explode",
  description: "Path simple explode.\nReturns JSON. Required: arr.",
  inputSchema: {
    type: "object",
    properties: {
      arr: {
        type: "array",
        items: {
          type: "integer",
        },
        minItems: 1,
      },
    },
    required: ["arr"],
    additionalProperties: false,
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
