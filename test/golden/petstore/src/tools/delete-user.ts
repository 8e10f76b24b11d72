/**
 * Delete user.
 * This can only be done by the logged in user.
 *
 * Tool `deleteUser`: `DELETE /user/{username}`.
 * Tags: user.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `deleteUser` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** The name that needs to be deleted */
  username: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "deleteUser",
  title: "Delete user",
  description: "Delete user.\nThis can only be done by the logged in user.",
  inputSchema: {
    type: "object",
    properties: {
      username: {
        type: "string",
        description: "The name that needs to be deleted",
      },
    },
    required: ["username"],
    additionalProperties: false,
  },
  annotations: {
    title: "Delete user",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "delete",
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
        description: "Invalid username supplied",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "User not found",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1user~1{username}/delete",
    operationId: "deleteUser",
  },
  tags: ["user"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
