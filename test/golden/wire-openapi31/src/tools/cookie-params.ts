/**
 * Cookie params.
 * Returns JSON.
 *
 * Tool `cookieParams`: `GET /cookies`.
 * Tags: cookie.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `cookieParams` after validation: what its `beforeCall` hook receives. */
export interface Args {
  session?: string;
  ids?: number[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "cookieParams",
  title: "Cookie params",
  description: "Cookie params.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      session: {
        type: "string",
      },
      ids: {
        type: "array",
        items: {
          type: "integer",
        },
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Cookie params",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/cookies",
    parameters: [
      {
        argument: "session",
        name: "session",
        in: "cookie",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "ids",
        name: "ids",
        in: "cookie",
        required: false,
        style: "form",
        explode: false,
        allowReserved: false,
        shape: "array",
      },
    ],
    security: [],
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
    pointer: "/paths/~1cookies/get",
    operationId: "cookieParams",
  },
  tags: ["cookie"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
