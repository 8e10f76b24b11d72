/**
 * Get an item by a free-form string id.
 * Returns JSON.
 *
 * Tool `getItem`: `GET /items/{itemId}`.
 * Tags: path.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getItem` after validation: what its `beforeCall` hook receives. */
export interface Args {
  itemId: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getItem",
  title: "Get an item by a free-form string id",
  description: "Get an item by a free-form string id.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      itemId: {
        type: "string",
      },
    },
    required: ["itemId"],
    additionalProperties: false,
  },
  annotations: {
    title: "Get an item by a free-form string id",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/items/{itemId}",
    parameters: [
      {
        argument: "itemId",
        name: "itemId",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
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
    pointer: "/paths/~1items~1{itemId}/get",
    operationId: "getItem",
  },
  tags: ["path"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
