/**
 * Reading a long-running operation from HTTP answers: whether an answer says "accepted, still
 * running" and where its status is (a 202, or a 201/202 of an operation the spec calls
 * long-running, with a status header), and what a status answer says: still running (a 202 of
 * a Location poll, or a status body such as Azure's `{"status": "Running"}`), succeeded, failed
 * or cancelled.
 */
import { isJsonMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";
import { parseRetryAfter } from "../results/failure.js";
import type { UpstreamResponse } from "../upstream/send.js";
import { STATUS_HEADER_ORDER } from "./status-headers.js";

/** Where an accepted operation is followed. */
export interface AcceptedOperation {
  /** The status URL, absolute. */
  status: string;
  header: string;
  /** The accepted answer's Location, when a more specific header is the status. */
  location?: string;
  /** Retry-After of the accepted answer, in seconds. */
  retryAfterSeconds?: number;
}

/**
 * The operation an answer accepted, or undefined. `requestUrl` resolves a relative header
 * value. A 201 counts only for an operation the spec calls long-running (a 201 with a Location
 * is otherwise a created resource).
 */
export function findAcceptedOperation(
  tool: ToolNode,
  response: Pick<UpstreamResponse, "status" | "headers">,
  requestUrl: string,
): AcceptedOperation | undefined {
  const declared = tool.http.longRunning;
  if (response.status !== 202 && !(response.status === 201 && declared !== undefined)) return undefined;
  for (const header of STATUS_HEADER_ORDER) {
    // A 201's Location is the created resource, not a status, unless the spec names it.
    if (header === "location" && response.status === 201 && !declared?.statusHeaders.includes("location"))
      continue;
    const value = response.headers[header];
    const status = value === undefined ? undefined : resolveUrl(value, requestUrl);
    if (status === undefined) continue;
    const accepted: AcceptedOperation = { status, header };
    const location = response.headers.location;
    if (header !== "location" && location !== undefined) {
      const resolved = resolveUrl(location, requestUrl);
      if (resolved !== undefined) accepted.location = resolved;
    }
    const retryAfter = parseRetryAfter(response.headers["retry-after"]);
    if (retryAfter !== undefined) accepted.retryAfterSeconds = retryAfter;
    return accepted;
  }
  return undefined;
}

function resolveUrl(value: string, base: string): string | undefined {
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** What one status answer says. */
export type StatusReading =
  | { state: "running"; words: string; retryAfterSeconds?: number; percent?: number; next?: string }
  | { state: "succeeded"; body?: Record<string, unknown>; resourceLocation?: string }
  | { state: "failed" | "cancelled"; words: string; message?: string }
  /** The answer is the final result itself (a Location poll's 200, or a status body without a status). */
  | { state: "final" }
  /** Not 2xx: an error of the status read, said as any error answer is. */
  | { state: "error" };

const RUNNING = new Set([
  "notstarted",
  "running",
  "inprogress",
  "accepted",
  "queued",
  "pending",
  "creating",
  "updating",
  "deleting",
  "provisioning",
  "started",
  "waiting",
  "working",
  "scheduled",
]);
const SUCCEEDED = new Set([
  "succeeded",
  "success",
  "successful",
  "completed",
  "complete",
  "done",
  "finished",
]);
const FAILED = new Set(["failed", "failure", "error", "errored"]);
const CANCELLED = new Set(["canceled", "cancelled", "aborted"]);

/** Reads a status answer (a Location poll answers 202 while running, and its result when done). */
export function readStatusAnswer(response: UpstreamResponse, requestUrl: string): StatusReading {
  const retryAfter = parseRetryAfter(response.headers["retry-after"]);
  if (response.status === 202) {
    const next = response.headers.location ?? response.headers["operation-location"];
    const resolved = next === undefined ? undefined : resolveUrl(next, requestUrl);
    return {
      state: "running",
      words: "still running (HTTP 202)",
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      ...(resolved !== undefined ? { next: resolved } : {}),
    };
  }
  if (response.status < 200 || response.status >= 300) return { state: "error" };
  const body = readJsonObject(response);
  const status = body === undefined ? undefined : findStatusWord(body);
  if (status === undefined) return { state: "final" };
  const word = status.toLowerCase().replace(/[\s_-]/g, "");
  if (RUNNING.has(word)) {
    const percent = typeof body?.percentComplete === "number" ? body.percentComplete : undefined;
    return {
      state: "running",
      words: `status ${JSON.stringify(status)}${percent !== undefined ? `, ${percent}% done` : ""}`,
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      ...(percent !== undefined ? { percent } : {}),
    };
  }
  if (SUCCEEDED.has(word)) {
    const resourceLocation =
      typeof body?.resourceLocation === "string" ? resolveUrl(body.resourceLocation, requestUrl) : undefined;
    return {
      state: "succeeded",
      ...(body ? { body } : {}),
      ...(resourceLocation ? { resourceLocation } : {}),
    };
  }
  if (FAILED.has(word) || CANCELLED.has(word)) {
    const message = findMessage(body);
    return {
      state: FAILED.has(word) ? "failed" : "cancelled",
      words: `status ${JSON.stringify(status)}`,
      ...(message !== undefined ? { message } : {}),
    };
  }
  // A status word the bridge does not know: treated as still running, and said as it is.
  return {
    state: "running",
    words: `status ${JSON.stringify(status)}`,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  };
}

function readJsonObject(response: UpstreamResponse): Record<string, unknown> | undefined {
  const type = (response.headers["content-type"] ?? "").split(";")[0]!.trim();
  if (response.body.length === 0 || (type !== "" && !isJsonMediaType(type))) return undefined;
  try {
    const parsed: unknown = JSON.parse(response.body.toString("utf8"));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `status` (Azure, Fabric, most job APIs), else `state`, else `properties.provisioningState`. */
function findStatusWord(body: Record<string, unknown>): string | undefined {
  for (const value of [
    body.status,
    body.state,
    isRecord(body.properties) ? body.properties.provisioningState : undefined,
  ]) {
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

function findMessage(body: Record<string, unknown> | undefined): string | undefined {
  if (body === undefined) return undefined;
  const error = isRecord(body.error) ? body.error : undefined;
  for (const value of [
    error?.message,
    body.message,
    error?.code,
    typeof body.error === "string" ? body.error : undefined,
  ]) {
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, 500);
  }
  return undefined;
}
