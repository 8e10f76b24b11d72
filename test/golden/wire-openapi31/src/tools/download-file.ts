/**
 * Download raw bytes (octet-stream response).
 * Returns application/octet-stream.
 *
 * Tool `downloadFile`: `GET /files/{name}`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `downloadFile` after validation: what its `beforeCall` hook receives. */
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
