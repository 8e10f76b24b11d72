/**
 * Read /long-b.
 * Returns no content.
 *
 * Tool `retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr_9ca6fda7`: `GET /long-b`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr_9ca6fda7` after validation: what `hooks.beforeCall` receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr_9ca6fda7",
  title: "Retrieve the complete list of all registered widgets for the current…",
  description: "Read /long-b.\nReturns no content.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Retrieve the complete list of all registered widgets for the current…",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/long-b",
    parameters: [],
    security: [],
    responses: [
      {
        status: "204",
        description: "ok",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1long-b/get",
    operationId: "retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurrentOrganizationAndProjectB",
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
