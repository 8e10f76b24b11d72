/**
 * A234567890123456789012345678901234567890123456789012345678901234.
 * Returns no content.
 *
 * Tool `a234567890123456789012345678901234567890123456789012345678901234`: `GET /exactly-64`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `a234567890123456789012345678901234567890123456789012345678901234` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "a234567890123456789012345678901234567890123456789012345678901234",
  title: "A234567890123456789012345678901234567890123456789012345678901234",
  description: "A234567890123456789012345678901234567890123456789012345678901234.\nReturns no content.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "A234567890123456789012345678901234567890123456789012345678901234",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/exactly-64",
    parameters: [],
    security: [],
    responses: [
      {
        status: "204",
        description: "ok",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1exactly-64/get",
    operationId: "a234567890123456789012345678901234567890123456789012345678901234",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
