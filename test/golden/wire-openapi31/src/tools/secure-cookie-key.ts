/**
 * Secure cookie key.
 * Returns JSON.
 *
 * Tool `secureCookieKey`: `GET /secure/cookie-key`.
 * Tags: security.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `secureCookieKey` after validation: what its `beforeCall` hook receives. */
export interface Args {
  theme?: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "secureCookieKey",
  title: "Secure cookie key",
  description: "Secure cookie key.\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      theme: {
        type: "string",
      },
    },
    additionalProperties: false,
  },
  annotations: {
    title: "Secure cookie key",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/secure/cookie-key",
    parameters: [
      {
        argument: "theme",
        name: "theme",
        in: "cookie",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
    ],
    security: [
      {
        apiKeyCookie: [],
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
    pointer: "/paths/~1secure~1cookie-key/get",
    operationId: "secureCookieKey",
  },
  tags: ["security"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
