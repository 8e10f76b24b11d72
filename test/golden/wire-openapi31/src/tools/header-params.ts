/**
 * Header params.
 * Returns JSON.
 *
 * Tool `headerParams`: `GET /headers`.
 * Tags: header.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `headerParams` after validation: what its `beforeCall` hook receives. */
export interface Args {
  "X-Request-Id"?: string;
  "X-Arr"?: number[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "headerParams",
  title: "Header params",
  description: "Header params.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      "X-Request-Id": {
        type: "string",
      },
      "X-Arr": {
        type: "array",
        items: {
          type: "integer",
        },
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Header params",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/headers",
    parameters: [
      {
        argument: "X-Request-Id",
        name: "X-Request-Id",
        in: "header",
        required: false,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "X-Arr",
        name: "X-Arr",
        in: "header",
        required: false,
        style: "simple",
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
    pointer: "/paths/~1headers/get",
    operationId: "headerParams",
  },
  tags: ["header"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
