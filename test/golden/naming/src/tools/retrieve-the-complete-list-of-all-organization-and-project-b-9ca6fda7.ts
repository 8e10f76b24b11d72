/**
 * Retrieve the complete list of all registered widgets for the current organization and project b.
 * Returns no content.
 *
 * Tool `retrieveTheCompleteListOfAll_OrganizationAndProjectB_9ca6fda7`: `GET /long-b`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `retrieveTheCompleteListOfAll_OrganizationAndProjectB_9ca6fda7` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "retrieveTheCompleteListOfAll_OrganizationAndProjectB_9ca6fda7",
  title: "Retrieve the complete list of all registered widgets for the current…",
  description: "Retrieve the complete list of all registered widgets for the current organization and project b.\nReturns no content.",
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
