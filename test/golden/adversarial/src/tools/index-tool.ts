/**
 * A tool whose module name is taken by the tools index. Deletes data.
 * Returns no content.
 *
 * Tool `index`: `DELETE /things/index`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `index` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "index",
  title: "A tool whose module name is taken by the tools index",
  description: "A tool whose module name is taken by the tools index. Deletes data.\nReturns no content.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "A tool whose module name is taken by the tools index",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "delete",
    path: "/things/index",
    parameters: [],
    security: [
      {
        "key.evil_-name": [],
      },
      {
        bearer: [],
      },
    ],
    responses: [
      {
        status: "204",
        description: "deleted",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1things~1index/delete",
    operationId: "index",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
