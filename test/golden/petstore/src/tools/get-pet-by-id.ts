/**
 * Find pet by ID.
 * Returns a single pet
 * Returns an object: id, category, name, tags, status, photoUrls.
 *
 * Tool `getPetById`: `GET /pet/{petId}`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getPetById` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /**
   * ID of pet to return
   * Format: int64.
   */
  petId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getPetById",
  title: "Find pet by ID",
  description: "Find pet by ID.\nReturns a single pet\nReturns an object: id, category, name, tags, status, photoUrls.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
        description: "ID of pet to return",
      },
    },
    required: ["petId"],
    additionalProperties: false,
  },
  resultFields: {
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
    title: "Find pet by ID",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pet/{petId}",
    parameters: [
      {
        argument: "petId",
        name: "petId",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
    ],
    security: [
      {
        api_key: [],
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
        description: "Invalid ID supplied",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "Pet not found",
        mediaTypes: [],
      },
      {
        status: "DEFAULT",
        description: "successful response",
        mediaTypes: [],
      },
    ],
    accept: ["application/json", "application/xml"],
  },
  source: {
    pointer: "/paths/~1pet~1{petId}/get",
    operationId: "getPetById",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
