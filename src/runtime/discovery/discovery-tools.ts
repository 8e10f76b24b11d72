/**
 * The three tools of discovery mode, as tools/list shows them: search the operations, describe
 * some, call one. Their text is fixed but for the API's title, its operation count and a few of
 * its tags, each clipped, so tools/list stays under 1,000 tokens for any API (measured with
 * o200k_base in test/unit/runtime/discovery/discovery-tools.test.ts).
 */
import type { Tool } from "@modelcontextprotocol/server";
import { formatCount } from "../../model/format-count.js";
import type { BridgeModel, ToolNode } from "../../model/types.js";
import { isDestructive } from "../access/select.js";
import { clip } from "../results/body-text.js";

export const SEARCH_TOOL = "search_operations";
export const DESCRIBE_TOOL = "describe_operations";
export const CALL_TOOL = "call_operation";

/** The names, in the order tools/list gives them. */
export const DISCOVERY_TOOL_NAMES: readonly string[] = [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL];

/** Results a search gives unless asked for more, and at most. */
export const SEARCH_LIMITS = { default: 8, max: 50 } as const;

/** Operations one describe call takes at most. */
export const DESCRIBE_MAX = 10;

/** What the tools' descriptions say about the API. */
export interface DiscoveryContext {
  title: string;
  /** Selected operations. */
  operations: number;
  /** The most used tags, most used first. */
  tags: string[];
}

export function isDiscoveryTool(name: string): boolean {
  return DISCOVERY_TOOL_NAMES.includes(name);
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * The three tools. `call`'s annotations are those of the operations it can reach: read-only
 * when every one is (as with `--read-only`), destructive when any is.
 */
export function listDiscoveryTools(context: DiscoveryContext, operations: readonly ToolNode[]): Tool[] {
  const api = describeApi(context);
  return [
    createSearchTool(
      context,
      `Returns the best matches first: name, HTTP method, path and summary. Then ${DESCRIBE_TOOL} for their arguments, and ${CALL_TOOL}.`,
    ),
    {
      name: DESCRIBE_TOOL,
      description:
        `Everything needed to call operations of ${api}, by name (from ${SEARCH_TOOL}): what each ` +
        "does and returns, the JSON Schema of its arguments, its annotations and whether the user " +
        "must confirm it.",
      inputSchema: DESCRIBE_INPUT_SCHEMA,
      annotations: { title: "Describe operations", ...READ_ONLY },
    },
    {
      name: CALL_TOOL,
      description:
        `Call one operation of ${api} by name, with the arguments its input schema (from ` +
        `${DESCRIBE_TOOL}) asks for. Arguments are checked before anything is sent; the result ` +
        "is the API's answer (XML read as JSON); `fields` picks fields of it, `continue` reads the rest of a cut one.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "the operation's name" },
          arguments: { type: "object", description: "the operation's arguments" },
          fields: {
            type: "array",
            items: { type: "string" },
            description:
              'only these fields of the answer ("returns" names them): dotted paths, [] per list element, e.g. ["items[].id","total"]',
          },
          continue: {
            type: "string",
            description: "a cut result's handle: its next part",
          },
        },
        additionalProperties: false,
      },
      annotations: {
        title: "Call an operation",
        ...reachAnnotations(operations),
        openWorldHint: true,
      },
    },
  ];
}

/** `the Petstore API`. */
export function describeApi(context: DiscoveryContext): string {
  return nameApi(clip(context.title, 60));
}

/**
 * `the Pet Store API`, and `the GitHub REST API`, `the Discourse API Documentation` or `the
 * Amadeus APIs` for a title that says API already: a third of real titles do, and every text
 * that names the API goes through here so none reads "the ... API API".
 */
export function nameApi(title: string): string {
  const trimmed = title.trim();
  return /\bAPIs?\b/i.test(trimmed) ? `the ${trimmed}` : `the ${trimmed} API`;
}

/** Annotations of a tool that can reach `operations`: read-only when all are, destructive when any is. */
export function reachAnnotations(operations: readonly ToolNode[]): {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
} {
  return {
    readOnlyHint: operations.every((tool) => tool.annotations.readOnlyHint),
    destructiveHint: operations.some(isDestructive),
    idempotentHint: operations.every((tool) => tool.annotations.idempotentHint),
  };
}

/** describe_operations' arguments (discovery and code mode alike). */
export const DESCRIBE_INPUT_SCHEMA: Tool["inputSchema"] = {
  type: "object",
  properties: {
    names: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      maxItems: DESCRIBE_MAX,
      description: "operation names",
    },
    pointer: {
      type: "string",
      description:
        'with one name: an "expand" pointer of a summary, shown in full; "/returns/<field>" names what its {…} holds',
    },
  },
  required: ["names"],
  additionalProperties: false,
};

/** search_operations, with `returns`: what its results hold and what comes next. */
export function createSearchTool(context: DiscoveryContext, returns: string): Tool {
  const api = describeApi(context);
  const count = `${formatCount(context.operations)} operation${context.operations === 1 ? "" : "s"}`;
  const tags = context.tags.length > 0 ? `, e.g. ${clip(context.tags.slice(0, 6).join(", "), 100)}` : "";
  return {
    name: SEARCH_TOOL,
    description:
      `Find the operations of ${api} (${count}) that do a task. Give the task in a few words ` +
      `("list open issues of a repository"). ${returns}`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "what you want to do, in a few words" },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: SEARCH_LIMITS.max,
          default: SEARCH_LIMITS.default,
          description: "results at most",
        },
        tag: { type: "string", description: `only operations with this tag${tags}` },
        method: { type: "string", description: "only this HTTP method, e.g. GET" },
        readOnly: { type: "boolean", description: "only operations that change nothing" },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        results: {
          type: "array",
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              method: { type: "string" },
              path: { type: "string" },
              summary: { type: "string" },
            },
            required: ["name", "method", "path", "summary"],
          },
        },
      },
      required: ["results"],
    },
    annotations: { title: "Search operations", ...READ_ONLY },
  };
}

/**
 * The context of the tools' descriptions, from the model being served (selection applied):
 * counted here, not by the search, so that tools/list never waits for a search index.
 */
export function toDiscoveryContext(model: BridgeModel): DiscoveryContext {
  return {
    title: model.info.title,
    operations: model.tools.length,
    tags: countTags(model.tools).map((t) => t.tag),
  };
}

/** Every tag of the tools with its count, most used first (ties by name). */
export function countTags(tools: readonly ToolNode[]): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const tool of tools) for (const tag of tool.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}
