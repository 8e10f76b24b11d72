/**
 * MCP tasks on the bridge's server (server/mcp-server.ts calls in here): a tool call that the
 * API answers with "accepted, still running" runs on in the background as a task, which polls
 * the operation within the poll budget and holds its result.
 *
 * - 2025-11-25 (`tasks` capability): the client asks with `params.task`; the answer is a
 *   CreateTaskResult at once; `tasks/get`, `tasks/result` (waits for the end), `tasks/list`
 *   and `tasks/cancel`. Long-running tools say `execution.taskSupport: "optional"` in tools/list.
 * - 2026-07-28 (`io.modelcontextprotocol/tasks` extension): the client declares the extension in
 *   its per-request capabilities and the server decides: the call runs, and becomes a task
 *   (`resultType: "task"`) only when the API accepts it as long-running; `tasks/get` (the result
 *   inline) and `tasks/cancel`.
 *
 * The v2 SDK (2.4.0) carries the 2025 task schemas but no task runtime, and nothing of the 2026
 * extension but its method names; what is here is the bridge's own, over its low-level Server.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerCapabilities,
  type ServerContext,
  type StandardSchemaV1,
  type Tool,
} from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";
import type { BridgeModel } from "../../model/types.js";
import { findServedTool } from "../access/caller.js";
import type { CallContext } from "../engine/bridge-options.js";
import { resultOwner } from "../results/result-store.js";
import { OperationCancelled } from "./follow-operation.js";
import { createTaskStore, TASK_LIMITS, type TaskRecord, type TaskStore } from "./task-store.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const RELATED_TASK = "io.modelcontextprotocol/related-task";
const IMMEDIATE_RESPONSE = "io.modelcontextprotocol/model-immediate-response";

/** The process's tasks: every server of this process (2026-07-28 makes one per request) shares them. */
const processTasks: TaskStore = createTaskStore(TASK_LIMITS, Date.now, () => new OperationCancelled());

/** What the server declares: 2025's `tasks` and the 2026 extension. */
export function taskCapabilities(): Pick<ServerCapabilities, "tasks" | "extensions"> {
  return {
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    extensions: { [TASKS_EXTENSION]: {} },
  };
}

/** A 2025-era tools/list page with `execution.taskSupport` on the long-running operations. */
export function markTaskSupport<T extends { tools: Tool[] }>(page: T, model: BridgeModel): T {
  if (!hasLongRunning(model)) return page;
  if (!page.tools.some((tool) => findServedTool(model, tool.name)?.http.longRunning !== undefined))
    return page;
  return {
    ...page,
    tools: page.tools.map((tool) =>
      findServedTool(model, tool.name)?.http.longRunning === undefined
        ? tool
        : { ...tool, execution: { ...tool.execution, taskSupport: "optional" as const } },
    ),
  };
}

/** Whether any served tool is long-running, once per model (most APIs have none). */
const longRunningOf = new WeakMap<BridgeModel, boolean>();

function hasLongRunning(model: BridgeModel): boolean {
  let found = longRunningOf.get(model);
  if (found === undefined) {
    // A scan without the by-name map: discovery's first tools/list needs no map of 22,361 names.
    found = model.tools.some((tool) => tool.http.longRunning !== undefined);
    longRunningOf.set(model, found);
  }
  return found;
}

/**
 * Who a request's tasks belong to: the OAuth subject, else the MCP session, else the credential
 * a stateless HTTP request carried, else (2025 stdio) this server's connection; on the 2026 stdio
 * wire nobody in particular (one client; the ids are unguessable).
 */
export function taskOwnerOf(
  ctx: ServerContext,
  known: { subject?: string | undefined; connection?: string | undefined },
): string | undefined {
  if (known.subject !== undefined) return `subject ${known.subject}`;
  if (ctx.sessionId !== undefined) return `session ${ctx.sessionId}`;
  const request = ctx.http?.req;
  if (request !== undefined) {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return resultOwner({ headers });
  }
  return known.connection !== undefined ? `connection ${known.connection}` : undefined;
}

/** A tools/call the client lets become a task; its result, or the task's answer. */
export interface TaskCallInput {
  params: Record<string, unknown>;
  ctx: ServerContext;
  modern: boolean;
  owner: string | undefined;
  /** Runs the call with these context fields over the request's. */
  run(extra: Partial<CallContext>): Promise<CallToolResult>;
}

export type TaskCallOutcome = { created: Record<string, unknown> } | { result: CallToolResult };

/**
 * Runs a tools/call as a task when the client negotiated tasks: undefined when it did not (the
 * caller runs it as usual), else the task's answer, or (2026-07-28, the API answered at once)
 * the call's own result.
 */
export async function runAsTask(input: TaskCallInput): Promise<TaskCallOutcome | undefined> {
  const { modern, params, ctx } = input;
  if (!modern) {
    if (!isRecord(params.task)) return undefined;
    const task = processTasks.create(input.owner, (control) =>
      input.run({
        signal: control.signal,
        operation: { onStatus: control.report },
      }),
    );
    if (task === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The bridge runs ${TASK_LIMITS.maxRunning} tasks already; call again later, or without a task.`,
      );
    }
    return { created: toCreated2025(task) };
  }
  if (!declaresExtension(ctx) || !processTasks.hasRoom()) return undefined;
  // The server decides: the call runs; once the API accepts it as long-running, it is a task.
  const abort = new AbortController();
  const request = ctx.mcpReq.signal;
  let task: TaskRecord | undefined;
  const forward = () => {
    if (task === undefined) abort.abort(request.reason);
  };
  request.addEventListener("abort", forward, { once: true });
  let accepted: () => void = () => {};
  const acceptedNow = new Promise<void>((resolve) => {
    accepted = resolve;
  });
  let report: (message: string) => void = () => {};
  const call = input.run({
    signal: abort.signal,
    operation: { onAccepted: () => accepted(), onStatus: (message) => report(message) },
  });
  const first = await Promise.race([call.then((result) => ({ result })), acceptedNow.then(() => undefined)]);
  if (first !== undefined) {
    request.removeEventListener("abort", forward);
    return first;
  }
  task = processTasks.create(input.owner, (control) => {
    report = control.report;
    control.signal.addEventListener("abort", () => abort.abort(control.signal.reason), { once: true });
    return call;
  });
  request.removeEventListener("abort", forward);
  if (task === undefined) return { result: await call }; // no room after all: wait here
  return { created: toCreated2026(task) };
}

/** tasks/get, tasks/result, tasks/list and tasks/cancel on this server. */
export function registerTaskHandlers(
  server: Server,
  ownerOf: (ctx: ServerContext) => string | undefined,
): void {
  const modern = () => (server.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28";
  const taskIdParams = objectSchema((value) => typeof value.taskId === "string");
  const anyParams = objectSchema(() => true);
  const found = (ctx: ServerContext, params: Record<string, unknown>): TaskRecord => {
    // 2026-07-28: the task methods are the extension's, for a request that declares it.
    if (modern() && !declaresExtension(ctx)) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        "Missing required client capability: the io.modelcontextprotocol/tasks extension",
      );
    }
    const task = processTasks.get(ownerOf(ctx), String(params.taskId));
    if (task === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${String(params.taskId)}`);
    }
    return task;
  };
  server.setRequestHandler("tasks/get", { params: taskIdParams }, (params, ctx) => {
    const task = found(ctx, params);
    return modern() ? toDetailed2026(task) : toTask2025(task);
  });
  server.setRequestHandler("tasks/result", { params: taskIdParams }, async (params, ctx) => {
    const task = found(ctx, params);
    await task.ended;
    if (task.error !== undefined) throw new ProtocolError(task.error.code, task.error.message);
    const result: CallToolResult = task.result ?? {
      isError: true,
      content: [{ type: "text", text: "Cancelled: the task was cancelled before it ended." }],
    };
    return { ...result, _meta: { ...result._meta, [RELATED_TASK]: { taskId: task.id } } };
  });
  server.setRequestHandler("tasks/list", { params: anyParams }, (_params, ctx) => ({
    tasks: processTasks.list(ownerOf(ctx)).map(toTask2025),
  }));
  server.setRequestHandler("tasks/cancel", { params: taskIdParams }, (params, ctx) => {
    const task = found(ctx, params);
    if (task.status !== "working" && !modern()) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The task ${task.id} has ended (${task.status}).`,
      );
    }
    processTasks.cancel(ownerOf(ctx), task.id);
    return modern() ? {} : toTask2025(task);
  });
}

/** The client's per-request capabilities name the extension (2026-07-28). */
function declaresExtension(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return (
    isRecord(capabilities) &&
    isRecord(capabilities.extensions) &&
    isRecord(capabilities.extensions[TASKS_EXTENSION])
  );
}

function toTask2025(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ttl: task.ttlMs,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    pollInterval: TASK_LIMITS.pollIntervalMs,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
  };
}

function toTask2026(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ttlMs: task.ttlMs,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    pollIntervalMs: TASK_LIMITS.pollIntervalMs,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
  };
}

/** tasks/get's answer on 2026-07-28: the task, and its result or error once it has one. */
function toDetailed2026(task: TaskRecord): Record<string, unknown> {
  return {
    ...toTask2026(task),
    ...(task.status === "completed" && task.result !== undefined ? { result: task.result } : {}),
    ...(task.status === "failed" && task.error !== undefined ? { error: task.error } : {}),
  };
}

/** The words a model sees while the task runs (2025's immediate response, and the content the SDK requires). */
function createdText(task: TaskRecord): string {
  return `The API accepted the call; it runs on as task ${task.id}. The result comes with the task.`;
}

// The SDK checks a tools/call answer as a CallToolResult, which needs `content`: the task's
// answer carries it beside the task (extra keys of a result are allowed on both eras).
function toCreated2025(task: TaskRecord): Record<string, unknown> {
  return {
    task: toTask2025(task),
    content: [{ type: "text", text: createdText(task) }],
    _meta: { [IMMEDIATE_RESPONSE]: createdText(task) },
  };
}

function toCreated2026(task: TaskRecord): Record<string, unknown> {
  return { resultType: "task", ...toTask2026(task), content: [{ type: "text", text: createdText(task) }] };
}

/** A Standard Schema of an object's params (the SDK's custom-method form wants one). */
function objectSchema(
  check: (value: Record<string, unknown>) => boolean,
): StandardSchemaV1<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "openapi-mcp-bridge",
      validate: (value) =>
        isRecord(value) && check(value)
          ? { value }
          : { issues: [{ message: "expected an object with a string taskId" }] },
    },
  };
}
