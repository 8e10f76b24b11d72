/**
 * Get person.
 * Returns an object: name, employer. Required: personId.
 *
 * Tool `getPerson`: `GET /people/{personId}`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getPerson` after validation: what its `beforeCall` hook receives. */
export interface Args {
  personId: string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getPerson",
  title: "Get person",
  description: "Get person.\nReturns an object: name, employer. Required: personId.",
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
  resultFields: {
    fields: {
      name: {},
      employer: {
        fields: {
          name: {},
          staff: {
            list: true,
            fields: {
              name: {},
              employer: {
                fields: {
                  name: {},
                  staff: {
                    list: true,
                    more: 2,
                  },
                },
              },
            },
          },
        },
      },
    },
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

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
