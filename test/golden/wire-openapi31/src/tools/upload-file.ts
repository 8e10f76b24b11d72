/**
 * Upload raw bytes (octet-stream body).
 * Returns JSON.
 *
 * Tool `uploadFile`: `PUT /files/{name}`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `uploadFile` after validation: what its `beforeCall` hook receives. */
export interface Args {
  name: string;
  /** The request body (application/octet-stream) as base64. */
  body: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "uploadFile",
  title: "Upload raw bytes (octet-stream body)",
  description: "Upload raw bytes (octet-stream body).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      name: {
        type: "string",
      },
      body: {
        type: "string",
        contentEncoding: "base64",
        description: "The request body (application/octet-stream) as base64.",
      },
    },
    required: ["name", "body"],
    additionalProperties: false,
  },
  annotations: {
    title: "Upload raw bytes (octet-stream body)",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "put",
    path: "/files/{name}",
    parameters: [
      {
        argument: "name",
        name: "name",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
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
    body: {
      mediaType: "application/octet-stream",
      required: true,
      mode: "value",
      kind: "binary",
      argument: "body",
    },
  },
  source: {
    pointer: "/paths/~1files~1{name}/put",
    operationId: "uploadFile",
  },
  tags: ["body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
