/**
 * The caller of an MCP request when the bridge's OAuth front door verified its access token
 * (transport/oauth/): who it is (the token's subject, the audit identity) and what its scopes
 * let it call. Without the front door there is no caller and nothing is refused here.
 */
import type { AuthInfo, CallToolResult } from "@modelcontextprotocol/server";
import type { BridgeModel, ToolNode } from "../../model/types.js";
import { ERROR_META_KEY, toErrorResult } from "../results/error-result.js";

export interface CallerAccess {
  /** The access token's subject (`sub`, else its client): the audit identity. */
  subject: string;
  /** The scopes to ask for before `tool` may be called; empty when the token may call it. */
  missingScopes(tool: ToolNode): string[];
}

/** Whether the caller (if any) may call `tool`. */
export function mayCall(caller: CallerAccess | undefined, tool: ToolNode): boolean {
  return caller === undefined || caller.missingScopes(tool).length === 0;
}

/** The tools the caller (if any) may call: a token's scopes hide the others, their names too. */
export function filterCallable(
  tools: readonly ToolNode[],
  caller: CallerAccess | undefined,
): readonly ToolNode[] {
  return caller === undefined ? tools : tools.filter((tool) => mayCall(caller, tool));
}

/**
 * The answer to a call the token's scopes do not cover (an operation called from a program, or
 * one the HTTP step-up answer did not catch): nothing was sent upstream.
 */
export function toScopeRefusal(tool: ToolNode, missing: readonly string[]): CallToolResult {
  const result = toErrorResult(
    `The operation ${tool.name} needs the OAuth scope${missing.length === 1 ? "" : "s"} ${missing.join(" ")}, ` +
      "which the access token of this connection does not carry. Nothing was sent to the API. " +
      "Tell the user: signing in again with these scopes (step-up) lets the call through.",
    "permission",
  );
  // The scopes to ask for, for a client that reads the facts rather than the text.
  const facts = result._meta?.[ERROR_META_KEY] as Record<string, unknown>;
  facts.requiredScopes = [...missing];
  return result;
}

/** Each served model's tools by name (a reload brings a new model: the map follows it). */
const byModel = new WeakMap<BridgeModel, Map<string, ToolNode>>();

export function findServedTool(model: BridgeModel, name: string): ToolNode | undefined {
  let byName = byModel.get(model);
  if (byName === undefined) {
    byName = new Map(model.tools.map((tool) => [tool.name, tool]));
    byModel.set(model, byName);
  }
  return byName.get(name);
}

/** Makes the caller of a request from what its transport verified (the SDK's AuthInfo). */
export interface CallerSource {
  callerOf(authInfo: AuthInfo | undefined): CallerAccess | undefined;
}
