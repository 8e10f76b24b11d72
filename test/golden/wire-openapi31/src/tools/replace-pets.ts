/**
 * Replace every pet (array body).
 * Returns JSON.
 *
 * Tool `replacePets`: `PUT /pets/bulk`.
 * Tags: pets, body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `replacePets` after validation: what its `beforeCall` hook receives. */
export interface Args {
  body: NewPet[];
}

export type NewPet = {
  /** The pet's name */
  name: string;
  tag?: string | null;
  age?: number;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "replacePets",
  title: "Replace every pet (array body)",
  description: "Replace every pet (array body).\nReturns JSON.",
  inputSchema: {
    type: "object",
    properties: {
      body: {
        type: "array",
        items: {
          $ref: "#/$defs/NewPet",
        },
      },
    },
    required: ["body"],
    additionalProperties: false,
    $defs: {
      NewPet: {
        type: "object",
        required: ["name"],
        properties: {
          name: {
            type: "string",
            description: "The pet's name",
          },
          tag: {
            type: ["string", "null"],
          },
          age: {
            type: "integer",
            minimum: 0,
          },
        },
      },
    },
  },
  annotations: {
    title: "Replace every pet (array body)",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "put",
    path: "/pets/bulk",
    parameters: [],
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
      mediaType: "application/json",
      required: true,
      mode: "value",
      kind: "json",
      argument: "body",
    },
  },
  source: {
    pointer: "/paths/~1pets~1bulk/put",
    operationId: "replacePets",
  },
  tags: ["pets", "body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
