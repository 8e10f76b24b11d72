/**
 * Updated user.
 * This can only be done by the logged in user.
 *
 * Tool `updateUser`: `PUT /user/{username}`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `updateUser` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** name that need to be updated. Sent as the path parameter "username"; the body property is `username__body`. */
  username: string;
  /** Format: int64. */
  id?: number;
  /** Sent as the body property "username"; the path parameter is `username`. */
  username__body?: string;
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
  extraProperties?: Record<string, unknown>;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "updateUser",
  title: "Updated user",
  description: "Updated user.\nThis can only be done by the logged in user.",
  inputSchema: {
    type: "object",
    properties: {
      username: {
        type: "string",
        description: "name that need to be updated. Sent as the path parameter \"username\"; the body property is `username__body`.",
      },
      id: {
        type: "integer",
        format: "int64",
      },
      username__body: {
        type: "string",
        description: "Sent as the body property \"username\"; the path parameter is `username`.",
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
      extraProperties: {
        type: "object",
      },
    },
    required: ["username"],
    additionalProperties: false,
  },
  annotations: {
    title: "Updated user",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "put",
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
        status: "400",
        description: "Invalid user supplied",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "User not found",
        mediaTypes: [],
      },
    ],
    accept: [],
    body: {
      mediaType: "application/json",
      required: true,
      mode: "properties",
      kind: "json",
      properties: [
        {
          argument: "id",
          name: "id",
          shape: "primitive",
        },
        {
          argument: "username__body",
          name: "username",
          shape: "primitive",
        },
        {
          argument: "firstName",
          name: "firstName",
          shape: "primitive",
        },
        {
          argument: "lastName",
          name: "lastName",
          shape: "primitive",
        },
        {
          argument: "email",
          name: "email",
          shape: "primitive",
        },
        {
          argument: "password",
          name: "password",
          shape: "primitive",
        },
        {
          argument: "phone",
          name: "phone",
          shape: "primitive",
        },
        {
          argument: "userStatus",
          name: "userStatus",
          shape: "primitive",
        },
      ],
      extraArgument: "extraProperties",
    },
  },
  source: {
    pointer: "/paths/~1user~1{username}/put",
    operationId: "updateUser",
  },
  tags: ["user"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
