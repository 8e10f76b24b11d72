/**
 * Returns pet inventories by status.
 * Returns a map of status codes to quantities
 *
 * Tool `getInventory`: `GET /store/inventory`.
 * Tags: store.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getInventory` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getInventory",
  title: "Returns pet inventories by status",
  description: "Returns pet inventories by status.\nReturns a map of status codes to quantities",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Returns pet inventories by status",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/store/inventory",
    parameters: [],
    security: [
      {
        api_key: [],
      },
    ],
    responses: [
      {
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1store~1inventory/get",
    operationId: "getInventory",
  },
  tags: ["store"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
