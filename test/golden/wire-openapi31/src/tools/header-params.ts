/**
 * Read /headers (header).
 * Returns JSON.
 *
 * Tool `headerParams`: `GET /headers`.
 * Tags: header.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `headerParams` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  "X-Request-Id"?: string;
  "X-Arr"?: IntList;
}

export type IntList = number[];

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "headerParams",
  title: "Header params",
  description: "Read /headers (header).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      "X-Request-Id": {
        type: "string",
      },
      "X-Arr": {
        $ref: "#/$defs/IntList",
      },
    },
    additionalProperties: false,
    $defs: {
      IntList: {
        type: "array",
        items: {
          type: "integer",
        },
      },
    },
  },
  annotations: {
    title: "Header params",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/headers",
    parameters: [
      {
        argument: "X-Request-Id",
        name: "X-Request-Id",
        in: "header",
        required: false,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "X-Arr",
        name: "X-Arr",
        in: "header",
        required: false,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "array",
      },
    ],
    security: [],
    responses: [
      {
        status: "200",
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1headers/get",
    operationId: "headerParams",
  },
  tags: ["header"],
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
