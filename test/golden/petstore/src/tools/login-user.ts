/**
 * Logs user into the system.
 * Returns a string.
 *
 * Tool `loginUser`: `GET /user/login`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `loginUser` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** The user name for login */
  username: string;
  /** The password for login in clear text */
  password: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "loginUser",
  title: "Logs user into the system",
  description: "Logs user into the system.\nReturns a string.",
  inputSchema: {
    type: "object",
    properties: {
      username: {
        type: "string",
        description: "The user name for login",
      },
      password: {
        type: "string",
        description: "The password for login in clear text",
      },
    },
    required: ["username", "password"],
    additionalProperties: false,
  },
  annotations: {
    title: "Logs user into the system",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/user/login",
    parameters: [
      {
        argument: "username",
        name: "username",
        in: "query",
        required: true,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "password",
        name: "password",
        in: "query",
        required: true,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
        credential: "secret",
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
        description: "Invalid username/password supplied",
        mediaTypes: [],
      },
    ],
    accept: ["application/json", "application/xml"],
  },
  source: {
    pointer: "/paths/~1user~1login/get",
    operationId: "loginUser",
  },
  tags: ["user"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
