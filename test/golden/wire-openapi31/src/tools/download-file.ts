/**
 * Download raw bytes (octet-stream response).
 * Returns application/octet-stream.
 *
 * Tool `downloadFile`: `GET /files/{name}`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `downloadFile` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  name: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "downloadFile",
  title: "Download raw bytes (octet-stream response)",
  description: "Download raw bytes (octet-stream response).\nReturns application/octet-stream.",
  inputSchema: {
    type: "object",
    properties: {
      name: {
        type: "string",
      },
    },
    required: ["name"],
    additionalProperties: false,
  },
  annotations: {
    title: "Download raw bytes (octet-stream response)",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
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
        description: "The file's bytes",
        mediaTypes: ["application/octet-stream"],
      },
    ],
    accept: ["application/octet-stream"],
  },
  source: {
    pointer: "/paths/~1files~1{name}/get",
    operationId: "downloadFile",
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
