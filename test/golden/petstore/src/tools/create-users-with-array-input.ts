/**
 * Creates list of users with given input array.
 * Returns no content.
 *
 * Tool `createUsersWithArrayInput`: `POST /user/createWithArray`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `createUsersWithArrayInput` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  /** List of user object */
  body: User[];
}

export type User = {
  /** Format: int64. */
  id?: number;
  username?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
  phone?: string;
  /**
   * User Status
   * Format: int32.
   */
  userStatus?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "createUsersWithArrayInput",
  title: "Creates list of users with given input array",
  description: "Creates list of users with given input array.\nReturns no content.",
  inputSchema: {
    type: "object",
    properties: {
      body: {
        type: "array",
        items: {
          $ref: "#/$defs/User",
        },
        description: "List of user object",
      },
    },
    required: ["body"],
    additionalProperties: false,
    $defs: {
      User: {
        type: "object",
        properties: {
          id: {
            type: "integer",
            format: "int64",
          },
          username: {
            type: "string",
          },
          firstName: {
            type: "string",
          },
          lastName: {
            type: "string",
          },
          email: {
            type: "string",
          },
          password: {
            type: "string",
          },
          phone: {
            type: "string",
          },
          userStatus: {
            type: "integer",
            format: "int32",
            description: "User Status",
          },
        },
      },
    },
  },
  annotations: {
    title: "Creates list of users with given input array",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/user/createWithArray",
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
    body: {
      mediaType: "application/json",
      required: true,
      mode: "value",
      kind: "json",
      argument: "body",
    },
  },
  source: {
    pointer: "/paths/~1user~1createWithArray/post",
    operationId: "createUsersWithArrayInput",
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
