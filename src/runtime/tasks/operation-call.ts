/**
 * The call pipeline's side of a long-running operation (follow-operation.ts): requests to the
 * status and result URLs with the call's credentials (only on the origin the call itself went
 * to, which the origin policy allowed), who the handle is for, whether the spec declares a
 * DELETE that cancels it, and whether this caller waits (a task, a program's call).
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { messageOf } from "../../model/error-message.js";
import type { BridgeModel, ToolNode } from "../../model/types.js";
import type { CallState } from "../audit/audited-call.js";
import type { CallCredentials } from "../auth/credential-provider.js";
import { applyCredentials } from "../auth/credentials.js";
import type { ApiContext } from "../engine/api-context.js";
import type { CallContext } from "../engine/bridge-options.js";
import type { OutgoingRequest } from "../request/build-request.js";
import { addTraceHeaders } from "../request/trace-context.js";
import { toErrorResult } from "../results/error-result.js";
import { resultOwner } from "../results/result-store.js";
import type { UpstreamOutcome } from "../upstream/client.js";
import { UpstreamFailure } from "../upstream/send.js";
import type { OperationCall } from "./follow-operation.js";

export interface OperationCallInput {
  api: ApiContext;
  tool: ToolNode;
  context: CallContext;
  state: CallState;
  /** The circuit breaker's name of the caller (the pipeline's callerOf). */
  callerOf(credentials: CallCredentials): string;
  /** The pipeline's result of an answer to `request`. */
  toResult(outcome: UpstreamOutcome, request: OutgoingRequest): CallToolResult;
}

/** The operation call of one pipeline call; a configuration error when the API has no usable URL. */
export function createOperationCall(input: OperationCallInput): OperationCall | { error: CallToolResult } {
  const { api, tool, context, state } = input;
  const target = api.targetOf(tool.http.servers ?? api.model.servers);
  if ("error" in target)
    return { error: toErrorResult(`Configuration error: ${target.error}.`, "configuration") };
  const origin = new URL(target.url).origin;
  const requests = new WeakMap<UpstreamOutcome, OutgoingRequest>();
  const send = async (method: "GET" | "DELETE", url: string): Promise<UpstreamOutcome> => {
    const parsed = new URL(url);
    // A cancel is sent after the caller's signal ended the wait: on its own, within the timeout.
    const signal = method === "DELETE" ? undefined : context.signal;
    let credentials: CallCredentials = { credentials: new Map(), tokens: new Map(), secrets: [] };
    if (target.credentialed) {
      try {
        credentials = await api.credentials.forCall(tool, context.headers, signal);
      } catch (error) {
        // No token, nothing sent: said as an unavailable upstream (the token endpoint is one).
        const kind = signal?.aborted ? "cancelled" : "network";
        const message = `the bridge could not get an OAuth2 access token: ${messageOf(error)}`;
        return { attempts: 0, failure: new UpstreamFailure(kind, "ERR_OAUTH_TOKEN", message) };
      }
    }
    state.secrets.push(...credentials.secrets);
    const applied = applyCredentials(tool.http.security, api.model.securitySchemes, credentials.credentials);
    const headers: Record<string, string> = {
      ...(target.credentialed ? api.staticHeaders : {}),
      ...applied.headers,
    };
    if (applied.cookies.length > 0) headers.cookie = applied.cookies.join("; ");
    addTraceHeaders(headers, context.trace);
    headers.accept = "application/json, */*";
    const query = [parsed.search.slice(1), ...applied.query].filter((part) => part !== "").join("&");
    const request: OutgoingRequest = {
      method,
      origin: parsed.origin,
      path: query === "" ? parsed.pathname : `${parsed.pathname}?${query}`,
      headers,
      missingCredentials: target.credentialed ? applied.missing : [],
    };
    const outcome = await api.connection.upstream.send(request, {
      operation: `${method} ${tool.http.path} (operation status)`,
      caller: input.callerOf(credentials),
      ...(signal ? { signal } : {}),
    });
    state.attempts = (state.attempts ?? 0) + outcome.attempts;
    if ("response" in outcome) state.status = outcome.response.status;
    requests.set(outcome, request);
    return outcome;
  };
  const base: OutgoingRequest = { method: "GET", origin, path: "/", headers: {}, missingCredentials: [] };
  const wait = context.operation ?? (context.wholeAnswer === true ? {} : undefined);
  return {
    tool,
    owner: ownerOf(context),
    origin,
    ...(context.signal ? { signal: context.signal } : {}),
    send,
    toResult: (outcome) => input.toResult(outcome, requests.get(outcome) ?? base),
    cancels: (url) => declaresDelete(api.model, target.url, url),
    ...(wait !== undefined ? { wait: { ...wait, budget: api.resolved.operations } } : {}),
  };
}

/** The OAuth subject, else the session or the stateless request's credential (result-store.ts). */
function ownerOf(context: CallContext): string | undefined {
  if (context.caller !== undefined) return `subject ${context.caller.subject}`;
  return resultOwner(context);
}

/** Whether an operation of the spec is a DELETE of this URL (its path under the API's base). */
function declaresDelete(model: BridgeModel, baseUrl: string, url: string): boolean {
  const base = new URL(baseUrl);
  const target = new URL(url);
  if (target.origin !== base.origin) return false;
  const prefix = base.pathname.replace(/\/$/, "");
  if (!target.pathname.startsWith(prefix)) return false;
  const path = target.pathname.slice(prefix.length) || "/";
  return model.tools.some(
    (tool) =>
      tool.http.method === "delete" &&
      new RegExp(
        `^${tool.http.path
          .split(/\{[^}]+\}/)
          .map(escapeRegExp)
          .join("[^/]+")}$`,
      ).test(path),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
