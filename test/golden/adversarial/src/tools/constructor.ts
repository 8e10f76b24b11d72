/**
 * Constructor.
 *
 * Tool `constructor`: `POST /things`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `constructor` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** A property whose name closes a comment. */
  "*/ process.exit(16) /*"?: string;
  "\"; process.exit(17); \""?:
    | "`${process.exit(18)}`"
    | "\"; process.exit(19); \""
    | "*/ process.exit(20) /*"
    | "\\"
    | "<\/script>";
  /** @defaultValue 42 */
  "${process.exit(21)}"?: number;
  /** A property named proto. */
  __proto____body?: string;
  constructor__body?: string;
  "naïve 🚀"?: string;
  child?: Thing;
  extraProperties?: Record<string, unknown>;
}

/** A thing *\/ process.exit(14) /* with ${process.exit(15)} */
export type Thing = {
  /** A property whose name closes a comment. */
  "*/ process.exit(16) /*"?: string;
  "\"; process.exit(17); \""?:
    | "`${process.exit(18)}`"
    | "\"; process.exit(19); \""
    | "*/ process.exit(20) /*"
    | "\\"
    | "<\/script>";
  /** @defaultValue 42 */
  "${process.exit(21)}"?: number;
  /** A property named proto. */
  __proto__?: string;
  constructor?: string;
  "naïve 🚀"?: string;
  child?: Thing;
};

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "constructor",
  title: "Constructor",
  description: "Constructor.",
  inputSchema: {
    type: "object",
    properties: {
      "*/ process.exit(16) /*": {
        type: "string",
        description: "A property whose name closes a comment.",
      },
      "\"; process.exit(17); \"": {
        type: "string",
        enum: [
          "`${process.exit(18)}`",
          "\"; process.exit(19); \"",
          "*/ process.exit(20) /*",
          "\\",
          "<\/script>",
        ],
      },
      "${process.exit(21)}": {
        type: "integer",
        default: 42,
      },
      __proto____body: {
        type: "string",
        description: "A property named proto.",
      },
      constructor__body: {
        type: "string",
      },
      "naïve 🚀": {
        type: "string",
        examples: ["`${process.exit(22)}`"],
      },
      child: {
        $ref: "#/$defs/Thing",
      },
      extraProperties: {
        type: "object",
      },
    },
    additionalProperties: false,
    $defs: {
      Thing: {
        type: "object",
        description: "A thing */ process.exit(14) /* with ${process.exit(15)}",
        properties: {
          "*/ process.exit(16) /*": {
            type: "string",
            description: "A property whose name closes a comment.",
          },
          "\"; process.exit(17); \"": {
            type: "string",
            enum: [
              "`${process.exit(18)}`",
              "\"; process.exit(19); \"",
              "*/ process.exit(20) /*",
              "\\",
              "<\/script>",
            ],
          },
          "${process.exit(21)}": {
            type: "integer",
            default: 42,
          },
          ["__proto__"]: {
            type: "string",
            description: "A property named proto.",
          },
          constructor: {
            type: "string",
          },
          "naïve 🚀": {
            type: "string",
            examples: ["`${process.exit(22)}`"],
          },
          child: {
            $ref: "#/$defs/Thing",
          },
        },
      },
    },
  },
  annotations: {
    title: "Constructor",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  http: {
    method: "post",
    path: "/things",
    parameters: [],
    security: [
      {
        "key.evil_-name": [],
      },
      {
        bearer: [],
      },
    ],
    responses: [
      {
        status: "201",
        description: "created",
        mediaTypes: [],
      },
    ],
    accept: [],
    body: {
      mediaType: "application/json",
      required: true,
      mode: "properties",
      kind: "json",
      properties: [
        {
          argument: "*/ process.exit(16) /*",
          name: "*/ process.exit(16) /*",
          shape: "primitive",
        },
        {
          argument: "\"; process.exit(17); \"",
          name: "\"; process.exit(17); \"",
          shape: "primitive",
        },
        {
          argument: "${process.exit(21)}",
          name: "${process.exit(21)}",
          shape: "primitive",
        },
        {
          argument: "__proto____body",
          name: "__proto__",
          shape: "primitive",
        },
        {
          argument: "constructor__body",
          name: "constructor",
          shape: "primitive",
        },
        {
          argument: "naïve 🚀",
          name: "naïve 🚀",
          shape: "primitive",
        },
        {
          argument: "child",
          name: "child",
          shape: "object",
        },
      ],
      extraArgument: "extraProperties",
    },
  },
  source: {
    pointer: "/paths/~1things/post",
    operationId: "constructor",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
