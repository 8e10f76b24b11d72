/**
 * Deletes a pet.
 *
 * Tool `deletePet`: `DELETE /pet/{petId}`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `deletePet` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /**
   * Pet id to delete
   * Format: int64.
   */
  petId: number;
  api_key?: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "deletePet",
  title: "Deletes a pet",
  description: "Deletes a pet.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
        description: "Pet id to delete",
      },
      api_key: {
        type: "string",
      },
    },
    required: ["petId"],
    additionalProperties: false,
  },
  annotations: {
    title: "Deletes a pet",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "delete",
    path: "/pet/{petId}",
    parameters: [
      {
        argument: "api_key",
        name: "api_key",
        in: "header",
        required: false,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
        credential: "secret",
      },
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
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
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
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1pet~1{petId}/delete",
    operationId: "deletePet",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
