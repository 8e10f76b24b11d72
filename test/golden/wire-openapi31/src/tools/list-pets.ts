/**
 * List pets.
 * Returns a list of Pet (id, name, tag); pages: limit.
 *
 * Tool `listPets`: `GET /pets`.
 * Tags: pets.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `listPets` after validation: what its `beforeCall` hook receives. */
export interface Args {
  limit?: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "listPets",
  title: "List pets",
  description: "List pets.\nReturns a list of Pet (id, name, tag); pages: limit.",
  inputSchema: {
    type: "object",
    properties: {
      limit: {
        type: "integer",
        minimum: 1,
        maximum: 100,
      },
    },
    additionalProperties: false,
  },
  resultFields: {
    list: true,
    fields: {
      id: {},
      name: {},
      tag: {},
    },
  },
  annotations: {
    title: "List pets",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pets",
    parameters: [
      {
        argument: "limit",
        name: "limit",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
    ],
    security: [],
    responses: [
      {
        status: "200",
        description: "A JSON array of pets",
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
    pointer: "/paths/~1pets/get",
    operationId: "listPets",
  },
  tags: ["pets"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
