/**
 * Same module name as getThing after kebab-casing. Read-only.
 *
 * Tool `get_thing`: `GET /things/get-thing`.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/engine/bridge-options.js";

/** Arguments of `get_thing` after validation: what its `beforeCall` hook receives. */
export interface Args {}

/** The tool as the runtime serves it: name, schemas, annotations and HTTP binding. */
export const tool: ToolNode = {
  name: "get_thing",
  title: "Same module name as getThing after kebab-casing",
  description: "Same module name as getThing after kebab-casing. Read-only.",
  inputSchema: {
    type: "object",
    properties: {},
    additionalProperties: false,
  },
  annotations: {
    title: "Same module name as getThing after kebab-casing",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  http: {
    method: "get",
    path: "/things/get-thing",
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
        status: "200",
        description: "ok",
        mediaTypes: [],
      },
    ],
    accept: [],
  },
  source: {
    pointer: "/paths/~1things~1get-thing/get",
    operationId: "get_thing",
  },
  tags: [],
  deprecated: false,
};

/** Hooks of this tool, as `src/hooks.ts` takes them (see there). */
export type Hooks = ToolHooks<Args>;
