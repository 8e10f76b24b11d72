/**
 * Every tool of Circular refs, in the spec's order, and the type of their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import * as createNode from "./create-node.js";
import * as getPerson from "./get-person.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [createNode.tool, getPerson.tool];

/** What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name. */
export type ToolHooksByName = {
  createNode?: createNode.Hooks;
  getPerson?: getPerson.Hooks;
};
