/**
 * Delete one pet.
 * Returns no content.
 *
 * Tool `deletePet`: `DELETE /pets/{petId}`.
 * Tags: pets.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `deletePet` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  petId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "deletePet",
  title: "Delete one pet",
  description: "Delete one pet.\nReturns no content.",
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
  annotations: {
    title: "Delete one pet",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "delete",
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
        status: "204",
        description: "Deleted",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "Pet not found",
        mediaTypes: ["application/json"],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1pets~1{petId}/delete",
    operationId: "deletePet",
  },
  tags: ["pets"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
