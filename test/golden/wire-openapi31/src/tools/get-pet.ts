/**
 * Get one pet.
 * Returns an object: id, name, tag.
 *
 * Tool `getPet`: `GET /pets/{petId}`.
 * Tags: pets.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getPet` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  petId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getPet",
  title: "Get one pet",
  description: "Get one pet.\nReturns an object: id, name, tag.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
      },
    },
    required: ["petId"],
    additionalProperties: false,
  },
  resultFields: {
    fields: {
      id: {},
      name: {},
      tag: {},
    },
  },
  annotations: {
    title: "Get one pet",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pets/{petId}",
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
    security: [],
    responses: [
      {
        status: "200",
        description: "The pet",
        mediaTypes: ["application/json"],
      },
      {
        status: "404",
        description: "Pet not found",
        mediaTypes: ["application/json"],
      },
      {
        status: "429",
        description: "Slow down, rate limit reached",
        mediaTypes: ["application/json"],
      },
      {
        status: "500",
        description: "The server broke",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1pets~1{petId}/get",
    operationId: "getPet",
  },
  tags: ["pets"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
