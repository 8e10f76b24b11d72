/**
 * Get user by user name.
 * Returns an object: id, username, firstName, lastName, email, password +2 more. Errors: 400, 404.
 *
 * Tool `getUserByName`: `GET /user/{username}`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `getUserByName` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  /** The name that needs to be fetched. */
  username: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getUserByName",
  title: "Get user by user name",
  description: "Get user by user name.\nReturns an object: id, username, firstName, lastName, email, password +2 more. Errors: 400, 404.",
  inputSchema: {
    type: "object",
    properties: {
      username: {
        type: "string",
        description: "The name that needs to be fetched.",
      },
    },
    required: ["username"],
    additionalProperties: false,
  },
  annotations: {
    title: "Get user by user name",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/user/{username}",
    parameters: [
      {
        argument: "username",
        name: "username",
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
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/xml", "application/json"],
      },
      {
        status: "400",
        description: "Invalid username supplied",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "User not found",
        mediaTypes: [],
      },
    ],
    accept: ["application/json", "application/xml"],
  },
  source: {
    pointer: "/paths/~1user~1{username}/get",
    operationId: "getUserByName",
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
