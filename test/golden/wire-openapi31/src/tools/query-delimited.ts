/**
 * Query delimited.
 * Returns JSON.
 *
 * Tool `queryDelimited`: `GET /query/delimited`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `queryDelimited` after validation: what its `beforeCall` hook receives. */
export interface Args {
  spaced?: number[];
  piped?: number[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryDelimited",
  title: "Query delimited",
  description: "Query delimited.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      spaced: {
        type: "array",
        items: {
          type: "integer",
        },
      },
      piped: {
        type: "array",
        items: {
          type: "integer",
        },
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Query delimited",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/delimited",
    parameters: [
      {
        argument: "spaced",
        name: "spaced",
        in: "query",
        required: false,
        style: "spaceDelimited",
        explode: false,
        allowReserved: false,
        shape: "array",
      },
      {
        argument: "piped",
        name: "piped",
        in: "query",
        required: false,
        style: "pipeDelimited",
        explode: false,
        allowReserved: false,
        shape: "array",
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
    pointer: "/paths/~1query~1delimited/get",
    operationId: "queryDelimited",
  },
  tags: ["query"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
