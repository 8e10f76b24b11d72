/**
 * A body property and a query parameter share the path parameter's name.
 * Returns JSON.
 *
 * Tool `updateThing`: `PUT /things/{id}`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `updateThing` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Sent as the path parameter "id"; the query parameter is `id__query`, the body property is `id__body`. */
  id: string;
  /** Sent as the query parameter "id"; the path parameter is `id`, the body property is `id__body`. */
  id__query: number;
  /** Sent as the body property "id"; the path parameter is `id`, the query parameter is `id__query`. */
  id__body: string;
  name: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "updateThing",
  title: "A body property and a query parameter share the path parameter's name",
  description: "A body property and a query parameter share the path parameter's name.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      id: {
        type: "string",
        description: "Sent as the path parameter \"id\"; the query parameter is `id__query`, the body property is `id__body`.",
      },
      id__query: {
        type: "integer",
        description: "Sent as the query parameter \"id\"; the path parameter is `id`, the body property is `id__body`.",
      },
      id__body: {
        type: "string",
        description: "Sent as the body property \"id\"; the path parameter is `id`, the query parameter is `id__query`.",
      },
      name: {
        type: "string",
      },
    },
    required: ["id", "id__query", "id__body", "name"],
    additionalProperties: false,
  },
  annotations: {
    title: "A body property and a query parameter share the path parameter's name",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "put",
    path: "/things/{id}",
    parameters: [
      {
        argument: "id",
        name: "id",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "id__query",
        name: "id",
        in: "query",
        required: true,
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
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
    body: {
      mediaType: "application/json",
      required: true,
      mode: "properties",
      kind: "json",
      properties: [
        {
          argument: "id__body",
          name: "id",
          shape: "primitive",
        },
        {
          argument: "name",
          name: "name",
          shape: "primitive",
        },
      ],
    },
  },
  source: {
    pointer: "/paths/~1things~1{id}/put",
    operationId: "updateThing",
  },
  tags: ["body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
