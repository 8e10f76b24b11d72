/**
 * Get a thing *\/ process.exit(24) /*.
 * Returns a thing. ${process.exit(25)} and *\/ process.exit(26) /* and "quotes" and 'quotes'.
 * Example: id="`${process.exit(29)}`".
 *
 * Tool `getThing_process_exit_23`: `GET /things/{id}`.
 * Tags: evil *\/ tag, `${process.exit(27)}`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `getThing_process_exit_23` after validation: what its `beforeCall` hook receives. */
export interface Args {
  /** The id. *\/ process.exit(28) /* */
  id: string;
  /**
   * ${process.exit(31)} *\/ process.exit(32) /*
   * @defaultValue "*\/ process.exit(33) /*"
   */
  "q\"; process.exit(30); \""?: string;
  "x-evil-*/-header"?: "a`b" | "c${d}" | "e*/f";
}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "getThing_process_exit_23",
  title: "Get a thing */ process.exit(24) /*",
  description: "Get a thing */ process.exit(24) /*.\nReturns a thing. ${process.exit(25)} and */ process.exit(26) /* and \"quotes\" and 'quotes'.\nExample: id=\"`${process.exit(29)}`\".",
  inputSchema: {
    type: "object",
    properties: {
      id: {
        type: "string",
        examples: ["`${process.exit(29)}`"],
        description: "The id. */ process.exit(28) /*",
      },
      "q\"; process.exit(30); \"": {
        type: "string",
        default: "*/ process.exit(33) /*",
        description: "${process.exit(31)} */ process.exit(32) /*",
      },
      "x-evil-*/-header": {
        type: "string",
        enum: ["a`b", "c${d}", "e*/f"],
      },
    },
    required: ["id"],
    additionalProperties: false,
  },
  resultFields: {
    fields: {
      "*/ process.exit(16) /*": {},
      "\"; process.exit(17); \"": {},
      "${process.exit(21)}": {},
      ["__proto__"]: {},
      constructor: {},
      "naïve 🚀": {},
      child: {
        fields: {
          "*/ process.exit(16) /*": {},
          "\"; process.exit(17); \"": {},
          "${process.exit(21)}": {},
          ["__proto__"]: {},
          constructor: {},
          "naïve 🚀": {},
          child: {
            fields: {
              "*/ process.exit(16) /*": {},
              "\"; process.exit(17); \"": {},
              "${process.exit(21)}": {},
              ["__proto__"]: {},
              constructor: {},
              "naïve 🚀": {},
              child: {
                fields: {
                  "*/ process.exit(16) /*": {},
                  "\"; process.exit(17); \"": {},
                  "${process.exit(21)}": {},
                  ["__proto__"]: {},
                  constructor: {},
                  "naïve 🚀": {},
                  child: {
                    more: 7,
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
    title: "Get a thing */ process.exit(24) /*",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/things/{id}",
    parameters: [
      {
        argument: "id",
        name: "id",
        in: "path",
        required: true,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "q\"; process.exit(30); \"",
        name: "q\"; process.exit(30); \"",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        allowReserved: false,
        shape: "primitive",
      },
      {
        argument: "x-evil-*/-header",
        name: "x-evil-*/-header",
        in: "header",
        required: false,
        style: "simple",
        explode: false,
        allowReserved: false,
        shape: "primitive",
      },
    ],
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
        status: "200",
        description: "The thing. `${process.exit(34)}`",
        mediaTypes: ["application/json"],
      },
      {
        status: "404",
        description: "*/ process.exit(35) /*",
        mediaTypes: [],
      },
    ],
    accept: ["application/json"],
  },
  source: {
    pointer: "/paths/~1things~1{id}/get",
    operationId: "getThing`${process.exit(23)}`",
  },
  tags: ["evil */ tag", "`${process.exit(27)}`"],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
