/**
 * Finds Pets by status.
 * Multiple status values can be provided with comma separated strings
 * Returns a list of Pet (id, category, name, tags, status, photoUrls).
 *
 * Tool `findPetsByStatus`: `GET /pet/findByStatus`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `findPetsByStatus` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Status values that need to be considered for filter */
  status: Array<"available" | "pending" | "sold">;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "findPetsByStatus",
  title: "Finds Pets by status",
  description: "Finds Pets by status.\nMultiple status values can be provided with comma separated strings\nReturns a list of Pet (id, category, name, tags, status, photoUrls).",
  inputSchema: {
    type: "object",
    properties: {
      status: {
        type: "array",
        items: {
          type: "string",
          enum: ["available", "pending", "sold"],
          default: "available",
        },
        description: "Status values that need to be considered for filter",
        minItems: 1,
      },
    },
    required: ["status"],
    additionalProperties: false,
  },
  resultFields: {
    list: true,
    fields: {
      id: {},
      category: {
        fields: {
          id: {},
          name: {},
        },
      },
      name: {},
      tags: {
        list: true,
        fields: {
          id: {},
          name: {},
        },
      },
      status: {},
    },
    links: ["photoUrls"],
  },
  annotations: {
    title: "Finds Pets by status",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pet/findByStatus",
    parameters: [
      {
        argument: "status",
        name: "status",
        in: "query",
        required: true,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "array",
      },
    ],
    security: [
      {
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
      {
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/xml", "application/json"],
      },
      {
        status: "400",
        description: "Invalid status value",
        mediaTypes: [],
      },
    ],
    accept: ["application/json", "application/xml"],
  },
  source: {
    pointer: "/paths/~1pet~1findByStatus/get",
    operationId: "findPetsByStatus",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
