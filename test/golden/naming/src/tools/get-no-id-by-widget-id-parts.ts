/**
 * List parts.
 * Returns no content. Required: widgetId.
 *
 * Tool `get_no-id_by_widgetId_parts`: `GET /no-id/{widgetId}/parts`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `get_no-id_by_widgetId_parts` after validation: what its `beforeCall` hook receives. */
export interface Args {
  widgetId: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "get_no-id_by_widgetId_parts",
  title: "GET /no-id/{widgetId}/parts",
  description: "List parts.\nReturns no content. Required: widgetId.",
  inputSchema: {
    type: "object",
    properties: {
      widgetId: {
        type: "string",
      },
    },
    required: ["widgetId"],
    additionalProperties: false,
  },
  annotations: {
    title: "GET /no-id/{widgetId}/parts",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/no-id/{widgetId}/parts",
    parameters: [
      {
        argument: "widgetId",
        name: "widgetId",
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
        status: "204",
        description: "ok",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1no-id~1{widgetId}~1parts/get",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
