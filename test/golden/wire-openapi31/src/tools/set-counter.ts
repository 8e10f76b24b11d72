/**
 * Set the counter (primitive JSON body).
 * Returns JSON.
 *
 * Tool `setCounter`: `POST /counter`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `setCounter` after validation: what its `beforeCall` hook receives. */
export interface Args {
  body: number;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "setCounter",
  title: "Set the counter (primitive JSON body)",
  description: "Set the counter (primitive JSON body).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      body: {
        type: "integer",
      },
    },
    required: ["body"],
    additionalProperties: false,
  },
  annotations: {
    title: "Set the counter (primitive JSON body)",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/counter",
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
    pointer: "/paths/~1counter/post",
    operationId: "setCounter",
  },
  tags: ["body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
