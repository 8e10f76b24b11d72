/**
 * Creates list of users with given input array.
 *
 * Tool `createUsersWithArrayInput`: `POST /user/createWithArray`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `createUsersWithArrayInput` after validation: what its `beforeCall` hook receives. */
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
  description: "Creates list of users with given input array.",
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
