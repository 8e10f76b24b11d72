/**
 * Every tool of Evil `${process.exit(1)}` *\/ process.exit(2) /* "quoted" 'single' </script><script>alert(1)</script>, in the spec's order, and their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";
import * as getThingProcessExit23 from "./get-thing-process-exit-23.js";
import * as constructor_ from "./constructor.js";
import * as indexTool from "./index-tool.js";
import * as conTool from "./con-tool.js";
import * as getThing from "./get-thing.js";
import * as getThing445742 from "./get-thing-445742.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [
  getThingProcessExit23.tool,
  constructor_.tool,
  indexTool.tool,
  conTool.tool,
  getThing.tool,
  getThing445742.tool,
];

/** Each tool's hooks, by tool name. */
export const hooks: Record<string, ToolHooks<object>> = {
  getThing_process_exit_23: getThingProcessExit23.hooks,
  constructor: constructor_.hooks,
  index: indexTool.hooks,
  CON: conTool.hooks,
  get_thing: getThing.hooks,
  "Get-Thing": getThing445742.hooks,
};
