/**
 * Append a note (text/plain body).
 * Returns JSON.
 *
 * Tool `addPetNote`: `POST /pets/{petId}/notes`.
 * Tags: pets, body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `addPetNote` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  petId: number;
  body: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "addPetNote",
  title: "Append a note (text/plain body)",
  description: "Append a note (text/plain body).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
      },
      body: {
        type: "string",
      },
    },
    required: ["petId", "body"],
    additionalProperties: false,
  },
  annotations: {
    title: "Append a note (text/plain body)",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
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
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
    body: {
      mediaType: "text/plain",
      required: true,
      mode: "value",
      kind: "text",
      argument: "body",
    },
  },
  source: {
    pointer: "/paths/~1pets~1{petId}~1notes/post",
    operationId: "addPetNote",
  },
  tags: ["pets", "body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
