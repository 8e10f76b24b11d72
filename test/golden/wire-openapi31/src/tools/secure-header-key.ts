/**
 * Secure header key.
 * Returns JSON.
 *
 * Tool `secureHeaderKey`: `GET /secure/header-key`.
 * Tags: security.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `secureHeaderKey` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "secureHeaderKey",
  title: "Secure header key",
  description: "Secure header key.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Secure header key",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/secure/header-key",
    parameters: [],
    security: [
      {
        apiKeyHeader: [],
      },
    ],
    responses: [
      {
        status: "200",
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
      {
        status: "401",
        description: "Missing or bad credentials",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1secure~1header-key/get",
    operationId: "secureHeaderKey",
  },
  tags: ["security"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
