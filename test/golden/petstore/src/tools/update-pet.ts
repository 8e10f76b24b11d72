/**
 * Update an existing pet.
 * Example: name="doggie".
 *
 * Tool `updatePet`: `PUT /pet`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `updatePet` after validation: what its `beforeCall` hook receives. */
export interface Args {
  category?: Category;
  name: string;
  photoUrls: string[];
  tags?: Tag[];
  /** pet status in the store */
  status?: "available" | "pending" | "sold";
  extraProperties?: Record<string, unknown>;
}

export type Category = {
  /** Format: int64. */
  id?: number;
  name?: string;
};

export type Tag = {
  /** Format: int64. */
  id?: number;
  name?: string;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "updatePet",
  title: "Update an existing pet",
  description: "Update an existing pet.\nExample: name=\"doggie\".",
  inputSchema: {
    type: "object",
    properties: {
      category: {
        $ref: "#/$defs/Category",
      },
      name: {
        type: "string",
        examples: ["doggie"],
      },
      photoUrls: {
        type: "array",
        items: {
          type: "string",
          examples: ["https://example.com/photo.png"],
        },
      },
      tags: {
        type: "array",
        items: {
          $ref: "#/$defs/Tag",
        },
      },
      status: {
        type: "string",
        description: "pet status in the store",
        enum: ["available", "pending", "sold"],
      },
      extraProperties: {
        type: "object",
      },
    },
    required: ["name", "photoUrls"],
    additionalProperties: false,
    $defs: {
      Category: {
        type: "object",
        properties: {
          id: {
            type: "integer",
            format: "int64",
          },
          name: {
            type: "string",
          },
        },
      },
      Tag: {
        type: "object",
        properties: {
          id: {
            type: "integer",
            format: "int64",
          },
          name: {
            type: "string",
          },
        },
      },
    },
  },
  annotations: {
    title: "Update an existing pet",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "put",
    path: "/pet",
    parameters: [],
    security: [
      {
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
      {
        status: "400",
        description: "Invalid ID supplied",
        mediaTypes: [],
      },
      {
        status: "404",
        description: "Pet not found",
        mediaTypes: [],
      },
      {
        status: "405",
        description: "Validation exception",
        mediaTypes: [],
      },
    ],
    accept: [],
    body: {
      mediaType: "application/json",
      required: true,
      mode: "properties",
      kind: "json",
      alternatives: ["application/xml"],
      properties: [
        {
          argument: "category",
          name: "category",
          shape: "object",
        },
        {
          argument: "name",
          name: "name",
          shape: "primitive",
        },
        {
          argument: "photoUrls",
          name: "photoUrls",
          shape: "array",
        },
        {
          argument: "tags",
          name: "tags",
          shape: "array",
        },
        {
          argument: "status",
          name: "status",
          shape: "primitive",
        },
      ],
      extraArgument: "extraProperties",
    },
  },
  source: {
    pointer: "/paths/~1pet/put",
    operationId: "updatePet",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
