/**
 * Create node.
 * Returns an object: name, children. Required: name.
 *
 * Tool `createNode`: `POST /nodes`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `createNode` after validation: what its `beforeCall` hook receives. */
export interface Args {
  name: string;
  children?: Node[];
  extraProperties?: Record<string, unknown>;
}

export type Node = {
  name: string;
  children?: Node[];
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "createNode",
  title: "Create node",
  description: "Create node.\nReturns an object: name, children. Required: name.",
  inputSchema: {
    type: "object",
    properties: {
      name: {
        type: "string",
      },
      children: {
        type: "array",
        items: {
          $ref: "#/$defs/Node",
        },
      },
      extraProperties: {
        type: "object",
      },
    },
    required: ["name"],
    additionalProperties: false,
    $defs: {
      Node: {
        type: "object",
        required: ["name"],
        properties: {
          name: {
            type: "string",
          },
          children: {
            type: "array",
            items: {
              $ref: "#/$defs/Node",
            },
          },
        },
      },
    },
  },
  resultFields: {
    fields: {
      name: {},
      children: {
        list: true,
        fields: {
          name: {},
          children: {
            list: true,
            fields: {
              name: {},
              children: {
                list: true,
                fields: {
                  name: {},
                  children: {
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
    title: "Create node",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/nodes",
    parameters: [],
    security: [],
    responses: [
      {
        status: "200",
        description: "The node",
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
          argument: "children",
          name: "children",
          shape: "array",
        },
      ],
      extraArgument: "extraProperties",
    },
  },
  source: {
    pointer: "/paths/~1nodes/post",
    operationId: "createNode",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
