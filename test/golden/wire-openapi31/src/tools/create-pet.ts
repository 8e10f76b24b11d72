/**
 * Create a pet.
 * Returns an object: id, name, tag.
 *
 * Tool `createPet`: `POST /pets`.
 * Tags: pets, body.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `createPet` after validation: what its `beforeCall` hook receives. */
export interface Args {
  dryRun?: boolean;
  /** The pet's name */
  name: string;
  tag?: string | null;
  age?: number;
  extraProperties?: Record<string, unknown>;
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "createPet",
  title: "Create a pet",
  description: "Create a pet.\nReturns an object: id, name, tag.",
  inputSchema: {
    type: "object",
    properties: {
      dryRun: {
        type: "boolean",
      },
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
      extraProperties: {
        type: "object",
      },
    },
    required: ["name"],
    additionalProperties: false,
  },
  resultFields: {
    fields: {
      id: {},
      name: {},
      tag: {},
    },
  },
  annotations: {
    title: "Create a pet",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/pets",
    parameters: [
      {
        argument: "dryRun",
        name: "dryRun",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
    ],
    security: [],
    responses: [
      {
        status: "201",
        description: "The created pet",
        mediaTypes: ["application/json"],
      },
    ],
    accept: ["application/json"],
    body: {
      mediaType: "application/json",
      required: true,
      mode: "properties",
      kind: "json",
      properties: [
        {
          argument: "name",
          name: "name",
          shape: "primitive",
        },
        {
          argument: "tag",
          name: "tag",
          shape: "primitive",
        },
        {
          argument: "age",
          name: "age",
          shape: "primitive",
        },
      ],
      extraArgument: "extraProperties",
    },
  },
  source: {
    pointer: "/paths/~1pets/post",
    operationId: "createPet",
  },
  tags: ["pets", "body"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
