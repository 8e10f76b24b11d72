/**
 * Read /people/{personId}.
 * Returns an object: name, employer. Required: personId.
 *
 * Tool `getPerson`: `GET /people/{personId}`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `getPerson` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  personId: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getPerson",
  title: "Get person",
  description: "Read /people/{personId}.\nReturns an object: name, employer. Required: personId.",
  inputSchema: {
    type: "object",
    properties: {
      personId: {
        type: "string",
      },
    },
    required: ["personId"],
    additionalProperties: false,
  },
  annotations: {
    title: "Get person",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/people/{personId}",
    parameters: [
      {
        argument: "personId",
        name: "personId",
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
        description: "A person and their employer",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1people~1{personId}/get",
    operationId: "getPerson",
  },
  tags: [],
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
