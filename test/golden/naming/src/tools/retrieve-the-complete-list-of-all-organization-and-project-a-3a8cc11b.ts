/**
 * Retrieve the complete list of all registered widgets for the current organization and project a.
 * Returns no content.
 *
 * Tool `retrieveTheCompleteListOfAll_OrganizationAndProjectA_3a8cc11b`: `GET /long-a`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `retrieveTheCompleteListOfAll_OrganizationAndProjectA_3a8cc11b` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "retrieveTheCompleteListOfAll_OrganizationAndProjectA_3a8cc11b",
  title: "Retrieve the complete list of all registered widgets for the current…",
  description: "Retrieve the complete list of all registered widgets for the current organization and project a.\nReturns no content.",
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
    path: "/long-a",
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
    pointer: "/paths/~1long-a/get",
    operationId: "retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurrentOrganizationAndProjectA",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
