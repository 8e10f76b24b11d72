/**
 * Upload a photo (multipart).
 * Returns JSON.
 *
 * Tool `uploadPetPhoto`: `POST /pets/{petId}/photo`.
 * Tags: pets, body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `uploadPetPhoto` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** Format: int64. */
  petId: number;
  /** A file: {base64, filename?, contentType?}, or just its bytes as a base64 string. */
  photo: {
    /** The file's bytes, base64-encoded. */
    base64: string;
    filename?: string;
    contentType?: string;
  } | string;
  caption?: string;
  meta?: {
    width?: number;
    tags?: string[];
  };
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "uploadPetPhoto",
  title: "Upload a photo (multipart)",
  description: "Upload a photo (multipart).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
      },
      photo: {
        description: "A file: {base64, filename?, contentType?}, or just its bytes as a base64 string.",
        anyOf: [
          {
            type: "object",
            properties: {
              base64: {
                type: "string",
                contentEncoding: "base64",
                description: "The file's bytes, base64-encoded.",
              },
              filename: {
                type: "string",
              },
              contentType: {
                type: "string",
              },
            },
            required: ["base64"],
            additionalProperties: false,
          },
          {
            type: "string",
            contentEncoding: "base64",
          },
        ],
      },
      caption: {
        type: "string",
      },
      meta: {
        type: "object",
        properties: {
          width: {
            type: "integer",
          },
          tags: {
            type: "array",
            items: {
              type: "string",
            },
          },
        },
      },
    },
    required: ["petId", "photo"],
    additionalProperties: false,
  },
  annotations: {
    title: "Upload a photo (multipart)",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/pets/{petId}/photo",
    parameters: [
      {
        argument: "petId",
        name: "petId",
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
        description: "What the server received",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
    body: {
      mediaType: "multipart/form-data",
      required: true,
      mode: "properties",
      kind: "multipart",
      properties: [
        {
          argument: "photo",
          name: "photo",
          shape: "primitive",
          file: true,
        },
        {
          argument: "caption",
          name: "caption",
          shape: "primitive",
        },
        {
          argument: "meta",
          name: "meta",
          shape: "object",
        },
      ],
      encoding: {
        meta: {
          contentType: "application/json",
        },
      },
    },
  },
  source: {
    pointer: "/paths/~1pets~1{petId}~1photo/post",
    operationId: "uploadPetPhoto",
  },
  tags: ["pets", "body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
