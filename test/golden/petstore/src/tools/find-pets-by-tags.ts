/**
 * Deprecated. Finds Pets by tags.
 * Muliple tags can be provided with comma separated strings. Use tag1, tag2, tag3 for testing.
 * Returns a list of Pet.
 *
 * Tool `findPetsByTags`: `GET /pet/findByTags`.
 * Tags: pet.
 *
 * @deprecated The operation is deprecated in the spec.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `findPetsByTags` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Tags to filter by */
  tags: string[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "findPetsByTags",
  title: "Finds Pets by tags",
  description: "Deprecated. Finds Pets by tags.\nMuliple tags can be provided with comma separated strings. Use tag1, tag2, tag3 for testing.\nReturns a list of Pet.",
  inputSchema: {
    type: "object",
    properties: {
      tags: {
        type: "array",
        items: {
          type: "string",
        },
        description: "Tags to filter by",
        minItems: 1,
      },
    },
    required: ["tags"],
    additionalProperties: false,
  },
  resultFields: {
    list: true,
    fields: {
      id: {},
      category: {
        fields: {
          id: {},
          name: {},
        },
      },
      name: {},
      tags: {
        list: true,
        fields: {
          id: {},
          name: {},
        },
      },
      status: {},
    },
    links: ["photoUrls"],
  },
  annotations: {
    title: "Finds Pets by tags",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/pet/findByTags",
    parameters: [
      {
        argument: "tags",
        name: "tags",
        in: "query",
        required: true,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "array",
      },
    ],
    security: [
      {
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
      {
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/xml", "application/json"],
      },
      {
        status: "400",
        description: "Invalid tag value",
        mediaTypes: [],
      },
    ],
    accept: ["application/json", "application/xml"],
  },
  source: {
    pointer: "/paths/~1pet~1findByTags/get",
    operationId: "findPetsByTags",
  },
  tags: ["pet"],
  deprecated: true,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
