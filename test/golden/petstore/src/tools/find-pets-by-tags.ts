/**
 * Deprecated. Finds Pets by tags.
 * Muliple tags can be provided with comma separated strings.
 * Returns a list of Pet (id, category, name, tags, status, photoUrls). Errors: 400.
 *
 * Tool `findPetsByTags`: `GET /pet/findByTags`.
 * Tags: pet.
 *
 * @deprecated The operation is deprecated in the spec.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";

/** Arguments of `findPetsByTags` after validation: what `hooks.beforeCall` receives. */
export interface Args {
  /** Tags to filter by */
  tags: string[];
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "findPetsByTags",
  title: "Finds Pets by tags",
  description: "Deprecated. Finds Pets by tags.\nMuliple tags can be provided with comma separated strings.\nReturns a list of Pet (id, category, name, tags, status, photoUrls). Errors: 400.",
  inputSchema: {
    type: "object",
    properties: {
      tags: {
        type: "array",
        items: {
          type: "string",
        },
        description: "Tags to filter by",
      },
    },
    required: ["tags"],
    additionalProperties: false,
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
