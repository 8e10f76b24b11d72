/**
 * Header objects.
 * Returns JSON.
 *
 * Tool `headerObjects`: `GET /headers/objects`.
 * Tags: header.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `headerObjects` after validation: what its `beforeCall` hook receives. */
export interface Args {
  "X-Obj"?: Color;
  "X-Obj-Explode"?: Color;
}

export type Color = {
  R?: number;
  G?: number;
  B?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "headerObjects",
  title: "Header objects",
  description: "Header objects.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      "X-Obj": {
        $ref: "#/$defs/Color",
      },
      "X-Obj-Explode": {
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
    title: "Header objects",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/headers/objects",
    parameters: [
      {
        argument: "X-Obj",
        name: "X-Obj",
        in: "header",
        required: false,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "object",
      },
      {
        argument: "X-Obj-Explode",
        name: "X-Obj-Explode",
        in: "header",
        required: false,
        style: "simple",
        explode: true,
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
    pointer: "/paths/~1headers~1objects/get",
    operationId: "headerObjects",
  },
  tags: ["header"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
