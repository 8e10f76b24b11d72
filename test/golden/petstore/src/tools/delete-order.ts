/**
 * Delete purchase order by ID.
 * For valid response try integer IDs with positive integer value. Negative or non-integer values will generate API errors
 *
 * Tool `deleteOrder`: `DELETE /store/order/{orderId}`.
 * Tags: store.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `deleteOrder` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /**
   * ID of the order that needs to be deleted
   * Format: int64.
   */
  orderId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "deleteOrder",
  title: "Delete purchase order by ID",
  description: "Delete purchase order by ID.\nFor valid response try integer IDs with positive integer value. Negative or non-integer values will generate API errors",
  inputSchema: {
    type: "object",
    properties: {
      orderId: {
        type: "integer",
        format: "int64",
        minimum: 1,
        description: "ID of the order that needs to be deleted",
      },
    },
    required: ["orderId"],
    additionalProperties: false,
  },
  annotations: {
    title: "Delete purchase order by ID",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "delete",
    path: "/store/order/{orderId}",
    parameters: [
      {
        argument: "orderId",
        name: "orderId",
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
        status: "400",
        description: "Invalid ID supplied",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "Order not found",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1store~1order~1{orderId}/delete",
    operationId: "deleteOrder",
  },
  tags: ["store"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
