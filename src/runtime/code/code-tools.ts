/**
 * The three tools of code mode, as tools/list shows them: search_operations (discovery's, whose
 * results here carry each operation's TypeScript signature), describe_operations (the full
 * declarations) and execute (a JavaScript program run in a sandbox against the API). Their text
 * is fixed but for the API's title, its operation count, a few tags and the limits, so tools/list
 * stays under 1,000 tokens for any API (test/unit/runtime/code/code-tools.test.ts).
 */
import type { Tool } from "@modelcontextprotocol/server";
import { formatCount } from "../../model/format-count.js";
import type { ToolNode } from "../../model/types.js";
import {
  createSearchTool,
  DESCRIBE_INPUT_SCHEMA,
  DESCRIBE_TOOL,
  type DiscoveryContext,
  describeApi,
  READ_ONLY,
  reachAnnotations,
  SEARCH_TOOL,
} from "../discovery/discovery-tools.js";
import type { SandboxLimits } from "./sandbox/limits.js";

export const EXECUTE_TOOL = "execute";

/** The names, in the order tools/list gives them. */
export const CODE_TOOL_NAMES: readonly string[] = [SEARCH_TOOL, DESCRIBE_TOOL, EXECUTE_TOOL];

/** Characters of a program execute takes. */
export const MAX_PROGRAM_CHARS = 100_000;

export function isCodeTool(name: string): boolean {
  return CODE_TOOL_NAMES.includes(name);
}

export function listCodeTools(
  context: DiscoveryContext,
  operations: readonly ToolNode[],
  limits: SandboxLimits,
): Tool[] {
  const api = describeApi(context);
  return [
    createSearchTool(
      context,
      `Returns the best matches first, each with its TypeScript signature as a method of \`api\`. Then ${DESCRIBE_TOOL} for full declarations, and ${EXECUTE_TOOL}.`,
    ),
    {
      name: DESCRIBE_TOOL,
      description: `Full TypeScript declarations of operations of ${api}, by name (from ${SEARCH_TOOL}): arguments with their docs, and what each call's promise gives.`,
      inputSchema: DESCRIBE_INPUT_SCHEMA,
      annotations: { title: "Describe operations", ...READ_ONLY },
    },
    {
      name: EXECUTE_TOOL,
      description:
        `Run a JavaScript program against ${api}: the body of an async function, so use await and return. ` +
        "`await api.<method>(args)` calls an operation (the method name and arguments as in its signature) and gives its parsed result " +
        '(`api.<method>(args, { fields: ["items[].id"] })`: only those fields); ' +
        "a failed call throws an Error with status, category and apiMessage. Chain calls, filter and compute in the program " +
        "and return only what is needed: the return value is the result, console.log output comes with it. " +
        "TypeScript annotations are accepted. No network, files, timers or modules; " +
        `at most ${formatCount(limits.maxCalls)} API calls and ${formatCount(Math.round(limits.timeoutMs / 1000))} s.`,
      inputSchema: {
        type: "object",
        properties: {
          program: {
            type: "string",
            minLength: 1,
            maxLength: MAX_PROGRAM_CHARS,
            description: "e.g. const items = await api.someOperation({ id: 1 }); return items.length;",
          },
          continue: {
            type: "string",
            description: "instead of a program: a cut result's handle, to read its next part",
          },
        },
        additionalProperties: false,
      },
      annotations: { title: "Execute a program", ...reachAnnotations(operations), openWorldHint: true },
    },
  ];
}
