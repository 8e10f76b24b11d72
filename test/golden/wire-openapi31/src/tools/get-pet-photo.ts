/**
 * Download the pet's photo.
 * Returns image/png.
 *
 * Tool `getPetPhoto`: `GET /pets/{petId}/photo`.
 * Tags: pets.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getPetPhoto` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  petId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getPetPhoto",
  title: "Download the pet's photo",
  description: "Download the pet's photo.\nReturns image/png.",
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
    title: "Download the pet's photo",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pets/{petId}/photo",
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
        description: "A PNG image",
        mediaTypes: ["image/png"],
      },
      {
        status: "404",
        description: "Pet not found",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["image/png"],
  },
  source: {
    pointer: "/paths/~1pets~1{petId}~1photo/get",
    operationId: "getPetPhoto",
  },
  tags: ["pets"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
