/**
 * Create user.
 * This can only be done by the logged in user.
 *
 * Tool `createUser`: `POST /user`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `createUser` after validation: what its `beforeCall` hook receives. */
export interface Args {
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
  extraProperties?: Record<string, unknown>;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "createUser",
  title: "Create user",
  description: "Create user.\nThis can only be done by the logged in user.",
  inputSchema: {
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
      extraProperties: {
        type: "object",
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Create user",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/user",
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
      mode: "properties",
      kind: "json",
      properties: [
        {
          argument: "id",
          name: "id",
          shape: "primitive",
        },
        {
          argument: "username",
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
    pointer: "/paths/~1user/post",
    operationId: "createUser",
  },
  tags: ["user"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
