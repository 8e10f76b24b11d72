/**
 * Every tool of Naming, in the spec's order, and their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";
import * as listThingsV2Beta from "./list-things-v2-beta.js";
import * as thingsList from "./things-list.js";
import * as listAllThings from "./list-all-things.js";
import * as thingsList7a47cb from "./things-list-7a47cb.js";
import * as retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr3a8cc11b from "./retrieve-the-complete-list-of-all-registered-widgets-for-the-curr-3a8cc11b.js";
import * as retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr9ca6fda7 from "./retrieve-the-complete-list-of-all-registered-widgets-for-the-curr-9ca6fda7.js";
import * as a234567890123456789012345678901234567890123456789012345678901234 from "./a234567890123456789012345678901234567890123456789012345678901234.js";
import * as clashName833434 from "./clash-name-833434.js";
import * as clashName from "./clash-name.js";
import * as getNoIdByWidgetIdParts from "./get-no-id-by-widget-id-parts.js";
import * as postNoIdByWidgetIdParts from "./post-no-id-by-widget-id-parts.js";
import * as getNoIdWidgetsParts from "./get-no-id-widgets-parts.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [
  listThingsV2Beta.tool,
  thingsList.tool,
  listAllThings.tool,
  thingsList7a47cb.tool,
  retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr3a8cc11b.tool,
  retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr9ca6fda7.tool,
  a234567890123456789012345678901234567890123456789012345678901234.tool,
  clashName833434.tool,
  clashName.tool,
  getNoIdByWidgetIdParts.tool,
  postNoIdByWidgetIdParts.tool,
  getNoIdWidgetsParts.tool,
];

/** Each tool's hooks, by tool name. */
export const hooks: Record<string, ToolHooks<object>> = {
  "listThings_v2-beta": listThingsV2Beta.hooks,
  things_list: thingsList.hooks,
  list_all_things: listAllThings.hooks,
  things_list_7a47cb: thingsList7a47cb.hooks,
  retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr_3a8cc11b: retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr3a8cc11b.hooks,
  retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr_9ca6fda7: retrieveTheCompleteListOfAllRegisteredWidgetsForTheCurr9ca6fda7.hooks,
  a234567890123456789012345678901234567890123456789012345678901234: a234567890123456789012345678901234567890123456789012345678901234.hooks,
  clash_name_833434: clashName833434.hooks,
  clash_name: clashName.hooks,
  "get_no-id_by_widgetId_parts": getNoIdByWidgetIdParts.hooks,
  "post_no-id_by_widgetId_parts": postNoIdByWidgetIdParts.hooks,
  "get_no-id_widgets_parts": getNoIdWidgetsParts.hooks,
};
