/**
 * Query deep.
 * Returns JSON.
 *
 * Tool `queryDeep`: `GET /query/deep`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `queryDeep` after validation: what its `beforeCall` hook receives. */
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
  description: "Query deep.\nReturns JSON.",
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
