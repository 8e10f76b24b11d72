/**
 * Create a shape (oneOf body).
 * Returns JSON.
 *
 * Tool `createShape`: `POST /shapes`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `createShape` after validation: what `hooks.beforeCall` receives. */
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
