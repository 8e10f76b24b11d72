/**
 * Find purchase order by ID.
 * For valid response try integer IDs with value >= 1 and <= 10. Other values will generated exceptions
 *
 * Tool `getOrderById`: `GET /store/order/{orderId}`.
 * Tags: store.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getOrderById` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /**
   * ID of pet that needs to be fetched
   * Format: int64.
   */
  orderId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getOrderById",
  title: "Find purchase order by ID",
  description: "Find purchase order by ID.\nFor valid response try integer IDs with value >= 1 and <= 10. Other values will generated exceptions",
  inputSchema: {
    type: "object",
    properties: {
      orderId: {
        type: "integer",
        format: "int64",
        minimum: 1,
        maximum: 10,
        description: "ID of pet that needs to be fetched",
      },
    },
    required: ["orderId"],
    additionalProperties: false,
  },
  resultFields: {
    fields: {
      id: {},
      petId: {},
      quantity: {},
      shipDate: {},
      status: {},
      complete: {},
    },
  },
  annotations: {
    title: "Find purchase order by ID",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
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
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/xml", "application/json"],
      },
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
    accept: ["application/json", "application/xml"],
  },
  source: {
    pointer: "/paths/~1store~1order~1{orderId}/get",
    operationId: "getOrderById",
  },
  tags: ["store"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
