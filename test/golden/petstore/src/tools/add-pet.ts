/**
 * Add a new pet to the store.
 * Example: name="doggie".
 *
 * Tool `addPet`: `POST /pet`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `addPet` after validation: what its `beforeCall` hook receives. */
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
  name: "addPet",
  title: "Add a new pet to the store",
  description: "Add a new pet to the store.\nExample: name=\"doggie\".",
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
    title: "Add a new pet to the store",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/pet",
    parameters: [],
    security: [
      {
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
      {
        status: "405",
        description: "Invalid input",
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
    pointer: "/paths/~1pet/post",
    operationId: "addPet",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
