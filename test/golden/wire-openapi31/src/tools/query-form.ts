/**
 * Query form.
 * Returns JSON.
 *
 * Tool `queryForm`: `GET /query/form`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `queryForm` after validation: what its `beforeCall` hook receives. */
export interface Args {
  prim?: string;
  arr?: string[];
  arrCsv?: string[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryForm",
  title: "Query form",
  description: "Query form.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      prim: {
        type: "string",
      },
      arr: {
        type: "array",
        items: {
          type: "string",
        },
      },
      arrCsv: {
        type: "array",
        items: {
          type: "string",
        },
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Query form",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/form",
    parameters: [
      {
        argument: "prim",
        name: "prim",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "arr",
        name: "arr",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "array",
      },
      {
        argument: "arrCsv",
        name: "arrCsv",
        in: "query",
        required: false,
        style: "form",
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
    pointer: "/paths/~1query~1form/get",
    operationId: "queryForm",
  },
  tags: ["query"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
