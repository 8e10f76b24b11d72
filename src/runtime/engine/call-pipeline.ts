/**
 * One call of one API's operation, step by step, over the API's context (api-context.ts):
 * validate the arguments → the tool's beforeCall hook → confirm a destructive call → the
 * credentials → build the request → send it (limit, breaker, retries) → the result → the
 * afterCall hook → redact. The audit line is written around the whole (audit/audited-call.ts).
 */

import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { messageOf } from "../../model/error-message.js";
import type { ToolNode } from "../../model/types.js";
import { toScopeRefusal } from "../access/caller.js";
import { askConfirmation } from "../access/confirm.js";
import { isDestructive } from "../access/select.js";
import { formatArgumentIssues } from "../arguments/argument-issues-text.js";
import type { CallState } from "../audit/audited-call.js";
import type { CallCredentials } from "../auth/credential-provider.js";
import { TokenError } from "../auth/oauth.js";
import { LoginRequired } from "../auth/user-login/user-login.js";
import { ArgumentError } from "../request/argument-error.js";
import { buildRequest, type OutgoingRequest } from "../request/build-request.js";
import { sharedFileStore } from "../resources/file-store.js";
import { readContinuation } from "../results/continuation.js";
import { toErrorResult } from "../results/error-result.js";
import {
  isDocumentedRedirect,
  toFailureResult,
  toRedirectResult,
  toStatusErrorResult,
} from "../results/failure.js";
import { findFlaggedFailure, toFlaggedFailureResult } from "../results/flagged-failure.js";
import { toLoginRequest } from "../results/login-request.js";
import { FIELD_SYNTAX, type FieldSelection, parseFieldPaths } from "../results/project-fields.js";
import { createInvalidParamsError } from "../results/protocol-error.js";
import { createScrubber, redactSecrets } from "../results/redact-secrets.js";
import { nameResultArguments, takeResultArguments } from "../results/result-arguments.js";
import { ownerOption, sharedResultStore } from "../results/result-store.js";
import { toSuccessResult } from "../results/success.js";
import type { KeepOptions } from "../results/truncate.js";
import { answerAccepted, checkOperation, takeOperationHandle } from "../tasks/follow-operation.js";
import { createOperationCall } from "../tasks/operation-call.js";
import { findAcceptedOperation } from "../tasks/operation-status.js";
import type { UpstreamOutcome } from "../upstream/client.js";
import type { ApiContext } from "./api-context.js";
import type { CallContext, ToolHooks } from "./bridge-options.js";

/** One call in flight: the API, the tool, what the client sent, and what the audit line gathers. */
interface Call {
  api: ApiContext;
  tool: ToolNode;
  context: CallContext;
  state: CallState;
  /** A program's call (code mode): the whole answer, not cut to the result budget. */
  whole: boolean;
  /** Only these fields of the answer. */
  fields?: FieldSelection;
  /** Where a cut answer is kept, and how the agent reads the rest. */
  keep: KeepOptions;
}

/** A step's early answer (nothing more happens), or the arguments the next step gets. */
type Step = { result: CallToolResult } | { args: Record<string, unknown> };

// ajv and the argument validator are loaded on first use, off the path to the first tools/list;
// once loaded, calls use the module without waiting for it.
type Validation = typeof import("../arguments/validate.js");
let validation: Promise<Validation> | undefined;
let loadedValidation: Validation | undefined;
const loadValidation = () => {
  validation ??= import("../arguments/validate.js").then((loaded) => {
    loadedValidation = loaded;
    return loaded;
  });
  return validation;
};

/** Calls the operation `name` of the API; an unknown name is a protocol error. */
export async function callOperation(
  api: ApiContext,
  name: string,
  rawArgs: unknown,
  context: CallContext,
  state: CallState,
): Promise<CallToolResult> {
  if (context.trace !== undefined) state.traceId = context.trace.traceId;
  if (context.caller !== undefined) state.subject = context.caller.subject;
  const tool = api.toolOf(name);
  if (!tool) throw createInvalidParamsError(`Unknown tool: ${name}`);
  if (context.caller !== undefined) {
    const missing = context.caller.missingScopes(tool);
    if (missing.length > 0) return toScopeRefusal(tool, missing);
  }
  const names = nameResultArguments(tool);
  const taken = takeResultArguments(names, rawArgs);
  let scrubber: ((text: string) => string) | undefined;
  const keep: KeepOptions = {
    store: sharedResultStore,
    ...ownerOption(context),
    continueText:
      context.results?.continueText ??
      ((handle) => `a call of ${tool.name} with only ${JSON.stringify({ [names.continue]: handle })}`),
    fieldsHint:
      context.results?.fieldsHint ??
      `To get only the fields you need, call again with "${names.fields}": a list of ${FIELD_SYNTAX}.`,
    // Made when the answer is kept, after the call's credentials (and their secrets) are known;
    // once for all its units.
    scrub: (text) => {
      scrubber ??= createScrubber(secretsOf({ api, state }));
      return scrubber(text);
    },
  };
  // A long-running operation's status (tasks/follow-operation.ts): no arguments to check.
  const status = takeOperationHandle(tool, rawArgs);
  if (status !== undefined) {
    const operation = operationCallOf({
      api,
      tool,
      context,
      state,
      whole: context.wholeAnswer === true,
      keep,
    });
    const result = "error" in operation ? operation.error : await checkOperation(operation, status.handle);
    return redactSecrets(result, secretsOf({ api, state }));
  }
  if (taken.continuation !== undefined) {
    // Kept redacted (keep.scrub); redacted again as it is read, like every result, with the
    // secrets this call knows.
    const part = readContinuation(taken.continuation, {
      store: keep.store,
      ...(keep.owner !== undefined ? { owner: keep.owner } : {}),
      budget: context.wholeAnswer === true ? Number.POSITIVE_INFINITY : api.resolved.maxTextChars,
      continueText: keep.continueText,
    });
    return redactSecrets(part, secretsOf({ api, state }));
  }
  rawArgs = taken.args;
  const fieldsInput = context.results?.fields ?? taken.fields;
  let fields: FieldSelection | undefined;
  if (fieldsInput !== undefined) {
    const parsed = parseFieldPaths(fieldsInput);
    if ("problem" in parsed) {
      const argument = context.results?.fields !== undefined ? "fields" : names.fields;
      return toErrorResult(
        formatArgumentIssues(tool.name, [{ argument, message: parsed.problem }]),
        "invalid_argument",
      );
    }
    fields = parsed;
  }
  const call: Call = {
    api,
    tool,
    context,
    state,
    whole: context.wholeAnswer === true,
    keep,
    ...(fields ? { fields } : {}),
  };
  const hooks =
    api.options.hooks && Object.hasOwn(api.options.hooks, name) ? api.options.hooks[name] : undefined;
  // Each step waits only when it has something to wait for (a first validation, a hook, a
  // confirmation): a call without them goes straight to the request.
  const validated = validateArguments(call, rawArgs);
  let step = isStep(validated) ? validated : await validated;
  if ("result" in step) return step.result;
  if (hooks?.beforeCall) {
    step = await runBeforeCall(call, hooks, step.args);
    if ("result" in step) return step.result;
  }
  if (call.api.confirmDestructive && isDestructive(call.tool)) {
    step = await confirmCall(call, step.args);
    if ("result" in step) return step.result;
  }
  const { args } = step;
  const sent = await sendCall(call, args);
  const result = hooks?.afterCall ? await runAfterCall(call, hooks, args, sent) : sent;
  return redactSecrets(result, secretsOf(call));
}

function isStep(value: Step | Promise<Step>): value is Step {
  return !(value instanceof Promise);
}

/** Everything that must never be shown, in every form: configured and fetched secrets, and this call's. */
function secretsOf({ api, state }: Pick<Call, "api" | "state">): string[] {
  return [...api.secrets(), ...state.secrets];
}

/**
 * The arguments checked against the tool's input schema (coerced where a client sent strings);
 * at once when the validator is loaded, after loading it the first time.
 */
function validateArguments(call: Call, rawArgs: unknown): Step | Promise<Step> {
  if (loadedValidation === undefined)
    return loadValidation().then((loaded) => checkArguments(loaded, call, rawArgs));
  return checkArguments(loadedValidation, call, rawArgs);
}

function checkArguments({ createArgumentValidator }: Validation, call: Call, rawArgs: unknown): Step {
  const { api, tool } = call;
  let validator = api.validators.get(tool.name);
  if (!validator) {
    validator = createArgumentValidator(tool.inputSchema);
    api.validators.set(tool.name, validator);
  }
  const check = validator(rawArgs ?? {});
  if (check.ok) return { args: check.value };
  if ("unusable" in check) {
    return {
      result: toErrorResult(
        `The operation ${tool.name} cannot be called through this bridge: the spec describes its arguments ` +
          `in a way the bridge cannot check (${check.unusable}). Nothing was sent to the API. ` +
          "Use another operation for the task, or tell the user: the spec needs fixing for this one " +
          `(the operator can correct the schema at ${tool.source.pointer} in the spec or with an overlay).`,
        "operation_unavailable",
      ),
    };
  }
  return { result: toErrorResult(formatArgumentIssues(tool.name, check.issues), "invalid_argument") };
}

async function runBeforeCall(
  call: Call,
  hooks: ToolHooks<object> | undefined,
  args: Record<string, unknown>,
): Promise<Step> {
  if (!hooks?.beforeCall) return { args };
  try {
    const changed: unknown = await hooks.beforeCall(args);
    if (typeof changed !== "object" || changed === null || Array.isArray(changed)) {
      throw new Error("it must return the arguments object");
    }
    return { args: changed as Record<string, unknown> };
  } catch (error) {
    const text = `The beforeCall hook of ${call.tool.name} failed: ${messageOf(error)}`;
    return { result: redactSecrets(toErrorResult(text, "hook"), secretsOf(call)) };
  }
}

/** A destructive call under `--destructive confirm` goes out only once the user said yes. */
async function confirmCall(call: Call, args: Record<string, unknown>): Promise<Step> {
  if (!call.api.confirmDestructive || !isDestructive(call.tool)) return { args };
  const refusal = await askConfirmation(call.tool, args, call.context, call.state);
  return refusal ? { result: redactSecrets(refusal, secretsOf(call)) } : { args };
}

async function runAfterCall(
  call: Call,
  hooks: ToolHooks<object> | undefined,
  args: Record<string, unknown>,
  result: CallToolResult,
): Promise<CallToolResult> {
  if (!hooks?.afterCall) return result;
  try {
    return await hooks.afterCall(result, args);
  } catch (error) {
    const text = `The afterCall hook of ${call.tool.name} failed: ${messageOf(error)}`;
    return toErrorResult(text, "hook");
  }
}

/** Credentials, request, send; a 401 to a request that carried an OAuth2 token gets one more try. */
async function sendCall(call: Call, args: Record<string, unknown>): Promise<CallToolResult> {
  const { api, tool, context, state } = call;
  const base = api.targetOf(tool.http.servers ?? api.model.servers);
  if ("error" in base) return toErrorResult(`Configuration error: ${base.error}.`, "configuration");
  const { credentialed } = base;
  let request: OutgoingRequest | undefined;
  let outcome: UpstreamOutcome | undefined;
  for (let round = 0; round < 2; round++) {
    let credentials: CallCredentials;
    try {
      credentials = !credentialed
        ? { credentials: new Map(), tokens: new Map(), secrets: [] }
        : await api.credentials.forCall(
            tool,
            // Only pass-through credentials read the request's headers (copied when first read).
            readsHeaders(api) ? context.headers : undefined,
            context.signal,
            context.caller?.subject,
          );
    } catch (error) {
      if (error instanceof LoginRequired) return toLoginRequest(tool.name, error);
      if (!(error instanceof TokenError)) throw error;
      if (context.signal?.aborted) {
        return toErrorResult(
          `Cancelled: ${tool.name}: ${error.message}. Nothing was sent to the API.`,
          "cancelled",
        );
      }
      return toErrorResult(
        `Authentication failed: the bridge could not get an OAuth2 access token for ${tool.name}: ${error.message}. ` +
          "Nothing was sent to the API. Tell the user; the bridge's OAuth2 configuration needs fixing.",
        "authentication",
      );
    }
    state.secrets.push(...credentials.secrets);
    try {
      request = buildRequest(tool, args, {
        baseUrl: base.url,
        securitySchemes: api.model.securitySchemes,
        credentials: credentials.credentials,
        headers: credentialed ? api.staticHeaders : {},
        ...(context.trace !== undefined ? { trace: context.trace } : {}),
      });
      // Nothing was withheld for lack of configuration: the origin may not have any.
      if (!credentialed) request.missingCredentials = [];
    } catch (error) {
      if (error instanceof ArgumentError) {
        return toErrorResult(
          formatArgumentIssues(tool.name, [{ argument: error.argument, message: error.issue }]),
          "invalid_argument",
        );
      }
      throw error;
    }
    outcome = await api.connection.upstream.send(request, {
      operation: `${tool.http.method.toUpperCase()} ${tool.http.path}`,
      caller: callerOf(context, credentials),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.answerLimit ? { maxResponseBytes: context.answerLimit.bytes } : {}),
      trace: {
        ...(context.trace !== undefined ? { parent: context.trace } : {}),
        template: tool.http.path,
        secrets: () => secretsOf(call),
      },
    });
    state.attempts = (state.attempts ?? 0) + outcome.attempts;
    if ("response" in outcome) state.status = outcome.response.status;
    const refused = "response" in outcome && outcome.response.status === 401;
    if (!(refused && round === 0 && (await api.credentials.invalidate(credentials)))) break;
  }
  if (!request || !outcome) throw new Error("unreachable: no request was built");
  const url = `${request.origin}${request.path}`;
  const accepted = "response" in outcome ? findAcceptedOperation(tool, outcome.response, url) : undefined;
  if (accepted !== undefined) {
    const operation = operationCallOf(call);
    if (!("error" in operation)) return answerAccepted(operation, accepted, { method: request.method, url });
  }
  return toCallResult(call, args, request, outcome);
}

/** Whether the API's credentials read the MCP request's headers: pass-through headers are configured. */
function readsHeaders(api: ApiContext): boolean {
  const passThrough = api.options.passThroughHeaders;
  return passThrough !== undefined && Object.keys(passThrough).length > 0;
}

/** A long-running operation's requests and results, as this call's own (tasks/operation-call.ts). */
function operationCallOf(call: Call) {
  return createOperationCall({
    ...call,
    callerOf: (credentials) => callerOf(call.context, credentials),
    toResult: (outcome, request) => toCallResult(call, {}, request, outcome),
  });
}

/** The upstream outcome as a result; each result builder says when the answer was cut. */
function toCallResult(
  call: Call,
  args: Record<string, unknown>,
  request: OutgoingRequest,
  outcome: UpstreamOutcome,
): CallToolResult {
  const { api, tool, whole } = call;
  const { maxTextChars } = api.resolved;
  if (!("response" in outcome)) return toFailureResult(tool, outcome.failure, request.origin);
  const { response } = outcome;
  const { answerLimit } = call.context;
  if (answerLimit && response.truncated && response.body.length >= answerLimit.bytes)
    return toErrorResult(answerLimit.message, "program_limit");
  if (response.status >= 200 && response.status < 300) {
    const flagged = findFlaggedFailure(tool, response);
    if (flagged) return toFlaggedFailureResult(tool, response, flagged, maxTextChars);
    // A program's call: the whole answer for the program, which the outline would not check.
    const checkOutput = whole ? undefined : api.outputCheckFor(tool);
    return toSuccessResult(tool, response, {
      maxTextChars: whole ? Number.POSITIVE_INFINITY : maxTextChars,
      ...(checkOutput ? { checkOutput } : {}),
      args,
      ...(call.fields ? { fields: call.fields } : {}),
      ...(whole ? {} : { keep: call.keep }),
      // A program's call too: the program gets the link, never the file's bytes.
      files: { store: sharedFileStore, ...ownerOption(call.context) },
      // Tools mode only: the view is on the operation's own tool, not on call_operation or execute.
      ...(call.context.views === true && !whole && call.context.results === undefined
        ? { pageFacts: true }
        : {}),
    });
  }
  if (isDocumentedRedirect(tool, response.status)) return toRedirectResult(tool, response);
  return toStatusErrorResult(tool, response, {
    maxTextChars,
    missingCredentials: request.missingCredentials,
  });
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
