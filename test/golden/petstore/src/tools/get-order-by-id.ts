/**
 * Find purchase order by ID.
 * For valid response try integer IDs with value >= 1 and <= 10.
 * Returns an object: id, petId, quantity, shipDate, status, complete. Errors: 400, 404.
 *
 * Tool `getOrderById`: `GET /store/order/{orderId}`.
 * Tags: store.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `getOrderById` after validation: what `hooks.beforeCall` receives. */
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
  description: "Find purchase order by ID.\nFor valid response try integer IDs with value >= 1 and <= 10.\nReturns an object: id, petId, quantity, shipDate, status, complete. Errors: 400, 404.",
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
