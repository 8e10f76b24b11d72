/**
 * The operation a model names in discovery and code mode (describe, call_operation, `api.<name>`
 * in a program): the tool of that exact name, or else the one tool whose name is the same
 * without case and separators (model/similarity.ts). A model that writes code turns
 * `get-an-artist` into `get_an_artist` or `getAnArtist`; a round trip to learn the exact
 * spelling helps no one. Two tools whose names differ only so are never guessed between: such a
 * name finds neither, and the answer lists the closest as before. A name that is a search
 * result's route, `GET /artists/{id}`, is the operation of that method and path template. An
 * AWS query action's name (`DescribeInstances`, loosely spelt too) is its operation when the
 * API serves it as `/#Action=DescribeInstances` (`GET_DescribeInstances`, `POST_...`): the two
 * methods are one action there, so the GET is taken.
 */
import { normaliseName } from "../../model/similarity.js";
import type { ToolNode } from "../../model/types.js";
import { MAX_NAME_CHARS } from "./closest.js";

/** `GET /artists/{id}`: a method and a path template, as search results write them. */
const ROUTE = /^([A-Za-z]+)\s+(\/\S*)$/;

/** Marks a normalised name that two tools share. */
const SHARED = null;

export type OperationLookup = (name: string) => ToolNode | undefined;

/**
 * The lookup over `tools`, its names indexed on the first lookup (not at start: discovery and
 * code mode are made before the first tools/list); the loose names on the first name that is
 * not exact.
 */
export function createOperationLookup(tools: readonly ToolNode[]): OperationLookup {
  let exact: Map<string, ToolNode> | undefined;
  let loose: Map<string, ToolNode | typeof SHARED> | undefined;
  let routes: Map<string, ToolNode> | undefined;
  let actions: Map<string, ToolNode> | undefined;
  return (name) => {
    exact ??= new Map<string, ToolNode>(tools.map((tool) => [tool.name, tool]));
    const tool = exact.get(name);
    if (tool !== undefined || name.length > MAX_NAME_CHARS) return tool;
    const route = ROUTE.exec(name.trim());
    if (route !== null) {
      routes ??= new Map(tools.map((t) => [routeKey(t.http.method, t.http.path), t]));
      return routes.get(routeKey(route[1]!, route[2]!));
    }
    loose ??= indexLooseNames(tools);
    const found = loose.get(normaliseName(name));
    if (found !== undefined && found !== SHARED) return found;
    actions ??= indexQueryActions(tools);
    return actions.get(normaliseName(name));
  };
}

/** AWS's query protocol: the action in the path's fragment (`/#Action=RunInstances`). */
const QUERY_ACTION = /#Action=([A-Za-z0-9]+)$/;

function indexQueryActions(tools: readonly ToolNode[]): Map<string, ToolNode> {
  const actions = new Map<string, ToolNode>();
  for (const tool of tools) {
    const action = QUERY_ACTION.exec(tool.http.path)?.[1];
    if (action === undefined) continue;
    const key = normaliseName(action);
    const known = actions.get(key);
    if (known === undefined || (tool.http.method === "get" && known.http.method !== "get"))
      actions.set(key, tool);
  }
  return actions;
}

function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

function indexLooseNames(tools: readonly ToolNode[]): Map<string, ToolNode | typeof SHARED> {
  const loose = new Map<string, ToolNode | typeof SHARED>();
  for (const tool of tools) {
    const key = normaliseName(tool.name);
    loose.set(key, loose.has(key) ? SHARED : tool);
  }
  return loose;
}
