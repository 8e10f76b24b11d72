/**
 * Query form object.
 * Returns JSON.
 *
 * Tool `queryFormObject`: `GET /query/form-object`.
 * Tags: query.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `queryFormObject` after validation: what its `beforeCall` hook receives. */
export interface Args {
  obj?: Color;
  objFlat?: Color;
}

export type Color = {
  R?: number;
  G?: number;
  B?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "queryFormObject",
  title: "Query form object",
  description: "Query form object.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      obj: {
        $ref: "#/$defs/Color",
      },
      objFlat: {
        $ref: "#/$defs/Color",
      },
    },
    additionalProperties: false,
    $defs: {
      Color: {
        type: "object",
        properties: {
          R: {
            type: "integer",
          },
          G: {
            type: "integer",
          },
          B: {
            type: "integer",
          },
        },
      },
    },
  },
  annotations: {
    title: "Query form object",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/query/form-object",
    parameters: [
      {
        argument: "obj",
        name: "obj",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "object",
      },
      {
        argument: "objFlat",
        name: "objFlat",
        in: "query",
        required: false,
        style: "form",
        explode: false,
        allowReserved: false,
        shape: "object",
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
    pointer: "/paths/~1query~1form-object/get",
    operationId: "queryFormObject",
  },
  tags: ["query"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
