/**
 * Every tool of Security requirements, in the spec's order, and their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";
import * as inherited from "./inherited.js";
import * as public_ from "./public.js";
import * as either from "./either.js";
import * as both from "./both.js";
import * as oauth from "./oauth.js";
import * as oidc from "./oidc.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [inherited.tool, public_.tool, either.tool, both.tool, oauth.tool, oidc.tool];

/** Each tool's hooks, by tool name. */
export const hooks: Record<string, ToolHooks<object>> = {
  inherited: inherited.hooks,
  public: public_.hooks,
  either: either.hooks,
  both: both.hooks,
  oauth: oauth.hooks,
  oidc: oidc.hooks,
};
