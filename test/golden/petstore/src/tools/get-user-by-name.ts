/**
 * Get user by user name.
 * Returns an object: id, username, firstName, lastName, email, password +2 more.
 *
 * Tool `getUserByName`: `GET /user/{username}`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getUserByName` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** The name that needs to be fetched. Use user1 for testing. */
  username: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getUserByName",
  title: "Get user by user name",
  description: "Get user by user name.\nReturns an object: id, username, firstName, lastName, email, password +2 more.",
  inputSchema: {
    type: "object",
    properties: {
      username: {
        type: "string",
        description: "The name that needs to be fetched. Use user1 for testing.",
      },
    },
    required: ["username"],
    additionalProperties: false,
  },
  resultFields: {
    fields: {
      id: {},
      username: {},
      firstName: {},
      lastName: {},
      email: {},
      password: {},
      phone: {},
      userStatus: {},
    },
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
