/**
 * Every tool of Evil `${process.exit(1)}` *\/ process.exit(2) /* "quoted" 'single' </script><script>alert(1)</script>, in the spec's order, and the type of their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
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

/** What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name. */
export type ToolHooksByName = {
  getThing_process_exit_23?: getThingProcessExit23.Hooks;
  constructor?: constructor_.Hooks | Object["constructor"];
  index?: indexTool.Hooks;
  CON?: conTool.Hooks;
  get_thing?: getThing.Hooks;
  "Get-Thing"?: getThing445742.Hooks;
};
