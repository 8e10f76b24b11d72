/**
 * Read /secure/bearer (security).
 * Returns JSON. Errors: 401.
 *
 * Tool `secureBearer`: `GET /secure/bearer`.
 * Tags: security.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `secureBearer` after validation: what `hooks.beforeCall` receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "secureBearer",
  title: "Secure bearer",
  description: "Read /secure/bearer (security).\nReturns JSON. Errors: 401.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Secure bearer",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/secure/bearer",
    parameters: [],
    security: [
      {
        bearerAuth: [],
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
    pointer: "/paths/~1secure~1bearer/get",
    operationId: "secureBearer",
  },
  tags: ["security"],
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
