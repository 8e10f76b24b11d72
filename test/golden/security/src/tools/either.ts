/**
 * Bearer OR the query key; only the query key is configured in the tests. Read-only.
 * Returns JSON.
 *
 * Tool `either`: `GET /either`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `either` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "either",
  title: "Either",
  description: "Bearer OR the query key; only the query key is configured in the tests. Read-only.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Either",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/either",
    parameters: [],
    security: [
      {
        OAuth2: ["read"],
      },
      {
        queryKey: [],
      },
    ],
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
    pointer: "/paths/~1either/get",
    operationId: "either",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
