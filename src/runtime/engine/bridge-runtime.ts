/**
 * The bridge's call pipeline, shared by every session: a tools/call is validated against the
 * tool's input schema, passed through its hooks and the destructive-call policy, given its
 * credentials, sent upstream (retries, circuit breaker, concurrency limit), turned into a
 * result, redacted and written to the audit log. tools/list pages come from tool-list.ts.
 *
 * In discovery mode (discovery/) tools/list is three tools instead, and call_operation runs
 * the operation it names through this same pipeline.
 */
import { createHash } from "node:crypto";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { messageOf } from "../../model/error-message.js";
import type { BridgeModel, ServerNode, ToolNode } from "../../model/types.js";
import { askConfirmation } from "../access/confirm.js";
import { isDestructive, selectModel } from "../access/select.js";
import { createOutputAjv } from "../arguments/bounded-formats.js";
import type { ArgumentValidator } from "../arguments/validate.js";
import { type CallState, createCallAuditor } from "../audit/audited-call.js";
import { type CallCredentials, createCredentialProvider } from "../auth/credential-provider.js";
import { hasControlCharacters } from "../auth/credentials.js";
import { TokenError } from "../auth/oauth.js";
import { headerValueForms, isCredentialHeader } from "../auth/secret-forms.js";
import type { SandboxLimits } from "../code/sandbox/engine.js";
import { OPTION_TABLE } from "../config/option-table.js";
import type { ModeChoice } from "../discovery/mode.js";
import { PatternLimitError, withMatchBudget } from "../regex/bounded-regexp.js";
import { ArgumentError } from "../request/argument-error.js";
import { buildRequest, resolveBaseUrl } from "../request/build-request.js";
import { createOriginPolicy } from "../request/origins.js";
import { toErrorResult } from "../results/error-result.js";
import {
  isDocumentedRedirect,
  toFailureResult,
  toRedirectResult,
  toStatusErrorResult,
} from "../results/failure.js";
import { createInvalidParamsError } from "../results/protocol-error.js";
import { redactSecrets } from "../results/redact-secrets.js";
import { toSuccessResult } from "../results/success.js";
import { type ApiConnection, createApiConnection } from "../upstream/connection.js";
import type { BridgeOptions, CallContext, CatalogSession } from "./bridge-options.js";
import { createToolSurface } from "./tool-surface.js";

export { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
export type { BridgeOptions, CallContext, CatalogSession, ToolHooks } from "./bridge-options.js";

/** What all sessions of one bridge share: tools, validators, credentials, connection pool. */
export interface BridgeRuntime {
  /** The model served: the selected tools only. */
  model: BridgeModel;
  /** The mode served (tools or discovery), what was asked for and why (see discovery/mode.ts). */
  mode: ModeChoice;
  /** A page of tools/list; `session` learns which tool set it listed (hot reload). */
  listTools(cursor: string | undefined, session?: CatalogSession): ListedTools;
  callTool(name: string, args: unknown, context?: CallContext): Promise<CallToolResult>;
  /** Every configured or fetched secret so far, in every form (for redaction). */
  secrets(): string[];
  /**
   * Calls `listener` when the tools served change (hot reload): each MCP session then sends
   * `notifications/tools/list_changed`. Returns the function that stops the calls.
   */
  onToolsChanged?(listener: () => void): () => void;
  close(): Promise<void>;
}

/** A page of tools/list; `_meta` carries what the catalog is (hot reload, reload/). */
export interface ListedTools {
  tools: Tool[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

/**
 * The runtime of one API. `connection` (the pool, circuit breaker and concurrency limit) is
 * made for it unless given: hot reload gives each version of an API's tools the same one.
 */
export function createBridgeRuntime(
  fullModel: BridgeModel,
  options: BridgeOptions = {},
  connection?: ApiConnection,
): BridgeRuntime {
  // Filtered tools are gone before anything is served: neither listed nor callable.
  const model = selectModel(fullModel, options.access);
  const confirmDestructive = options.access?.destructive === "confirm";
  const byName = new Map<string, ToolNode>(model.tools.map((tool) => [tool.name, tool]));
  const staticHeaders = normaliseHeaders(options.headers ?? {});
  const origins = createOriginPolicy(model, options);
  const ownsConnection = connection === undefined;
  const {
    http,
    upstream,
    getDispatcher,
    close: closeConnection,
  } = connection ?? createApiConnection(options);
  const maxTextChars = toMaxTextChars(options.maxResultChars);
  const credentialProvider = createCredentialProvider(model, {
    env: options.env ?? process.env,
    getDispatcher,
    http,
    baseUrl: () => {
      const base = resolveBaseUrl(model.servers, options.baseUrl, options.serverVariables);
      return "url" in base ? base.url : undefined;
    },
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(options.passThroughHeaders ? { passThroughHeaders: options.passThroughHeaders } : {}),
  });
  // A static header that carries a credential (`--header "Authorization: Bearer ..."`) is one.
  const headerSecrets = Object.entries(staticHeaders).flatMap(([name, value]) =>
    isCredentialHeader(name) ? headerValueForms(value) : [],
  );
  const secrets = () => [...headerSecrets, ...credentialProvider.secrets()];
  /** Everything that must never be shown, in every form: configured and fetched secrets, and this call's. */
  const secretsOf = (call: { secrets: string[] }) => [...secrets(), ...call.secrets];
  // ajv and the argument validator are loaded on first use, off the path to the first tools/list.
  let validation: Promise<typeof import("../arguments/validate.js")> | undefined;
  const loadValidation = () => {
    validation ??= import("../arguments/validate.js");
    return validation;
  };
  const validators = new Map<string, ArgumentValidator>();
  let outputChecker: AjvJsonSchemaValidator | undefined;
  const outputChecks = new Map<string, (value: unknown) => string | undefined>();
  /**
   * Where a list of servers sends calls, and whether they carry credentials (another origin than
   * the API's, from an operation's own `servers`, gets no credentials and no --header values):
   * fixed for the life of the runtime, so worked out once per list rather than on every call.
   */
  const targets = new Map<ServerNode[], { url: string; credentialed: boolean } | { error: string }>();
  const targetOf = (servers: ServerNode[]) => {
    let target = targets.get(servers);
    if (target === undefined) {
      const base = resolveBaseUrl(servers, options.baseUrl, options.serverVariables);
      target =
        "error" in base ? base : { url: base.url, credentialed: origins.allows(new URL(base.url).origin) };
      targets.set(servers, target);
    }
    return target;
  };

  /** `whole`: a program's call (code mode), which gets the whole answer, not cut to the result budget. */
  const runCall = async (
    name: string,
    rawArgs: unknown,
    context: CallContext,
    call: CallState,
    whole = false,
  ): Promise<CallToolResult> => {
    const tool = byName.get(name);
    if (!tool) throw createInvalidParamsError(`Unknown tool: ${name}`);
    const { createArgumentValidator, formatArgumentIssues } = await loadValidation();
    let validator = validators.get(name);
    if (!validator) {
      validator = createArgumentValidator(tool.inputSchema);
      validators.set(name, validator);
    }
    const check = validator(rawArgs ?? {});
    if (!check.ok) return toErrorResult(formatArgumentIssues(name, check.issues), "invalid_argument");
    const hooks = options.hooks && Object.hasOwn(options.hooks, name) ? options.hooks[name] : undefined;
    let args = check.value;
    if (hooks?.beforeCall) {
      try {
        const changed: unknown = await hooks.beforeCall(args);
        if (typeof changed !== "object" || changed === null || Array.isArray(changed)) {
          throw new Error("it must return the arguments object");
        }
        args = changed as Record<string, unknown>;
      } catch (error) {
        const text = `The beforeCall hook of ${name} failed: ${messageOf(error)}`;
        return redactSecrets(toErrorResult(text, "hook"), secretsOf(call));
      }
    }
    if (confirmDestructive && isDestructive(tool)) {
      const refusal = await askConfirmation(tool, args, context);
      if (refusal) return redactSecrets(refusal, secretsOf(call));
    }
    let result = await callUpstream(tool, args, context, call, whole);
    if (hooks?.afterCall) {
      try {
        result = await hooks.afterCall(result, args);
      } catch (error) {
        const text = `The afterCall hook of ${name} failed: ${messageOf(error)}`;
        return redactSecrets(toErrorResult(text, "hook"), secretsOf(call));
      }
    }
    return redactSecrets(result, secretsOf(call));
  };

  /**
   * Runs one call and writes its audit line: the tool's (or, through call_operation, the
   * operation's) name, redacted arguments, status, attempts, duration and outcome.
   */
  const audited = createCallAuditor({
    audit: options.audit,
    schemaOf: (name) => byName.get(name)?.inputSchema,
    secretsOf,
    ...(options.apiName !== undefined ? { api: options.apiName } : {}),
  });

  const surface = createToolSurface({
    model,
    mode: options.mode ?? OPTION_TABLE.mode.default,
    pageBytes: options.pageBytes ?? DEFAULT_PAGE_BYTES,
    // A saved index covers the whole model; once a selection dropped tools, the search is
    // built for the selected ones (as a generated project with that selection has it).
    ...(model === fullModel && fullModel.searchIndex !== undefined
      ? { searchIndex: fullModel.searchIndex }
      : {}),
    confirms: () => confirmDestructive,
    code: { limits: readSandboxLimits(options.code), maxTextChars },
    audited,
    secrets,
    // An operation's call, as its own tool gets it in tools mode (a program's: the whole answer).
    callOperation: (name, rawArgs, context) =>
      audited(name, rawArgs, (call) => runCall(name, rawArgs, context, call, context.wholeAnswer === true)),
  });

  const callUpstream = async (
    tool: ToolNode,
    args: Record<string, unknown>,
    context: CallContext,
    call: CallState,
    whole: boolean,
  ): Promise<CallToolResult> => {
    const { name } = tool;
    const base = targetOf(tool.http.servers ?? model.servers);
    if ("error" in base) return toErrorResult(`Configuration error: ${base.error}.`, "configuration");
    const { credentialed } = base;
    let request: ReturnType<typeof buildRequest> | undefined;
    let outcome: Awaited<ReturnType<typeof upstream.send>> | undefined;
    // A 401 to a request that carried an OAuth2 token: fetch a new token and send once more.
    for (let round = 0; round < 2; round++) {
      let credentials: CallCredentials = { credentials: new Map(), tokens: new Map(), secrets: [] };
      try {
        if (credentialed) credentials = await credentialProvider.forCall(tool, context.headers);
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        return toErrorResult(
          `Authentication failed: the bridge could not get an OAuth2 access token for ${name}: ${error.message}. ` +
            "Nothing was sent to the API. Tell the user; the bridge's OAuth2 configuration needs fixing.",
          "authentication",
        );
      }
      call.secrets.push(...credentials.secrets);
      try {
        request = buildRequest(tool, args, {
          baseUrl: base.url,
          securitySchemes: model.securitySchemes,
          credentials: credentials.credentials,
          headers: credentialed ? staticHeaders : {},
        });
        // Nothing was withheld for lack of configuration: the origin may not have any.
        if (!credentialed) request.missingCredentials = [];
      } catch (error) {
        if (error instanceof ArgumentError) {
          return toErrorResult(
            `Invalid arguments for ${name}:\n- ${error.message}\nFix the arguments and call again.`,
            "invalid_argument",
          );
        }
        throw error;
      }
      outcome = await upstream.send(request, {
        operation: `${tool.http.method.toUpperCase()} ${tool.http.path}`,
        caller: callerOf(context, credentials),
      });
      call.attempts = (call.attempts ?? 0) + outcome.attempts;
      if ("response" in outcome) call.status = outcome.response.status;
      const refused = "response" in outcome && outcome.response.status === 401;
      if (!(refused && round === 0 && credentialProvider.invalidate(credentials))) break;
    }
    if (!request || !outcome) throw new Error("unreachable: no request was built");
    let result: CallToolResult;
    if ("response" in outcome) {
      const { response } = outcome;
      if (response.status >= 200 && response.status < 300) {
        // A program's call: the whole answer for the program, which the outline would not check.
        result = toSuccessResult(tool, response, {
          maxTextChars: whole ? Number.POSITIVE_INFINITY : maxTextChars,
          ...(whole ? {} : { checkOutput: outputCheckFor(tool) }),
          args,
        });
      } else if (isDocumentedRedirect(tool, response.status)) {
        result = toRedirectResult(tool, response);
      } else {
        result = toStatusErrorResult(tool, response, {
          maxTextChars,
          missingCredentials: request.missingCredentials,
        });
      }
      if (response.truncated) result = noteTruncation(result, response.body.length);
    } else {
      result = toFailureResult(tool, outcome.failure, request.origin);
    }
    return result;
  };

  const outputCheckFor = (tool: ToolNode) => {
    if (!tool.outputSchema) return undefined;
    let check = outputChecks.get(tool.name);
    if (!check) {
      outputChecker ??= new AjvJsonSchemaValidator(createOutputAjv());
      const validate = outputChecker.getValidator(tool.outputSchema as Record<string, unknown>);
      check = (value: unknown) => {
        let outcome: ReturnType<typeof validate>;
        try {
          outcome = withMatchBudget(() => validate(value));
        } catch (error) {
          if (!(error instanceof PatternLimitError)) throw error;
          return `it could not be checked against the documented response schema in bounded time (${error.message})`;
        }
        return outcome.valid
          ? undefined
          : `it does not match the documented response schema (${outcome.errorMessage})`;
      };
      outputChecks.set(tool.name, check);
    }
    return check;
  };

  return {
    model,
    mode: surface.mode,
    listTools: surface.listTools,
    callTool: surface.callTool,
    secrets,
    close: async () => {
      await surface.close();
      if (ownsConnection) await closeConnection();
    },
  };
}

/** Code mode's limits: those given, the option table's defaults for the rest. */
/** Characters of text in one result: `--max-result-chars`, 0 for no limit. */
export function toMaxTextChars(maxResultChars: number | undefined): number {
  return maxResultChars === 0
    ? Number.POSITIVE_INFINITY
    : (maxResultChars ?? OPTION_TABLE.maxResultChars.default);
}

export function readSandboxLimits(given: Partial<SandboxLimits> = {}): SandboxLimits {
  return {
    timeoutMs: given.timeoutMs ?? OPTION_TABLE.codeTimeout.default,
    memoryBytes: given.memoryBytes ?? OPTION_TABLE.codeMemory.default,
    maxCalls: given.maxCalls ?? OPTION_TABLE.codeMaxCalls.default,
    maxLogChars: given.maxLogChars ?? OPTION_TABLE.codeMaxLogChars.default,
    maxStackBytes: given.maxStackBytes ?? OPTION_TABLE.codeMaxStack.default,
  };
}

/**
 * Who makes a call, as the circuit breaker tells callers apart: the MCP session, else the
 * credential passed through with the request (stateless HTTP), else nobody in particular.
 */
function callerOf(context: CallContext, credentials: CallCredentials): string {
  if (context.session !== undefined) return `session ${context.session}`;
  if (credentials.secrets.length === 0) return "";
  return `credential ${createHash("sha256").update(credentials.secrets.join("\n")).digest("base64url")}`;
}

/**
 * Bytes of one tools/list page: as much as the SDK's stdio client reads in one message
 * (10 MiB, STDIO_DEFAULT_MAX_BUFFER_SIZE) less room for the JSON-RPC envelope and one 64 KiB
 * pipe chunk of the next message, which its buffer holds alongside. A naive client that reads
 * only the first page then sees every tool that can reach it at all.
 */
export const DEFAULT_PAGE_BYTES = 10 * 1024 * 1024 - 512 * 1024;

/** Says so when the API's answer was cut at the size limit and the result does not already. */
function noteTruncation(result: CallToolResult, keptBytes: number): CallToolResult {
  const said = result.content.some(
    (c) => c.type === "text" && c.text.includes("larger than the bridge reads"),
  );
  if (said) return result;
  const text = `[The API's answer was larger than the bridge reads; only the first ${keptBytes} bytes were kept and the rest was discarded.]`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

function normaliseHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) ||
      hasControlCharacters(value) ||
      /[\u0100-\uffff]/.test(value)
    ) {
      throw new Error(
        `header "${name}" has an invalid name, or a character an HTTP header cannot carry in its value`,
      );
    }
    result[name.toLowerCase()] = value;
  }
  return result;
}
