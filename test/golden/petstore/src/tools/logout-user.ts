/**
 * Logs out current logged in user session.
 * Returns no content.
 *
 * Tool `logoutUser`: `GET /user/logout`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `logoutUser` after validation: what `hooks.beforeCall` receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "logoutUser",
  title: "Logs out current logged in user session",
  description: "Logs out current logged in user session.\nReturns no content.",
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
