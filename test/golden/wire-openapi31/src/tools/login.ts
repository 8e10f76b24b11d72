/**
 * Log in (form-urlencoded body).
 * Returns JSON.
 *
 * Tool `login`: `POST /login`.
 * Tags: body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `login` after validation: what its `beforeCall` hook receives. */
export interface Args {
  username: string;
  password: string;
  scopes?: string[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "login",
  title: "Log in (form-urlencoded body)",
  description: "Log in (form-urlencoded body).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      username: {
        type: "string",
      },
      password: {
        type: "string",
      },
      scopes: {
        type: "array",
        items: {
          type: "string",
        },
      },
    },
    required: ["username", "password"],
    additionalProperties: false,
  },
  annotations: {
    title: "Log in (form-urlencoded body)",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/login",
    parameters: [],
    security: [],
    responses: [
      {
        status: "200",
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
    body: {
      mediaType: "application/x-www-form-urlencoded",
      required: true,
      mode: "properties",
      kind: "form",
      properties: [
        {
          argument: "username",
          name: "username",
          shape: "primitive",
        },
        {
          argument: "password",
          name: "password",
          shape: "primitive",
        },
        {
          argument: "scopes",
          name: "scopes",
          shape: "array",
        },
      ],
    },
  },
  source: {
    pointer: "/paths/~1login/post",
    operationId: "login",
  },
  tags: ["body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
