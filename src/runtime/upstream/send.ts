/**
 * Sends requests with an undici keep-alive agent; reads answers up to a size limit.
 * Redirects are never followed: a redirect to another host would carry credentials away.
 */
import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { OutgoingRequest } from "../request/build-request.js";

export interface HttpOptions {
  /** Whole call (connect, send, wait, read) in milliseconds. */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Bytes of response body kept; the rest is discarded and the result says so. */
  maxResponseBytes: number;
}

/** The HTTP limits' defaults (`--timeout`, `--connect-timeout`, `--max-response-bytes` cite them). */
export const DEFAULT_HTTP: HttpOptions = {
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  maxResponseBytes: 10 * 1024 * 1024,
};

/** The one place the HTTP limits' defaults are applied. */
export function resolveHttpOptions(given: Partial<HttpOptions>): HttpOptions {
  const timeoutMs = given.timeoutMs ?? DEFAULT_HTTP.timeoutMs;
  return {
    timeoutMs,
    // A connect timeout longer than the whole call's would never fire.
    connectTimeoutMs: given.connectTimeoutMs ?? Math.min(DEFAULT_HTTP.connectTimeoutMs, timeoutMs),
    maxResponseBytes: given.maxResponseBytes ?? DEFAULT_HTTP.maxResponseBytes,
  };
}

export interface UpstreamResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
}

/**
 * `circuit_open`: the circuit breaker refused the call without sending it. `local`: the HTTP
 * client refused to build the request (a header it does not allow): nothing was sent.
 */
export type UpstreamFailureKind = "timeout" | "connect" | "network" | "circuit_open" | "local" | "cancelled";

export class UpstreamFailure extends Error {
  readonly kind: UpstreamFailureKind;
  readonly code: string;

  constructor(kind: UpstreamFailureKind, code: string, message: string) {
    super(message);
    this.name = "UpstreamFailure";
    this.kind = kind;
    this.code = code;
  }
}

/** undici is loaded on the first call, not at start-up: a bridge lists tools long before it calls one. */
export async function createHttpAgent(options: Pick<HttpOptions, "connectTimeoutMs">): Promise<Dispatcher> {
  const { Agent } = await import("undici");
  return new Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: 64,
    pipelining: 1,
    connect: { timeout: options.connectTimeoutMs },
  });
}

/**
 * One attempt. `remainingMs` is what is left of the call's total timeout (default: all of it);
 * messages still name the total.
 */
export async function sendRequest(
  agent: Dispatcher,
  request: OutgoingRequest,
  options: HttpOptions,
  remainingMs: number = options.timeoutMs,
  cancel?: AbortSignal,
): Promise<UpstreamResponse> {
  const started = performance.now();
  const abort = new AttemptAbort();
  const timer = setTimeout(abort.fire, remainingMs);
  // The client cancelled the call: undici aborts the request (its socket is closed) at once.
  cancel?.addEventListener("abort", abort.fire, { once: true });
  try {
    const response = await agent.request({
      origin: request.origin,
      path: request.path,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body as Dispatcher.DispatchOptions["body"],
      signal: abort,
      headersTimeout: remainingMs,
      bodyTimeout: remainingMs,
    });
    const { body, truncated } = await readLimited(response.body, options.maxResponseBytes);
    const headers: Record<string, string> = {};
    for (const name in response.headers) {
      const value = response.headers[name];
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    return {
      status: response.statusCode,
      statusText: response.statusText ?? "",
      headers,
      body,
      truncated,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    if (cancel?.aborted) throw cancelledFailure();
    throw classifyFailure(error, abort.aborted, options.timeoutMs);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener("abort", abort.fire);
  }
}

/**
 * What ends one attempt, its timer or the client's cancel, as the request's `signal`: undici
 * takes an EventEmitter there (its documented alternative to an AbortSignal), which costs a
 * fraction of an AbortController's signal (an EventTarget) and is made for every upstream call.
 * It aborts with the reason an AbortController's abort() gives, so a failure reads as before.
 */
class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  readonly fire = (): void => {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException("This operation was aborted", "AbortError");
    this.emit("abort");
  };
}

/** The client cancelled the call (MCP notifications/cancelled, or its HTTP stream closed). */
export function cancelledFailure(): UpstreamFailure {
  return new UpstreamFailure("cancelled", "CANCELLED", "the client cancelled the call");
}

type ResponseBody = AsyncIterable<Buffer> & { destroy?: () => void };

/**
 * The body up to `limit` bytes (the rest is not read: the stream is destroyed). A readable
 * stream (undici's body) is read with `data` events rather than an async iterator, which costs
 * an iterator and a promise per chunk; an error, or the stream closing before its end, rejects
 * as the iterator would. Any other async iterable (a test's) is iterated.
 */
function readLimited(stream: ResponseBody, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (stream instanceof Readable) return readStreamLimited(stream, limit);
  return iterateLimited(stream, limit);
}

function readStreamLimited(stream: Readable, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > limit) {
        chunks.push(chunk.subarray(0, limit - size));
        size = limit;
        settle();
        // undici's body, destroyed before its end, reports an abort error: nobody waits for it.
        stream.on("error", () => {});
        stream.destroy();
        resolve({ body: Buffer.concat(chunks, size), truncated: true });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      settle();
      resolve({ body: Buffer.concat(chunks, size), truncated: false });
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onClose = () => {
      settle();
      reject(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.on("close", onClose);
  });
}

async function iterateLimited(
  stream: ResponseBody,
  limit: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      size = limit;
      stream.destroy?.();
      return { body: Buffer.concat(chunks, size), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks, size), truncated: false };
}

/** undici's codes for a request it will not send as given: checked before anything goes out. */
const REFUSED_REQUEST_CODES = new Set(["UND_ERR_INVALID_ARG", "UND_ERR_NOT_SUPPORTED"]);

function classifyFailure(error: unknown, aborted: boolean, timeoutMs: number): UpstreamFailure {
  const code = (error as { code?: string }).code ?? "";
  if (REFUSED_REQUEST_CODES.has(code)) {
    const message = error instanceof Error ? error.message : String(error);
    return new UpstreamFailure("local", code, `the HTTP client refused to build the request (${message})`);
  }
  if (aborted || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new UpstreamFailure("timeout", code || "TIMEOUT", `the API did not answer within ${timeoutMs} ms`);
  }
  if (
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "EAI_AGAIN" ||
    code === "EHOSTUNREACH" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return new UpstreamFailure(
      "connect",
      code || "CONNECT",
      `could not connect to the API (${code || "connect failed"})`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new UpstreamFailure(
    "network",
    code || "NETWORK",
    `the connection to the API failed (${code || message})`,
  );
}
