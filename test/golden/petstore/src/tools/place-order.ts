/**
 * Place an order for a pet.
 * Returns an object: id, petId, quantity, shipDate, status, complete.
 *
 * Tool `placeOrder`: `POST /store/order`.
 * Tags: store.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `placeOrder` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  id?: number;
  /** Format: int64. */
  petId?: number;
  /** Format: int32. */
  quantity?: number;
  /** Format: date-time. */
  shipDate?: string;
  /** Order Status */
  status?: "placed" | "approved" | "delivered";
  /** @defaultValue false */
  complete?: boolean;
  extraProperties?: Record<string, unknown>;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "placeOrder",
  title: "Place an order for a pet",
  description: "Place an order for a pet.\nReturns an object: id, petId, quantity, shipDate, status, complete.",
  inputSchema: {
    type: "object",
    properties: {
      id: {
        type: "integer",
        format: "int64",
      },
      petId: {
        type: "integer",
        format: "int64",
      },
      quantity: {
        type: "integer",
        format: "int32",
      },
      shipDate: {
        type: "string",
        format: "date-time",
      },
      status: {
        type: "string",
        description: "Order Status",
        enum: ["placed", "approved", "delivered"],
      },
      complete: {
        type: "boolean",
        default: false,
      },
      extraProperties: {
        type: "object",
      },
    },
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
    title: "Place an order for a pet",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/store/order",
    parameters: [],
    security: [],
    responses: [
      {
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/xml", "application/json"],
      },
      {
        status: "400",
        description: "Invalid Order",
        mediaTypes: [],
      },
    ],
    accept: ["application/json", "application/xml"],
    body: {
      mediaType: "application/json",
      required: true,
      mode: "properties",
      kind: "json",
      properties: [
        {
          argument: "id",
          name: "id",
          shape: "primitive",
        },
        {
          argument: "petId",
          name: "petId",
          shape: "primitive",
        },
        {
          argument: "quantity",
          name: "quantity",
          shape: "primitive",
        },
        {
          argument: "shipDate",
          name: "shipDate",
          shape: "primitive",
        },
        {
          argument: "status",
          name: "status",
          shape: "primitive",
        },
        {
          argument: "complete",
          name: "complete",
          shape: "primitive",
        },
      ],
      extraArgument: "extraProperties",
    },
  },
  source: {
    pointer: "/paths/~1store~1order/post",
    operationId: "placeOrder",
  },
  tags: ["store"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
