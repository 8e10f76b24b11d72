/**
 * Upload raw bytes (octet-stream body).
 * Returns JSON.
 *
 * Tool `uploadFile`: `PUT /files/{name}`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `uploadFile` after validation: what `hooks.beforeCall` receives. */
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
