/**
 * Read /no-id/{widgetId}/parts.
 * Returns no content. Required: widgetId.
 *
 * Tool `get_no-id_by_widgetId_parts`: `GET /no-id/{widgetId}/parts`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `get_no-id_by_widgetId_parts` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  widgetId: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "get_no-id_by_widgetId_parts",
  title: "GET /no-id/{widgetId}/parts",
  description: "Read /no-id/{widgetId}/parts.\nReturns no content. Required: widgetId.",
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
