/**
 * The MCP server over a BridgeModel: `tools/list` (paginated) and `tools/call` on the SDK's
 * low-level Server, with JSON Schema validation of arguments before any request is sent.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Dispatcher } from "undici";
import type { BridgeModel, ToolNode } from "../model/types.js";
import { type AuditLog, redactArguments } from "./audit.js";
import { type CallCredentials, createCredentialProvider } from "./auth.js";
import type { CircuitOptions } from "./circuit.js";
import { hasControlCharacters } from "./credentials.js";
import { ArgumentError } from "./errors.js";
import { createHttpAgent, type HttpOptions } from "./http.js";
import { type OAuthClientConfig, TokenError } from "./oauth.js";
import { buildRequest, resolveBaseUrl } from "./request.js";
import {
  clip,
  isDocumentedRedirect,
  toFailureResult,
  toRedirectResult,
  toStatusErrorResult,
  toSuccessResult,
} from "./response.js";
import type { RetryOptions } from "./retry.js";
import { isDestructive, selectModel, type ToolSelection } from "./select.js";
import { createUpstreamClient } from "./upstream.js";
import type { ArgumentValidator } from "./validate.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "./version.js";

export { BRIDGE_NAME, BRIDGE_VERSION } from "./version.js";

export interface BridgeOptions {
  /** Replaces the whole server URL, path included. */
  baseUrl?: string;
  /** Values for the spec's server variables. */
  serverVariables?: Record<string, string>;
  /** Credentials by security scheme name. */
  auth?: Record<string, string>;
  /** Where `OPENAPI_MCP_AUTH_<SCHEME>` variables are read (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Static headers sent on every upstream request. */
  headers?: Record<string, string>;
  /** Per-call timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Bytes of an upstream answer kept (default 10 MiB). */
  maxResponseBytes?: number;
  /**
   * Characters of text in one result (default 25,000; 0: no limit). A larger answer is cut at a
   * clean boundary with a marker that says what was cut and how to get the rest.
   */
  maxResultChars?: number;
  /** Serialized size of one tools/list page in bytes (default 4 MiB). */
  pageBytes?: number;
  /** A dispatcher to send requests with (default: a keep-alive undici Agent). */
  dispatcher?: Dispatcher;
  /** Code run around a tool's HTTP call, by tool name (generated projects fill these in). */
  hooks?: Record<string, ToolHooks<object>>;
  /** Which tools are served at all, and what happens to destructive ones (see select.ts). */
  access?: ToolSelection;
  /** Retries of failed upstream attempts where safe (default: 2, backoff 200 ms doubling, cap 5 s). */
  retry?: RetryOptions;
  /** Circuit breaker per upstream origin (default: opens after 5 failures, 30 s); `false` disables it. */
  circuitBreaker?: CircuitOptions | false;
  /** Upstream calls in flight at once (default 64); the others wait within their timeout. */
  maxConcurrency?: number;
  /** OAuth2 client credentials by scheme name (also OPENAPI_MCP_CLIENT_ID_/_SECRET_<SCHEME>). */
  oauth?: Record<string, OAuthClientConfig>;
  /**
   * HTTP mode: incoming MCP request header → security scheme whose credential it carries for
   * that request. Nothing of the MCP request is forwarded unless named here.
   */
  passThroughHeaders?: Record<string, string>;
  /** Receives one entry per tool call, arguments already redacted (see audit.ts). */
  audit?: AuditLog;
}

/** What one call gathers on its way: secrets to redact, and facts for the audit log. */
interface CallState {
  secrets: string[];
  status?: number;
  attempts?: number;
}

/** What one call knows about the MCP connection it came from. */
export interface CallContext {
  /** Headers of the incoming MCP HTTP request (Streamable HTTP only). */
  headers?: Record<string, string | string[] | undefined>;
  /**
   * Asks the user to confirm (MCP elicitation): true when they accept. Absent when the client
   * cannot be asked.
   */
  confirm?: (message: string) => Promise<boolean>;
}

/**
 * Hooks around one tool's call. `beforeCall` gets the validated (and coerced) arguments and
 * returns the arguments to send; `afterCall` gets the result of the call (a success or an
 * upstream error, not an argument validation failure) and returns the result to give back.
 * Secrets are redacted after `afterCall`. A hook that throws gives an `isError` result.
 */
export interface ToolHooks<Args extends object = Record<string, unknown>> {
  beforeCall?(args: Args): Args | Promise<Args>;
  afterCall?(result: CallToolResult, args: Args): CallToolResult | Promise<CallToolResult>;
}

/** What all sessions of one bridge share: tools, validators, credentials, connection pool. */
export interface BridgeRuntime {
  model: BridgeModel;
  listTools(cursor: string | undefined): { tools: Tool[]; nextCursor?: string };
  callTool(name: string, args: unknown, context?: CallContext): Promise<CallToolResult>;
  close(): Promise<void>;
}

export function createBridgeRuntime(fullModel: BridgeModel, options: BridgeOptions = {}): BridgeRuntime {
  // Filtered tools are gone before anything is served: neither listed nor callable.
  const model = selectModel(fullModel, options.access);
  const confirmDestructive = options.access?.destructive === "confirm";
  const byName = new Map<string, ToolNode>(model.tools.map((tool) => [tool.name, tool]));
  const staticHeaders = normaliseHeaders(options.headers ?? {});
  const http: HttpOptions = {
    timeoutMs: options.timeoutMs ?? 30_000,
    connectTimeoutMs: options.connectTimeoutMs ?? Math.min(10_000, options.timeoutMs ?? 10_000),
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
  };
  const upstream = createUpstreamClient({
    http,
    getDispatcher: () => getDispatcher(),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.circuitBreaker !== undefined ? { circuitBreaker: options.circuitBreaker } : {}),
    ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
  });
  const maxTextChars =
    options.maxResultChars === 0 ? Number.POSITIVE_INFINITY : (options.maxResultChars ?? 25_000);
  const credentialProvider = createCredentialProvider(model, {
    env: options.env ?? process.env,
    getDispatcher: () => getDispatcher(),
    http,
    baseUrl: () => {
      const base = resolveBaseUrl(model.servers, options.baseUrl, options.serverVariables);
      return "url" in base ? base.url : undefined;
    },
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(options.passThroughHeaders ? { passThroughHeaders: options.passThroughHeaders } : {}),
  });
  /** Everything that must never be shown: configured and fetched secrets, and this call's. */
  const secretsOf = (call: { secrets: string[] }) =>
    [...credentialProvider.secrets(), ...call.secrets].filter((s) => s.length >= 4);
  const ownsDispatcher = options.dispatcher === undefined;
  let dispatcher: Promise<Dispatcher> | undefined = options.dispatcher
    ? Promise.resolve(options.dispatcher)
    : undefined;
  const getDispatcher = () => {
    dispatcher ??= createHttpAgent(http);
    return dispatcher;
  };
  // ajv and the argument validator are loaded on first use, off the path to the first tools/list.
  let validation: Promise<typeof import("./validate.js")> | undefined;
  const loadValidation = () => {
    validation ??= import("./validate.js");
    return validation;
  };
  const validators = new Map<string, ArgumentValidator>();
  const outputChecker = new AjvJsonSchemaValidator();
  const outputChecks = new Map<string, (value: unknown) => string | undefined>();
  const pager = createToolPager(model.tools, options.pageBytes ?? 4 * 1024 * 1024);

  const listTools = (cursor: string | undefined) => {
    const start = cursor === undefined ? 0 : decodeCursor(cursor, model.tools.length);
    const page = pager(start);
    return page.next < model.tools.length
      ? { tools: page.tools, nextCursor: encodeCursor(page.next) }
      : { tools: page.tools };
  };

  const runCall = async (
    name: string,
    rawArgs: unknown,
    context: CallContext,
    call: CallState,
  ): Promise<CallToolResult> => {
    const tool = byName.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const { createArgumentValidator, formatArgumentIssues } = await loadValidation();
    let validator = validators.get(name);
    if (!validator) {
      validator = createArgumentValidator(tool.inputSchema);
      validators.set(name, validator);
    }
    const check = validator(rawArgs ?? {});
    if (!check.ok) return errorText(formatArgumentIssues(name, check.issues), "invalid_argument");
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
        return redactSecrets(errorText(text, "hook"), secretsOf(call));
      }
    }
    if (confirmDestructive && isDestructive(tool)) {
      const refusal = await askConfirmation(tool, args, context);
      if (refusal) return redactSecrets(refusal, secretsOf(call));
    }
    let result = await callUpstream(tool, args, context, call);
    if (hooks?.afterCall) {
      try {
        result = await hooks.afterCall(result, args);
      } catch (error) {
        const text = `The afterCall hook of ${name} failed: ${messageOf(error)}`;
        return redactSecrets(errorText(text, "hook"), secretsOf(call));
      }
    }
    return redactSecrets(result, secretsOf(call));
  };

  const callTool = async (
    name: string,
    rawArgs: unknown,
    context: CallContext = {},
  ): Promise<CallToolResult> => {
    const call: CallState = { secrets: [] };
    const { audit } = options;
    if (!audit) return runCall(name, rawArgs, context, call);
    const time = new Date().toISOString();
    const started = performance.now();
    const log = (outcome: "ok" | "error", category?: string) => {
      const tool = byName.get(name);
      audit.write({
        time,
        tool: name,
        arguments: redactArguments(rawArgs ?? {}, tool?.inputSchema, secretsOf(call)),
        ...(call.status !== undefined ? { status: call.status } : {}),
        ...(call.attempts !== undefined ? { attempts: call.attempts } : {}),
        durationMs: Math.round(performance.now() - started),
        outcome,
        ...(category !== undefined ? { category } : {}),
      });
    };
    let result: CallToolResult;
    try {
      result = await runCall(name, rawArgs, context, call);
    } catch (error) {
      log(
        "error",
        error instanceof McpError && error.code === ErrorCode.InvalidParams ? "unknown_tool" : "internal",
      );
      throw error;
    }
    const facts = result._meta?.["openapi-mcp-bridge/error"] as { category?: unknown } | undefined;
    if (result.isError) log("error", typeof facts?.category === "string" ? facts.category : "error");
    else log("ok");
    return result;
  };

  const callUpstream = async (
    tool: ToolNode,
    args: Record<string, unknown>,
    context: CallContext,
    call: CallState,
  ): Promise<CallToolResult> => {
    const { name } = tool;
    const base = resolveBaseUrl(tool.http.servers ?? model.servers, options.baseUrl, options.serverVariables);
    if ("error" in base) return errorText(`Configuration error: ${base.error}.`, "configuration");
    let request: ReturnType<typeof buildRequest> | undefined;
    let outcome: Awaited<ReturnType<typeof upstream.send>> | undefined;
    // A 401 to a request that carried an OAuth2 token: fetch a new token and send once more.
    for (let round = 0; round < 2; round++) {
      let credentials: CallCredentials;
      try {
        credentials = await credentialProvider.forCall(tool, context.headers);
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        return errorText(
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
          headers: staticHeaders,
        });
      } catch (error) {
        if (error instanceof ArgumentError) {
          return errorText(
            `Invalid arguments for ${name}:\n- ${error.message}\nFix the arguments and call again.`,
            "invalid_argument",
          );
        }
        throw error;
      }
      outcome = await upstream.send(request);
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
        result = toSuccessResult(tool, response, {
          maxTextChars,
          checkOutput: outputCheckFor(tool),
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
      const validate = outputChecker.getValidator(tool.outputSchema as Record<string, unknown>);
      check = (value: unknown) => {
        const outcome = validate(value);
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
    listTools,
    callTool,
    close: async () => {
      if (ownsDispatcher && dispatcher) await (await dispatcher).close();
    },
  };
}

/** An MCP Server for one connection (session); share one runtime between many. */
export function createBridgeServer(source: BridgeModel | BridgeRuntime, options: BridgeOptions = {}): Server {
  const runtime = "callTool" in source ? source : createBridgeRuntime(source, options);
  const { model } = runtime;
  const server = new Server(
    { name: BRIDGE_NAME, version: BRIDGE_VERSION, title: model.info.title },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: describeServer(runtime.model),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => runtime.listTools(request.params?.cursor));
  const confirm = async (message: string): Promise<boolean> => {
    const answer = await server.elicitInput({
      mode: "form",
      message,
      requestedSchema: {
        type: "object",
        properties: {
          confirm: { type: "boolean", title: "Allow this call", description: message, default: false },
        },
        required: ["confirm"],
      },
    });
    return answer.action === "accept" && answer.content?.confirm === true;
  };
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    runtime.callTool(request.params.name, request.params.arguments, {
      ...(extra.requestInfo ? { headers: extra.requestInfo.headers } : {}),
      ...(server.getClientCapabilities()?.elicitation?.form ? { confirm } : {}),
    }),
  );
  if (!("callTool" in source)) {
    const close = server.onclose;
    server.onclose = () => {
      close?.();
      void runtime.close();
    };
  }
  return server;
}

/**
 * Asks the user to confirm a destructive call; returns the refusal to give back, or undefined
 * when the call may go ahead.
 */
async function askConfirmation(
  tool: ToolNode,
  args: Record<string, unknown>,
  context: CallContext,
): Promise<CallToolResult | undefined> {
  const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
  if (!context.confirm) {
    return errorText(
      `Refused: ${tool.name} (${operation}) is destructive, and this bridge only runs destructive ` +
        "operations after the user confirms them (--destructive confirm), but the MCP client cannot " +
        "ask the user (it does not support elicitation). Nothing was sent. Tell the user: they can " +
        "carry it out themselves, or use a client that supports elicitation.",
      "confirmation_unavailable",
    );
  }
  const shown = clip(JSON.stringify(args), 1000);
  let accepted = false;
  try {
    accepted = await context.confirm(
      `The assistant wants to run ${tool.name} (${operation}), which may change or delete data, with ${shown}. Allow it?`,
    );
  } catch (error) {
    return errorText(
      `Refused: ${tool.name} (${operation}) is destructive and needs the user's confirmation, which ` +
        `could not be obtained (${messageOf(error)}). Nothing was sent.`,
      "confirmation_unavailable",
    );
  }
  if (accepted) return undefined;
  return errorText(
    `Refused: the user did not allow ${tool.name} (${operation}). Nothing was sent. Do not retry ` +
      "unless the user asks for it.",
    "confirmation_declined",
  );
}

/** Says so when the API's answer was cut at the size limit and the result does not already. */
function noteTruncation(result: CallToolResult, keptBytes: number): CallToolResult {
  const said = result.content.some(
    (c) => c.type === "text" && c.text.includes("larger than the bridge reads"),
  );
  if (said) return result;
  const text = `[The API's answer was larger than the bridge reads; only the first ${keptBytes} bytes were kept and the rest was discarded.]`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

function describeServer(model: BridgeModel): string {
  const description = model.info.description ? ` ${clip(model.info.description.split("\n")[0]!, 300)}` : "";
  return `Tools for the ${model.info.title} API${model.info.version ? ` (version ${model.info.version})` : ""}: each tool is one HTTP operation.${description}`;
}

/**
 * A tool as tools/list shows it. The display title travels in `annotations.title` only (MCP:
 * `title`, then `annotations.title`, then `name`): saying it twice costs every tool tokens.
 */
export function toListedTool(tool: ToolNode): Tool {
  const listed: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    annotations: { ...tool.annotations },
  };
  if (tool.outputSchema) listed.outputSchema = tool.outputSchema as Tool["outputSchema"];
  return listed;
}

/**
 * Pages of tools of at most `maxBytes` of JSON each (at least one tool a page), cut lazily:
 * the first page is ready after serialising only its own tools. Cursors are tool offsets, so
 * they stay valid for the life of the model.
 */
export function createToolPager(
  tools: ToolNode[],
  maxBytes: number,
): (start: number) => { tools: Tool[]; next: number } {
  const listed = new Map<number, Tool>();
  const ends = new Map<number, number>();
  const listedAt = (index: number) => {
    let tool = listed.get(index);
    if (!tool) {
      tool = toListedTool(tools[index]!);
      listed.set(index, tool);
    }
    return tool;
  };
  return (start) => {
    let end = ends.get(start);
    if (end === undefined) {
      end = start;
      let size = 0;
      while (end < tools.length) {
        const bytes = Buffer.byteLength(JSON.stringify(listedAt(end)));
        if (end > start && size + bytes > maxBytes) break;
        size += bytes;
        end++;
      }
      ends.set(start, end);
    }
    const page: Tool[] = [];
    for (let i = start; i < end; i++) page.push(listedAt(i));
    return { tools: page, next: end };
  };
}

function encodeCursor(index: number): string {
  return Buffer.from(`tools:${index}`).toString("base64url");
}

function decodeCursor(cursor: string, toolCount: number): number {
  const match = /^tools:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const index = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(index) || index < 0 || index >= toolCount) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: start again without a cursor.");
  }
  return index;
}

function errorText(text: string, category: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text }],
    _meta: { "openapi-mcp-bridge/error": { category, retryable: false } },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function normaliseHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || hasControlCharacters(value)) {
      throw new Error(`header "${name}" has an invalid name or a control character in its value`);
    }
    result[name.toLowerCase()] = value;
  }
  return result;
}

/** Replaces every configured secret in a result's text with [REDACTED]. */
function redactSecrets(result: CallToolResult, secrets: string[]): CallToolResult {
  if (secrets.length === 0) return result;
  const ordered = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  const scrub = (text: string) => ordered.reduce((t, secret) => t.split(secret).join("[REDACTED]"), text);
  for (const item of result.content) {
    if (item.type === "text") item.text = scrub(item.text);
    else if (item.type === "resource" && "text" in item.resource)
      item.resource.text = scrub(item.resource.text);
  }
  // The structured copy too: an API that echoes a credential must not hand it to the model.
  if (result.structuredContent)
    result.structuredContent = scrubDeep(
      result.structuredContent,
      scrub,
      0,
    ) as typeof result.structuredContent;
  // And `_meta`: error facts carry the API's message and field errors, truncation facts its cursors.
  if (result._meta) result._meta = scrubDeep(result._meta, scrub, 0) as typeof result._meta;
  return result;
}

function scrubDeep(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return scrub(value);
  if (typeof value !== "object" || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub, depth + 1));
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) out[key] = scrubDeep(item, scrub, depth + 1);
  return Object.setPrototypeOf(out, Object.prototype);
}
