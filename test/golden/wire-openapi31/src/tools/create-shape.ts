/**
 * Create a shape (oneOf body).
 * Returns JSON.
 *
 * Tool `createShape`: `POST /shapes`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `createShape` after validation: what its `beforeCall` hook receives. */
export interface Args {
  body: Circle | Square;
}

export type Circle = {
  kind: "circle";
  radius: number;
};

export type Square = {
  kind: "square";
  side: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "createShape",
  title: "Create a shape (oneOf body)",
  description: "Create a shape (oneOf body).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      body: {
        oneOf: [
          {
            $ref: "#/$defs/Circle",
          },
          {
            $ref: "#/$defs/Square",
          },
        ],
      },
    },
    required: ["body"],
    additionalProperties: false,
    $defs: {
      Circle: {
        type: "object",
        required: ["kind", "radius"],
        properties: {
          kind: {
            const: "circle",
          },
          radius: {
            type: "number",
          },
        },
      },
      Square: {
        type: "object",
        required: ["kind", "side"],
        properties: {
          kind: {
            const: "square",
          },
          side: {
            type: "number",
          },
        },
      },
    },
  },
  annotations: {
    title: "Create a shape (oneOf body)",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/shapes",
    parameters: [],
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
      mode: "value",
      kind: "json",
      argument: "body",
    },
  },
  source: {
    pointer: "/paths/~1shapes/post",
    operationId: "createShape",
  },
  tags: ["body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
