/**
 * Query json.
 * Returns JSON.
 *
 * Tool `queryJson`: `GET /query/json`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `queryJson` after validation: what its `beforeCall` hook receives. */
export interface Args {
  filter?: {
    a?: number;
    b?: string;
  };
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryJson",
  title: "Query json",
  description: "Query json.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      filter: {
        type: "object",
        properties: {
          a: {
            type: "integer",
          },
          b: {
            type: "string",
          },
        },
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Query json",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/json",
    parameters: [
      {
        argument: "filter",
        name: "filter",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "object",
        contentType: "application/json",
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
  },
  source: {
    pointer: "/paths/~1query~1json/get",
    operationId: "queryJson",
  },
  tags: ["query"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
