/**
 * Updates a pet in the store with form data.
 *
 * Tool `updatePetWithForm`: `POST /pet/{petId}`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `updatePetWithForm` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /**
   * ID of pet that needs to be updated
   * Format: int64.
   */
  petId: number;
  /** Updated name of the pet */
  name?: string;
  /** Updated status of the pet */
  status?: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "updatePetWithForm",
  title: "Updates a pet in the store with form data",
  description: "Updates a pet in the store with form data.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
        description: "ID of pet that needs to be updated",
      },
      name: {
        description: "Updated name of the pet",
        type: "string",
      },
      status: {
        description: "Updated status of the pet",
        type: "string",
      },
    },
    required: ["petId"],
    additionalProperties: false,
  },
  annotations: {
    title: "Updates a pet in the store with form data",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
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
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
      {
        status: "405",
        description: "Invalid input",
        mediaTypes: [],
      },
    ],
    accept: [],
    body: {
      mediaType: "application/x-www-form-urlencoded",
      required: false,
      mode: "properties",
      kind: "form",
      properties: [
        {
          argument: "name",
          name: "name",
          shape: "primitive",
        },
        {
          argument: "status",
          name: "status",
          shape: "primitive",
        },
      ],
    },
  },
  source: {
    pointer: "/paths/~1pet~1{petId}/post",
    operationId: "updatePetWithForm",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
