/**
 * Every tool of Naming, in the spec's order, and the type of their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import * as listThingsV2Beta from "./list-things-v2-beta.js";
import * as thingsList from "./things-list.js";
import * as listAllThings from "./list-all-things.js";
import * as thingsList7a47cb from "./things-list-7a47cb.js";
import * as retrieveTheCompleteListOfAllOrganizationAndProjectA3a8cc11b from "./retrieve-the-complete-list-of-all-organization-and-project-a-3a8cc11b.js";
import * as retrieveTheCompleteListOfAllOrganizationAndProjectB9ca6fda7 from "./retrieve-the-complete-list-of-all-organization-and-project-b-9ca6fda7.js";
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
  retrieveTheCompleteListOfAllOrganizationAndProjectA3a8cc11b.tool,
  retrieveTheCompleteListOfAllOrganizationAndProjectB9ca6fda7.tool,
  a234567890123456789012345678901234567890123456789012345678901234.tool,
  clashName833434.tool,
  clashName.tool,
  getNoIdByWidgetIdParts.tool,
  postNoIdByWidgetIdParts.tool,
  getNoIdWidgetsParts.tool,
];

/** What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name. */
export type ToolHooksByName = {
  "listThings_v2-beta"?: listThingsV2Beta.Hooks;
  things_list?: thingsList.Hooks;
  list_all_things?: listAllThings.Hooks;
  things_list_7a47cb?: thingsList7a47cb.Hooks;
  retrieveTheCompleteListOfAll_OrganizationAndProjectA_3a8cc11b?: retrieveTheCompleteListOfAllOrganizationAndProjectA3a8cc11b.Hooks;
  retrieveTheCompleteListOfAll_OrganizationAndProjectB_9ca6fda7?: retrieveTheCompleteListOfAllOrganizationAndProjectB9ca6fda7.Hooks;
  a234567890123456789012345678901234567890123456789012345678901234?: a234567890123456789012345678901234567890123456789012345678901234.Hooks;
  clash_name_833434?: clashName833434.Hooks;
  clash_name?: clashName.Hooks;
  "get_no-id_by_widgetId_parts"?: getNoIdByWidgetIdParts.Hooks;
  "post_no-id_by_widgetId_parts"?: postNoIdByWidgetIdParts.Hooks;
  "get_no-id_widgets_parts"?: getNoIdWidgetsParts.Hooks;
};
