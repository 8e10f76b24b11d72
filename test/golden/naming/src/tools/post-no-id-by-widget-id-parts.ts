/**
 * Create a part.
 * Returns no content. Required: widgetId.
 *
 * Tool `post_no-id_by_widgetId_parts`: `POST /no-id/{widgetId}/parts`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `post_no-id_by_widgetId_parts` after validation: what its `beforeCall` hook receives. */
export interface Args {
  widgetId: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "post_no-id_by_widgetId_parts",
  title: "POST /no-id/{widgetId}/parts",
  description: "Create a part.\nReturns no content. Required: widgetId.",
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
    title: "POST /no-id/{widgetId}/parts",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
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
    pointer: "/paths/~1no-id~1{widgetId}~1parts/post",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
