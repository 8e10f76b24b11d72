/**
 * Secure query key.
 * Returns JSON.
 *
 * Tool `secureQueryKey`: `GET /secure/query-key`.
 * Tags: security.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `secureQueryKey` after validation: what its `beforeCall` hook receives. */
export interface Args {
  q?: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "secureQueryKey",
  title: "Secure query key",
  description: "Secure query key.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      q: {
        type: "string",
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Secure query key",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/secure/query-key",
    parameters: [
      {
        argument: "q",
        name: "q",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
    ],
    security: [
      {
        apiKeyQuery: [],
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
    pointer: "/paths/~1secure~1query-key/get",
    operationId: "secureQueryKey",
  },
  tags: ["security"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
