/**
 * Access control on the model, before anything is served: which tools exist at all (by name
 * glob, tag, method, path glob, read-only mode, destructive policy). A tool filtered out here is
 * neither listed nor callable. The generated projects use the same code.
 */

import { failWith } from "../../model/diagnostics.js";
import { HTTP_METHODS, isHttpMethod } from "../../model/http-methods.js";
import { suggestNames } from "../../model/similarity.js";
import type { BridgeModel, HttpMethod, ToolNode } from "../../model/types.js";

/** What to do with destructive operations (DELETE, and any tool annotated destructive). */
export type DestructivePolicy = "allow" | "refuse" | "confirm";

export interface ToolSelection {
  /** Keep only tools whose name matches one of these globs (`*`, `?`; case-insensitive). */
  includeTools?: string[];
  /** Drop tools whose name matches one of these globs. */
  excludeTools?: string[];
  /** Keep only tools with one of these tags (case-insensitive). */
  includeTags?: string[];
  /** Drop tools with one of these tags. */
  excludeTags?: string[];
  /** Keep only these HTTP methods (case-insensitive). */
  methods?: string[];
  /** Keep only tools whose path template matches one of these globs (`*` one segment, `**` any). */
  paths?: string[];
  /** Keep only GET, HEAD and OPTIONS operations. */
  readOnly?: boolean;
  /** `refuse` drops destructive tools; `confirm` keeps them (the runtime asks the user); default `allow`. */
  destructive?: DestructivePolicy;
}

export interface SelectionResult {
  tools: ToolNode[];
  /** Patterns, tags or methods given that matched no tool of the whole model (likely typos). */
  unmatched: string[];
  /** For an unmatched tag or tool name (no glob), the spec's closest ones: what "did you mean" says. */
  near: Record<string, string[]>;
}

const SAFE_METHODS = new Set<HttpMethod>(["get", "head", "options"]);

/** The destructive policy when none is given (`--destructive` cites it). */
export const DEFAULT_DESTRUCTIVE: DestructivePolicy = "allow";

/** DELETE, and anything whose annotations say destructive (PUT, PATCH in this bridge's model). */
export function isDestructive(tool: ToolNode): boolean {
  return tool.http.method === "delete" || tool.annotations.destructiveHint;
}

/** Methods that change what they name: never read-only, whatever a spec or a model says. */
const WRITE_METHODS = new Set<HttpMethod>(["put", "patch", "delete"]);

/**
 * The annotations no spec or model can contradict: PUT, PATCH and DELETE are never read-only,
 * and DELETE is always destructive (a client may auto-approve read-only tools, and
 * `--destructive` must see every DELETE). The same tool when it already says so.
 */
export function withMethodAnnotations(tool: ToolNode): ToolNode {
  const { method } = tool.http;
  const { readOnlyHint, destructiveHint } = tool.annotations;
  const readOnly = readOnlyHint && !WRITE_METHODS.has(method);
  const destructive = destructiveHint || method === "delete";
  if (readOnly === readOnlyHint && destructive === destructiveHint) return tool;
  return {
    ...tool,
    annotations: { ...tool.annotations, readOnlyHint: readOnly, destructiveHint: destructive },
  };
}

/** True when no option of the selection would drop a tool. */
export function isEmptySelection(selection: ToolSelection | undefined): boolean {
  if (!selection) return true;
  return (
    !selection.includeTools?.length &&
    !selection.excludeTools?.length &&
    !selection.includeTags?.length &&
    !selection.excludeTags?.length &&
    !selection.methods?.length &&
    !selection.paths?.length &&
    selection.readOnly !== true &&
    selection.destructive !== "refuse"
  );
}

/**
 * The tools the selection keeps, in model order (with the annotations their methods allow, see
 * withMethodAnnotations), plus the criteria that matched nothing.
 */
export function selectTools(tools: ToolNode[], selection: ToolSelection = {}): SelectionResult {
  for (const method of selection.methods ?? []) {
    if (!isHttpMethod(method.toLowerCase())) {
      throw new Error(`unknown HTTP method "${method}" (expected one of ${HTTP_METHODS.join(", ")})`);
    }
  }
  if (
    selection.destructive !== undefined &&
    !["allow", "refuse", "confirm"].includes(selection.destructive)
  ) {
    throw new Error(`destructive must be allow, refuse or confirm, not "${selection.destructive}"`);
  }
  const includeNames = (selection.includeTools ?? []).map((glob) => [glob, compileGlob(glob, true)] as const);
  const excludeNames = (selection.excludeTools ?? []).map((glob) => [glob, compileGlob(glob, true)] as const);
  const includePaths = (selection.paths ?? []).map((glob) => [glob, compileGlob(glob, false)] as const);
  const includeTags = new Set((selection.includeTags ?? []).map((t) => t.toLowerCase()));
  const excludeTags = new Set((selection.excludeTags ?? []).map((t) => t.toLowerCase()));
  const methods = new Set((selection.methods ?? []).map((m) => m.toLowerCase()));

  const used = new Set<string>();
  const kept: ToolNode[] = [];
  const nameGlobs = [...includeNames, ...excludeNames];
  // What a criterion that is not given would note is never asked: a start without a selection
  // (Graph beta: 22,361 tools) makes no lists and no notes per tool.
  const byTag = includeTags.size > 0 || excludeTags.size > 0;
  for (const listed of tools) {
    const tool = withMethodAnnotations(listed);
    const tags = byTag ? tool.tags.map((t) => t.toLowerCase()) : [];
    for (const [glob, test] of nameGlobs) if (test(tool.name)) used.add(`tool ${glob}`);
    for (const [glob, test] of includePaths) if (test(tool.http.path)) used.add(`path ${glob}`);
    for (const tag of tags) used.add(`tag ${tag}`);
    if (methods.size > 0) used.add(`method ${tool.http.method}`);

    if (includeNames.length > 0 && !includeNames.some(([, test]) => test(tool.name))) continue;
    if (excludeNames.some(([, test]) => test(tool.name))) continue;
    if (includeTags.size > 0 && !tags.some((t) => includeTags.has(t))) continue;
    if (tags.some((t) => excludeTags.has(t))) continue;
    if (methods.size > 0 && !methods.has(tool.http.method)) continue;
    if (includePaths.length > 0 && !includePaths.some(([, test]) => test(tool.http.path))) continue;
    if (selection.readOnly === true && !SAFE_METHODS.has(tool.http.method)) continue;
    if (selection.destructive === "refuse" && isDestructive(tool)) continue;
    kept.push(tool);
  }
  const unmatched = [
    ...includeNames.map(([g]) => `tool ${g}`),
    ...excludeNames.map(([g]) => `tool ${g}`),
    ...includePaths.map(([g]) => `path ${g}`),
    ...[...includeTags, ...excludeTags].map((t) => `tag ${t}`),
    ...[...methods].map((m) => `method ${m}`),
  ].filter((key) => !used.has(key));
  const missed = [...new Set(unmatched)];
  return { tools: kept, unmatched: missed, near: missed.length > 0 ? findNearCriteria(missed, tools) : {} };
}

/** The spec's tags and tool names closest to each unmatched tag and plain tool name. */
function findNearCriteria(unmatched: string[], tools: ToolNode[]): Record<string, string[]> {
  const near: Record<string, string[]> = {};
  const tags = [...new Set(tools.flatMap((tool) => tool.tags))];
  const names = tools.map((tool) => tool.name);
  for (const criterion of unmatched) {
    const [kind, value = ""] = splitCriterion(criterion);
    const candidates = kind === "tag" ? tags : kind === "tool" && !/[*?]/.test(value) ? names : [];
    const suggested = suggestNames(value, candidates, 3);
    if (suggested.length > 0) near[criterion] = suggested;
  }
  return near;
}

function splitCriterion(criterion: string): [string, string] {
  const space = criterion.indexOf(" ");
  return [criterion.slice(0, space), criterion.slice(space + 1)];
}

/** The note for a criterion that matched nothing, with the spec's closest names when there are any. */
export function describeUnmatched(criterion: string, near: Record<string, string[]> = {}): string {
  const suggested = near[criterion];
  const didYouMean =
    suggested === undefined
      ? ""
      : `; did you mean ${suggested.map((name) => JSON.stringify(name)).join(" or ")}?`;
  return `${criterion} matches no operation of the spec${didYouMean}`;
}

/**
 * selectTools for options a user typed: an invalid selection (an unknown method or policy) is
 * the diagnostic OMB_OPTION, with `hint` saying where the options are described.
 */
export function selectToolsChecked(
  tools: ToolNode[],
  selection: ToolSelection,
  hint: string,
): SelectionResult {
  try {
    return selectTools(tools, selection);
  } catch (error) {
    return failWith("OMB_OPTION", (error as Error).message, { hint });
  }
}

/**
 * The model with only the selected tools, each with annotations its method allows
 * (withMethodAnnotations); the same object when nothing is filtered or corrected.
 */
export function selectModel(model: BridgeModel, selection: ToolSelection | undefined): BridgeModel {
  if (!isEmptySelection(selection)) return { ...model, tools: selectTools(model.tools, selection).tools };
  const guarded = model.tools.map(withMethodAnnotations);
  return guarded.some((tool, i) => tool !== model.tools[i]) ? { ...model, tools: guarded } : model;
}

/**
 * A glob as a predicate. Names: `*` any run, `?` one character, case-insensitive. Paths: `*`
 * any run within one segment, `**` any run across segments, `?` one character but `/`.
 */
export function compileGlob(glob: string, name: boolean): (text: string) => boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (!name && glob[i + 1] === "*") {
        source += ".*";
        i++;
      } else source += name ? ".*" : "[^/]*";
    } else if (c === "?") source += name ? "." : "[^/]";
    else source += c.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`, name ? "is" : "s");
  return (text) => regex.test(text);
}
