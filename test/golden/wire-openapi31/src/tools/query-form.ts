/**
 * Read /query/form (query).
 * Returns JSON.
 *
 * Tool `queryForm`: `GET /query/form`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `queryForm` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  prim?: string;
  arr?: string[];
  arrCsv?: string[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryForm",
  title: "Query form",
  description: "Read /query/form (query).\nReturns JSON.",
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

/**
 * Hooks around this tool's HTTP call; fill them in to change what is sent or returned.
 * `beforeCall` gets the arguments after validation and returns the arguments to send.
 * `afterCall` gets the result (a success or an upstream error) and returns the result to give
 * back; configured secrets are still redacted after it. A hook that throws gives an error result.
 */
export const hooks: ToolHooks<Args> = {
  beforeCall(args) {
    return args;
  },
  afterCall(result) {
    return result;
  },
};
