/**
 * Following a long-running operation from the call pipeline. An accepted answer (202 and a
 * status URL) becomes a result that says so and what to call next: the same operation with
 * only `{"_operation": "<handle>"}`, which reads the status once and answers either "still
 * running" (with the API's Retry-After) or the final result, through the pipeline's own result
 * path (redaction, the result budget). A caller that waits (a task, a program's call) polls here
 * instead, within a poll budget. Status URLs are followed on the call's own origin only, with
 * the call's credentials; the handle is sealed (operation-handle.ts), so a model cannot steer
 * them elsewhere.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";
import { toErrorResult } from "../results/error-result.js";
import { toMetaKey } from "../server/meta-keys.js";
import type { UpstreamOutcome } from "../upstream/client.js";
import { type OperationPayload, signOperationHandle, verifyOperationHandle } from "./operation-handle.js";
import { type AcceptedOperation, readStatusAnswer, type StatusReading } from "./operation-status.js";
import { nextWaitMs, type PollBudget } from "./poll-budget.js";

/** Key of a running operation's facts in a result's `_meta`: its handle, state and wait. */
export const OPERATION_META_KEY = toMetaKey("operation");

/** The bridge's own argument that reads an operation's status. */
export const OPERATION_ARGUMENT = "_operation";

/** Time, for the poll loop (tests give their own). */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      // Unref'd: a wait never keeps a process alive whose client has gone (stdio closed).
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** A caller that waits for the operation here (a task's background run, a program's call). */
export interface OperationWait {
  budget: PollBudget;
  clock?: Clock;
  /** The API accepted the operation: it will run on (a task is made now). */
  onAccepted?(): void;
  /** Each status read, in words. */
  onStatus?(words: string): void;
}

/**
 * A cancellation of the work the caller asked for (tasks/cancel), as the reason of the signal's
 * abort: the operation is cancelled upstream too where the spec says how.
 */
export class OperationCancelled extends Error {
  constructor() {
    super("the task was cancelled");
    this.name = "OperationCancelled";
  }
}

/** What the pipeline gives for one call that met (or names) a long-running operation. */
export interface OperationCall {
  tool: ToolNode;
  /** Who the handle is for (session, subject or credential); undefined: whoever holds it. */
  owner: string | undefined;
  /** The call's origin: a status URL elsewhere is not followed. */
  origin: string;
  signal?: AbortSignal;
  /** A request to a URL on the call's origin, with the call's credentials. */
  send(method: "GET" | "DELETE", url: string): Promise<UpstreamOutcome>;
  /** The pipeline's result of an answer (success, error, failure). */
  toResult(outcome: UpstreamOutcome): CallToolResult;
  /** Whether the spec declares a DELETE of this URL (the upstream's cancel). */
  cancels(url: string): boolean;
  wait?: OperationWait;
}

/** The name of the bridge's status argument for this tool (one more `_` when the operation has it). */
export function nameOperationArgument(tool: ToolNode): string {
  const properties = isRecord(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  let name = OPERATION_ARGUMENT;
  while (Object.hasOwn(properties, name)) name = `_${name}`;
  return name;
}

/** The handle a call's arguments carry (only it), or undefined. */
export function takeOperationHandle(tool: ToolNode, rawArgs: unknown): { handle: unknown } | undefined {
  const name = nameOperationArgument(tool);
  if (!isRecord(rawArgs) || !Object.hasOwn(rawArgs, name)) return undefined;
  return { handle: rawArgs[name] };
}

/** The answer to a call the API accepted: what to call next, or (waiting) the final result. */
export async function answerAccepted(
  call: OperationCall,
  accepted: AcceptedOperation,
  request: { method: string; url: string },
): Promise<CallToolResult> {
  const { tool } = call;
  if (originOf(accepted.status) !== call.origin) {
    return {
      content: [
        {
          type: "text",
          text:
            `The API accepted ${tool.name} (HTTP 202) and runs it in the background, but its status is on another ` +
            `host (${originOf(accepted.status) ?? "an invalid URL"}), which this bridge does not call. ` +
            "Do not call the operation again with the same arguments (that would start another one); tell the user it was accepted.",
        },
      ],
    };
  }
  const method = request.method.toUpperCase();
  const payload: Omit<OperationPayload, "expires"> = {
    tool: tool.name,
    status: accepted.status,
    header: accepted.header,
    ...(accepted.location !== undefined && originOf(accepted.location) === call.origin
      ? { location: accepted.location }
      : {}),
    ...(method === "PUT" || method === "PATCH" ? { original: request.url } : {}),
    ...(tool.http.longRunning?.finalStateVia !== undefined
      ? { finalStateVia: tool.http.longRunning.finalStateVia }
      : {}),
    ...(call.owner !== undefined ? { owner: call.owner } : {}),
  };
  if (call.wait) {
    call.wait.onAccepted?.();
    return awaitOperation(call, call.wait, payload, accepted.retryAfterSeconds);
  }
  return toRunningResult(call, payload, {
    words: "accepted (HTTP 202)",
    retryAfterSeconds: accepted.retryAfterSeconds,
  });
}

/** A status call: the operation's state now (waiting: its end, within the budget). */
export async function checkOperation(call: OperationCall, handle: unknown): Promise<CallToolResult> {
  const argument = nameOperationArgument(call.tool);
  const check = verifyOperationHandle(handle, { tool: call.tool.name, owner: call.owner });
  if ("refused" in check) {
    return toErrorResult(
      `Invalid argument ${argument} of ${call.tool.name}: ${check.refused}. Nothing was sent to the API.`,
      "invalid_argument",
    );
  }
  const { expires: _, ...payload } = check.payload;
  // Signed for this origin; checked again, as the API's configured origin may have changed since.
  if (originOf(payload.status) !== call.origin) {
    return toErrorResult(
      `The operation's status is not on the API's origin (${call.origin}) any more; nothing was sent.`,
      "configuration",
    );
  }
  if (call.wait) return awaitOperation(call, call.wait, payload, undefined);
  const read = await pollOnce(call, payload);
  return "done" in read ? read.done : toRunningResult(call, read.payload, read.reading);
}

type PollStep =
  | { done: CallToolResult }
  | {
      payload: Omit<OperationPayload, "expires">;
      reading: { words: string; retryAfterSeconds?: number | undefined };
    };

/** One status read, and the final result when it says the operation is done. */
async function pollOnce(call: OperationCall, payload: Omit<OperationPayload, "expires">): Promise<PollStep> {
  const outcome = await call.send("GET", payload.status);
  if (!("response" in outcome)) return { done: call.toResult(outcome) };
  const reading: StatusReading = readStatusAnswer(outcome.response, payload.status);
  switch (reading.state) {
    case "running": {
      // A Location poll may move on to another URL; followed on the same origin only.
      const next =
        reading.next !== undefined && originOf(reading.next) === call.origin ? { status: reading.next } : {};
      return { payload: { ...payload, ...next }, reading };
    }
    case "error":
    case "final":
      return { done: call.toResult(outcome) };
    case "failed":
    case "cancelled":
      return {
        done: toErrorResult(
          `The operation ${call.tool.name} ended ${reading.state} (${reading.words}${
            reading.message !== undefined ? `: ${reading.message}` : ""
          }). It did not complete; tell the user, or start it again if the cause is fixed.`,
          "operation_failed",
        ),
      };
    case "succeeded": {
      const url = finalUrl(payload, reading.resourceLocation);
      if (url === undefined || originOf(url) !== call.origin) return { done: call.toResult(outcome) };
      return { done: call.toResult(await call.send("GET", url)) };
    }
  }
}

/**
 * Where the final result is once the status says succeeded: final-state-via when the spec gives
 * it; else the request's URL for a PUT or PATCH (the resource it made or changed), the accepted
 * answer's Location, or the status body's `resourceLocation`; else the status answer itself.
 */
function finalUrl(
  payload: Omit<OperationPayload, "expires">,
  resourceLocation: string | undefined,
): string | undefined {
  switch (payload.finalStateVia) {
    case "azure-async-operation":
    case "operation-location":
      return undefined;
    case "location":
      return payload.location;
    case "original-uri":
      return payload.original;
    default:
      return payload.original ?? payload.location ?? resourceLocation;
  }
}

/** Polls until the operation ends, the budget is spent or the caller stops waiting. */
async function awaitOperation(
  call: OperationCall,
  wait: OperationWait,
  first: Omit<OperationPayload, "expires">,
  firstRetryAfter: number | undefined,
): Promise<CallToolResult> {
  const clock = wait.clock ?? SYSTEM_CLOCK;
  const { budget } = wait;
  const started = clock.now();
  let payload = first;
  let reading: { words: string; retryAfterSeconds?: number | undefined } = {
    words: "accepted (HTTP 202)",
    retryAfterSeconds: firstRetryAfter,
  };
  for (let polls = 0; polls < budget.maxPolls; polls++) {
    const left = budget.maxWaitMs - (clock.now() - started);
    if (left <= 0) break;
    await clock.sleep(Math.min(left, nextWaitMs(reading.retryAfterSeconds, budget)), call.signal);
    if (call.signal?.aborted) return stopWaiting(call, payload);
    const step = await pollOnce(call, payload);
    if ("done" in step) return step.done;
    payload = step.payload;
    reading = step.reading;
    wait.onStatus?.(reading.words);
  }
  const seconds = Math.round((clock.now() - started) / 1000);
  return toRunningResult(call, payload, {
    ...reading,
    budget: `The bridge stopped waiting after ${seconds} s (its poll budget: ${budget.maxPolls} status reads, ${Math.round(budget.maxWaitMs / 1000)} s).`,
  });
}

/** The caller stopped waiting: a cancelled task also cancels upstream, where the spec says how. */
async function stopWaiting(
  call: OperationCall,
  payload: Omit<OperationPayload, "expires">,
): Promise<CallToolResult> {
  const cancelled = call.signal?.reason instanceof OperationCancelled;
  let upstream = cancelled
    ? "the API was not asked to stop it (the spec declares no way to)"
    : "the operation may still be running at the API";
  if (cancelled && call.cancels(payload.status)) {
    const outcome = await call.send("DELETE", payload.status);
    upstream =
      "response" in outcome && outcome.response.status < 400
        ? `the API was asked to stop it (DELETE: HTTP ${outcome.response.status})`
        : "asking the API to stop it failed";
  }
  return toErrorResult(
    `Cancelled: the bridge stopped following ${call.tool.name}; ${upstream}.`,
    "cancelled",
  );
}

/** "Still running": the handle and when to ask again. */
function toRunningResult(
  call: OperationCall,
  payload: Omit<OperationPayload, "expires">,
  reading: { words: string; retryAfterSeconds?: number | undefined; budget?: string },
): CallToolResult {
  const handle = signOperationHandle(payload);
  const argument = nameOperationArgument(call.tool);
  const after = reading.retryAfterSeconds;
  const when = after !== undefined && after > 0 ? ` in about ${after} s (the API's Retry-After)` : "";
  const text =
    `The API accepted ${call.tool.name} and runs it in the background: ${reading.words}.` +
    (reading.budget !== undefined ? ` ${reading.budget}` : "") +
    ` To read its status (and its result once it is done), call ${call.tool.name} again${when} with only ` +
    `${JSON.stringify({ [argument]: handle })}. ` +
    `Do not call ${call.tool.name} with its arguments again: that would start another operation.`;
  const facts = {
    state: "running",
    handle,
    ...(after !== undefined ? { retryAfterSeconds: after } : {}),
  };
  return {
    content: [{ type: "text", text }],
    structuredContent: { operation: facts },
    _meta: { [OPERATION_META_KEY]: facts },
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
