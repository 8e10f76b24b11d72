/**
 * Query reserved.
 * Returns JSON.
 *
 * Tool `queryReserved`: `GET /query/reserved`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `queryReserved` after validation: what its `beforeCall` hook receives. */
export interface Args {
  reserved?: string;
  plain?: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryReserved",
  title: "Query reserved",
  description: "Query reserved.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      reserved: {
        type: "string",
      },
      plain: {
        type: "string",
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Query reserved",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/reserved",
    parameters: [
      {
        argument: "reserved",
        name: "reserved",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: true,
        shape: "primitive",
      },
      {
        argument: "plain",
        name: "plain",
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
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1query~1reserved/get",
    operationId: "queryReserved",
  },
  tags: ["query"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
