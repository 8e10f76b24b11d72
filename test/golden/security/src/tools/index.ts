/**
 * Every tool of Security requirements, in the spec's order, and the type of their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import * as inherited from "./inherited.js";
import * as public_ from "./public.js";
import * as either from "./either.js";
import * as both from "./both.js";
import * as oauth from "./oauth.js";
import * as oidc from "./oidc.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [inherited.tool, public_.tool, either.tool, both.tool, oauth.tool, oidc.tool];

/** What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name. */
export type ToolHooksByName = {
  inherited?: inherited.Hooks;
  public?: public_.Hooks;
  either?: either.Hooks;
  both?: both.Hooks;
  oauth?: oauth.Hooks;
  oidc?: oidc.Hooks;
};
