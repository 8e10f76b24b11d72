/**
 * Uploads an image.
 * Returns an object: code, type, message.
 *
 * Tool `uploadFile`: `POST /pet/{petId}/uploadImage`.
 * Tags: pet.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `uploadFile` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /**
   * ID of pet to update
   * Format: int64.
   */
  petId: number;
  /** Additional data to pass to server */
  additionalMetadata?: string;
  /** file to upload */
  file?: {
    /** The file's bytes, base64-encoded. */
    base64: string;
    filename?: string;
    contentType?: string;
  } | string;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "uploadFile",
  title: "Uploads an image",
  description: "Uploads an image.\nReturns an object: code, type, message.",
  inputSchema: {
    type: "object",
    properties: {
      petId: {
        type: "integer",
        format: "int64",
        description: "ID of pet to update",
      },
      additionalMetadata: {
        description: "Additional data to pass to server",
        type: "string",
      },
      file: {
        description: "file to upload",
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
    },
    required: ["petId"],
    additionalProperties: false,
  },
  resultFields: {
    fields: {
      code: {},
      type: {},
      message: {},
    },
  },
  annotations: {
    title: "Uploads an image",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/pet/{petId}/uploadImage",
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
    security: [
      {
        petstore_auth: ["write:pets", "read:pets"],
      },
    ],
    responses: [
      {
        status: "200",
        description: "successful operation",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
    body: {
      mediaType: "multipart/form-data",
      required: false,
      mode: "properties",
      kind: "multipart",
      properties: [
        {
          argument: "additionalMetadata",
          name: "additionalMetadata",
          shape: "primitive",
        },
        {
          argument: "file",
          name: "file",
          shape: "primitive",
          file: true,
        },
      ],
    },
  },
  source: {
    pointer: "/paths/~1pet~1{petId}~1uploadImage/post",
    operationId: "uploadFile",
  },
  tags: ["pet"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
