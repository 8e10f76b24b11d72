/**
 * Logs out current logged in user session.
 *
 * Tool `logoutUser`: `GET /user/logout`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `logoutUser` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "logoutUser",
  title: "Logs out current logged in user session",
  description: "Logs out current logged in user session.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Logs out current logged in user session",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/user/logout",
    parameters: [],
    security: [],
    responses: [
      {
        status: "DEFAULT",
        description: "successful operation",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1user~1logout/get",
    operationId: "logoutUser",
  },
  tags: ["user"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
