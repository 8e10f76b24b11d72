/**
 * Discovery mode: tools/list is three tools (discovery-tools.ts) and their calls are answered
 * here. search_operations and describe_operations read the served model (the selection already
 * applied, so they find only what may be called); call_operation hands the operation's name and
 * arguments to the runtime's own call pipeline, the one each operation's tool goes through in
 * tools mode: same validation, access control, confirmation, credentials, resilience,
 * redaction, audit line (under the operation's name) and result.
 *
 * The search is created on first use, never at start-up: on a huge spec its index may take
 * a while to build, and the first tools/list must not wait for it. After the first tools/list
 * it is built in the background (`warm`), in steps that leave calls answered meanwhile, so the
 * first search rarely waits either.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import { formatCount } from "../../model/format-count.js";
import { HTTP_METHODS, isHttpMethod } from "../../model/http-methods.js";
import { isRecord } from "../../model/records.js";
import type { BridgeModel, JsonSchema, SearchIndexNode, ToolNode } from "../../model/types.js";
import { type CallerAccess, filterCallable, mayCall } from "../access/caller.js";
import type { ArgumentIssue, ArgumentValidator } from "../arguments/validate.js";
import type { CallContext } from "../engine/bridge-options.js";
import { readContinuation } from "../results/continuation.js";
import { toErrorResult } from "../results/error-result.js";
import { FIELD_SYNTAX } from "../results/project-fields.js";
import { ownerOption, sharedResultStore } from "../results/result-store.js";
import { readArgumentAliases } from "./argument-aliases.js";
import { findBoilerplateResponses } from "./boilerplate-responses.js";
import { findClosestOperations, showName } from "./closest.js";
import { expandPointer, toPartAnswer } from "./describe-budget.js";
import {
  type DescribedOperation,
  describeOperation,
  keepWithinBudget,
  type NotFound,
  toDescribeResult,
} from "./describe-result.js";
import {
  CALL_TOOL,
  countTags,
  DESCRIBE_TOOL,
  listDiscoveryTools,
  nameApi,
  SEARCH_LIMITS,
  SEARCH_TOOL,
  toDiscoveryContext,
} from "./discovery-tools.js";
import { createOperationLookup } from "./operation-lookup.js";
import {
  createOperationSearch,
  MAX_QUERY_CHARS,
  type OperationSearch,
  type SearchBuild,
  startOperationSearch,
} from "./search.js";
import { type SearchRequest, type SearchResultStyle, toSearchResult } from "./search-result.js";

export interface DiscoveryOptions {
  /** The model served: its tools are the selected ones. */
  model: BridgeModel;
  /** A saved index that covers these tools, or undefined to build one on first use. */
  index?: SearchIndexNode;
  /**
   * `--destructive confirm`: describe says which operations ask the user first (a function when
   * it differs by operation: a bridge of several APIs has one policy per API).
   */
  confirmDestructive: boolean | ((tool: ToolNode) => boolean);
  /** Runs one call of a discovery tool with the runtime's audit line and redaction around it. */
  audited(
    name: string,
    args: unknown,
    run: () => Promise<CallToolResult>,
    subject?: string,
  ): Promise<CallToolResult>;
  /** Calls an operation exactly as its own tool is called in tools mode (audited there). */
  callOperation(name: string, args: unknown, context: CallContext): Promise<CallToolResult>;
  /** Code mode: search results carry signatures and end with this style's next step. */
  searchStyle?: SearchResultStyle;
  /** Characters of text in one result (Infinity: no limit): a continuation's part. */
  maxTextChars?: number;
}

/** How call_operation reads the rest of a cut answer and asks for fewer fields. */
const continueWithCall = (handle: string) => `${CALL_TOOL} with ${JSON.stringify({ continue: handle })}`;
const CALL_FIELDS_HINT = `To get only the fields you need, call ${CALL_TOOL} again with "fields": a list of ${FIELD_SYNTAX}.`;

export interface Discovery {
  /** tools/list: the three tools. */
  listTools(): Tool[];
  /** A call of one of the three tools. */
  callTool(name: string, args: unknown, context: CallContext): Promise<CallToolResult>;
  /** The search, created now unless it already is (also to build its index ahead of use). */
  getSearch(): OperationSearch;
  /** Builds the search in the background, once, unless it exists. */
  warm(): void;
  /** One operation as describe shows it (code mode's describe shows the same). */
  describeTool(tool: ToolNode): DescribedOperation;
}

export function createDiscovery(options: DiscoveryOptions): Discovery {
  const { model, confirmDestructive } = options;
  const confirms = (tool: ToolNode) =>
    typeof confirmDestructive === "function" ? confirmDestructive(tool) : confirmDestructive;
  const findTool = createOperationLookup(model.tools);
  let listed: Tool[] | undefined;
  let search: OperationSearch | undefined;
  let tags: { tag: string; count: number }[] | undefined;
  let warming = false;
  let building: SearchBuild | undefined;
  const getSearch = () => {
    if (search === undefined) {
      // A search during the warm-up finishes that build (the steps it has not run yet); a build
      // that failed is made again here, so the error reaches the one who searched.
      const build = building;
      building = undefined;
      try {
        search = build?.finish();
      } catch {}
      search ??= createOperationSearch(model.tools, options.index);
    }
    return search;
  };
  const getTags = () => {
    tags ??= countTags(model.tools);
    return tags;
  };
  let boilerplate: ReadonlySet<string> | undefined;
  const describeTool = (tool: ToolNode) => {
    boilerplate ??= findBoilerplateResponses(model.tools);
    return describeOperation(tool, confirms(tool), boilerplate);
  };
  const listTools = () => {
    listed ??= listDiscoveryTools(toDiscoveryContext(model), model.tools);
    return listed;
  };
  const check = createArgumentCheck(
    (name) => listTools().find((tool) => tool.name === name)!.inputSchema as unknown as JsonSchema,
  );

  const runSearch = async (args: unknown, caller: CallerAccess | undefined): Promise<CallToolResult> => {
    const checked = await check(SEARCH_TOOL, args);
    if ("content" in checked) return checked as CallToolResult;
    const request = checked as unknown as SearchRequest;
    if (request.query.length > MAX_QUERY_CHARS) {
      return await invalid(SEARCH_TOOL, [
        {
          argument: "query",
          message: `is ${formatCount(request.query.length)} characters; at most ${formatCount(MAX_QUERY_CHARS)}: say what you want to do in a few words`,
        },
      ]);
    }
    if (request.method !== undefined && !isHttpMethod(request.method.toLowerCase())) {
      return await invalid(SEARCH_TOOL, [
        {
          argument: "method",
          message: `must be an HTTP method: ${HTTP_METHODS.map((m) => m.toUpperCase()).join(", ")}`,
        },
      ]);
    }
    const hits = getSearch().search(request.query, {
      limit: request.limit ?? SEARCH_LIMITS.default,
      ...(request.tag !== undefined ? { tag: request.tag } : {}),
      ...(request.method !== undefined ? { method: request.method } : {}),
      ...(request.readOnly === true ? { readOnly: true } : {}),
      ...(caller !== undefined ? { allows: (tool: ToolNode) => mayCall(caller, tool) } : {}),
    });
    return toSearchResult(
      request,
      hits,
      { title: model.info.title, operations: model.tools.length, tags: getTags() },
      options.searchStyle,
    );
  };

  const runDescribe = async (args: unknown, context: CallContext): Promise<CallToolResult> =>
    keepWithinBudget(
      await describeOperations(args, context.caller),
      options.maxTextChars ?? Number.POSITIVE_INFINITY,
      {
        store: sharedResultStore,
        ...ownerOption(context),
        continueText: continueWithCall,
      },
    );

  const describeOperations = async (
    args: unknown,
    caller: CallerAccess | undefined,
  ): Promise<CallToolResult> => {
    const checked = await check(DESCRIBE_TOOL, args);
    if ("content" in checked) return checked as CallToolResult;
    const request = checked as { names: string[]; pointer?: string };
    const names = [...new Set(request.names)];
    if (request.pointer !== undefined) return describePart(names, request.pointer, caller);
    const found = [];
    const shown = new Set<ToolNode>();
    const notFound: NotFound[] = [];
    for (const name of names) {
      // An operation the caller's token may not call is not shown, as search does not find it.
      const tool = findTool(name);
      if (tool && mayCall(caller, tool)) {
        if (!shown.has(tool)) found.push(describeTool(tool));
        shown.add(tool);
      } else
        notFound.push({
          name: showName(name),
          closest: findClosestOperations(name, filterCallable(model.tools, caller), getSearch()),
        });
    }
    return toDescribeResult(found, notFound, model.info.title, options.maxTextChars);
  };

  /** One part of one operation's description, by pointer (describe-budget.ts). */
  const describePart = async (
    names: string[],
    pointer: string,
    caller: CallerAccess | undefined,
  ): Promise<CallToolResult> => {
    // An operation the caller's token may not call is no operation here, as in a plain describe.
    const found = names.length === 1 ? findTool(names[0]!) : undefined;
    const tool = found !== undefined && mayCall(caller, found) ? found : undefined;
    if (names.length !== 1 || tool === undefined) {
      const problem =
        names.length !== 1
          ? "with a pointer, name exactly one operation"
          : `${JSON.stringify(showName(names[0]!))} is no operation here; ${SEARCH_TOOL} finds them`;
      return invalid(DESCRIBE_TOOL, [{ argument: "names", message: problem }]);
    }
    const part = expandPointer(describeTool(tool), pointer, options.maxTextChars ?? Number.POSITIVE_INFINITY);
    if ("problem" in part) return invalid(DESCRIBE_TOOL, [{ argument: "pointer", message: part.problem }]);
    const structuredContent = toPartAnswer(tool.name, pointer, part, DESCRIBE_TOOL);
    return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
  };

  const runCall = (args: unknown, context: CallContext): Promise<CallToolResult> => {
    const request = readCallRequest(readArgumentAliases(CALL_TOOL, args));
    if ("issues" in request)
      return options.audited(
        CALL_TOOL,
        args,
        () => invalid(CALL_TOOL, request.issues),
        context.caller?.subject,
      );
    if ("continuation" in request) {
      return options.audited(
        CALL_TOOL,
        args,
        async () =>
          readContinuation(request.continuation, {
            store: sharedResultStore,
            ...ownerOption(context),
            budget: options.maxTextChars ?? Number.POSITIVE_INFINITY,
            continueText: continueWithCall,
          }),
        context.caller?.subject,
      );
    }
    const tool = findTool(request.name);
    if (tool === undefined) {
      return options.audited(
        request.name,
        request.arguments,
        async () => {
          const closest = findClosestOperations(
            request.name,
            filterCallable(model.tools, context.caller),
            getSearch(),
          );
          return toErrorResult(
            `Unknown operation ${JSON.stringify(showName(request.name))}: ${nameApi(model.info.title)} served here has no operation of that name` +
              (closest.length > 0 ? `. The closest: ${closest.join(", ")}.` : ".") +
              ` ${SEARCH_TOOL} finds operations by what they do; call ${CALL_TOOL} with one of their names.`,
            "unknown_tool",
          );
        },
        context.caller?.subject,
      );
    }
    const { args: callArgs, fields } = liftFields(tool, request.arguments, request.fields);
    return options.callOperation(tool.name, callArgs, {
      ...context,
      results: {
        ...(fields !== undefined ? { fields } : {}),
        continueText: continueWithCall,
        fieldsHint: CALL_FIELDS_HINT,
      },
    });
  };

  return {
    listTools,
    getSearch,
    describeTool,
    warm() {
      if (search !== undefined || warming) return;
      warming = true;
      // In steps of a few milliseconds: calls are answered while a huge API's index builds. A
      // search that comes first finishes it at once (getSearch).
      setImmediate(() => {
        if (search !== undefined) return;
        const build = startOperationSearch(model.tools, options.index);
        building = build;
        build.done.then(
          (built) => {
            search ??= built;
            if (building === build) building = undefined;
          },
          () => {
            if (building === build) building = undefined; // getSearch builds it again and reports what went wrong
          },
        );
      }).unref();
    },
    callTool(name, args, context) {
      if (name === CALL_TOOL) return runCall(args, context);
      return options.audited(
        name,
        args,
        () => (name === SEARCH_TOOL ? runSearch(args, context.caller) : runDescribe(args, context)),
        context.caller?.subject,
      );
    },
  };
}

/**
 * Checks a mode tool's arguments against its input schema (`schemaOf`), coerced as tools mode
 * coerces them: the checked arguments, or the invalid_argument result.
 */
export function createArgumentCheck(
  schemaOf: (name: string) => JsonSchema,
): (name: string, args: unknown) => Promise<Record<string, unknown> | CallToolResult> {
  const validators = new Map<string, ArgumentValidator>();
  return async (name, args) => {
    const { createArgumentValidator, formatArgumentIssues } = await import("../arguments/validate.js");
    let validator = validators.get(name);
    if (!validator) {
      validator = createArgumentValidator(schemaOf(name));
      validators.set(name, validator);
    }
    const outcome = validator(readArgumentAliases(name, args ?? {}));
    if (outcome.ok) return outcome.value;
    // The mode's own tools' schemas are the bridge's: they always compile.
    const issues = "issues" in outcome ? outcome.issues : [{ argument: "", message: outcome.unusable }];
    return toErrorResult(formatArgumentIssues(name, issues), "invalid_argument");
  };
}

/** An invalid_argument result in the words of argument validation (one formatter for both). */
async function invalid(tool: string, issues: ArgumentIssue[]): Promise<CallToolResult> {
  const { formatArgumentIssues } = await import("../arguments/validate.js");
  return toErrorResult(formatArgumentIssues(tool, issues), "invalid_argument");
}

/**
 * call_operation's own arguments: `name`, and `arguments` (an object, or an object as JSON text,
 * which clients send; absent means none). They are read here rather than by the schema
 * validator so that the operation's arguments reach the operation's validator exactly as they
 * were sent, and fail with exactly the messages of tools mode.
 */
function readCallRequest(
  args: unknown,
):
  | { name: string; arguments: unknown; fields?: unknown }
  | { continuation: string }
  | { issues: ArgumentIssue[] } {
  if (!isRecord(args)) return { issues: [{ argument: "(root)", message: "arguments must be an object" }] };
  const issues: ArgumentIssue[] = [];
  if (args.continue !== undefined) {
    // Reading the rest of a cut answer: the handle says everything; name and arguments may be there.
    if (typeof args.continue !== "string" || args.continue === "") {
      return {
        issues: [{ argument: "continue", message: "must be the handle a cut result gave, as a string" }],
      };
    }
    return { continuation: args.continue };
  }
  const name = args.name;
  if (typeof name !== "string" || name === "") {
    issues.push({
      argument: "name",
      message:
        name === undefined
          ? "required: the operation's name (from search_operations)"
          : "must be a non-empty string",
    });
  }
  let operationArgs: unknown = args.arguments ?? {};
  if (typeof operationArgs === "string") {
    try {
      operationArgs = JSON.parse(operationArgs);
    } catch {
      // left as it is: reported below
    }
  }
  if (!isRecord(operationArgs)) {
    issues.push({ argument: "arguments", message: "must be an object of the operation's arguments" });
  }
  const extra = Object.keys(args).filter((key) => !CALL_KEYS.has(key));
  if (extra.length > 0) {
    issues.push({
      argument: extra.join(", "),
      message: `not an argument of ${CALL_TOOL}: the operation's arguments go inside "arguments", as {"name": ..., "arguments": {${extra
        .slice(0, 3)
        .map((key) => JSON.stringify(key))
        .join(": ..., ")}: ...}}`,
    });
  }
  if (issues.length > 0) return { issues };
  return {
    name: name as string,
    arguments: operationArgs,
    ...(args.fields !== undefined ? { fields: args.fields } : {}),
  };
}

/** call_operation's own arguments. */
const CALL_KEYS = new Set(["name", "arguments", "fields", "continue"]);

/**
 * `fields` given inside `arguments` (where agents put it: it narrows this operation's answer)
 * is call_operation's own (in a program, the call options'), when the operation has no argument
 * of that name (Trello's `fields` is the API's) and none was given beside the arguments.
 */
export function liftFields(
  tool: ToolNode,
  args: unknown,
  fields: unknown,
): { args: unknown; fields: unknown } {
  if (fields !== undefined || !isRecord(args) || !Object.hasOwn(args, "fields")) return { args, fields };
  const properties = tool.inputSchema.properties;
  if (isRecord(properties) && Object.hasOwn(properties, "fields")) return { args, fields };
  const { fields: lifted, ...rest } = args;
  return { args: rest, fields: lifted };
}
