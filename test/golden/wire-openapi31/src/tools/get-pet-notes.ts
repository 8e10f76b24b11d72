/**
 * Read the pet's notes as plain text.
 * Returns text/plain.
 *
 * Tool `getPetNotes`: `GET /pets/{petId}/notes`.
 * Tags: pets.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getPetNotes` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  petId: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getPetNotes",
  title: "Read the pet's notes as plain text",
  description: "Read the pet's notes as plain text.\nReturns text/plain.",
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
    title: "Read the pet's notes as plain text",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pets/{petId}/notes",
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
        description: "The notes",
        mediaTypes: ["text/plain"],
      },
      {
        status: "404",
        description: "Pet not found",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["text/plain"],
  },
  source: {
    pointer: "/paths/~1pets~1{petId}~1notes/get",
    operationId: "getPetNotes",
  },
  tags: ["pets"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
