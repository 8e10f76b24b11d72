/**
 * Every tool of Circular refs, in the spec's order, and their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";
import * as createNode from "./create-node.js";
import * as getPerson from "./get-person.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [createNode.tool, getPerson.tool];

/** Each tool's hooks, by tool name. */
export const hooks: Record<string, ToolHooks<object>> = {
  createNode: createNode.hooks,
  getPerson: getPerson.hooks,
};
