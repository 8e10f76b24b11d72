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

/**
 * The agents made here: undici's own Agent, which calls a dispatch handler's callbacks as
 * `exchange` expects. A dispatcher a library user passed in is asked through `request()`.
 */
const OWN_AGENTS = new WeakSet<Dispatcher>();

/** undici is loaded on the first call, not at start-up: a bridge lists tools long before it calls one. */
export async function createHttpAgent(options: Pick<HttpOptions, "connectTimeoutMs">): Promise<Dispatcher> {
  const { Agent } = await import("undici");
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: 64,
    pipelining: 1,
    connect: { timeout: options.connectTimeoutMs },
  });
  OWN_AGENTS.add(agent);
  return agent;
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
  const dispatch: Dispatcher.DispatchOptions = {
    origin: request.origin,
    path: request.path,
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.body as Dispatcher.DispatchOptions["body"],
    headersTimeout: remainingMs,
    bodyTimeout: remainingMs,
  };
  const attempt = OWN_AGENTS.has(agent)
    ? new Exchange(options.maxResponseBytes)
    : new AttemptAbort(options.maxResponseBytes);
  const timer = setTimeout(attempt.fire, remainingMs);
  // The client cancelled the call: undici aborts the request (its socket is closed) at once.
  cancel?.addEventListener("abort", attempt.fire, { once: true });
  try {
    const answer = await attempt.send(agent, dispatch);
    return { ...answer, durationMs: performance.now() - started };
  } catch (error) {
    if (cancel?.aborted) throw cancelledFailure();
    throw classifyFailure(error, attempt.aborted, options.timeoutMs);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener("abort", attempt.fire);
  }
}

/** An answer as one attempt reads it (the time it took is added by sendRequest). */
type Answer = Omit<UpstreamResponse, "durationMs">;

/** The reason an attempt is aborted with: what an AbortController's abort() gives, as before. */
function abortReason(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

/**
 * One attempt on an agent made here, as a handler of undici's dispatch: the status, headers and
 * body are taken as undici's client delivers them, where `request()` would wrap them in a
 * RequestHandler (an AsyncResource), a response Readable and the caller's listeners on it
 * (together about 7% of the instructions of a call over stdio while the code warms up). Same
 * answers: headers lower-cased, read as latin1, repeated ones joined with ", " (undici's
 * parseHeaders, then the join `request()`'s callers made); 1xx answers skipped; the body up to
 * `limit` bytes, then the request aborted (its socket closed) as a destroyed response stream
 * did; a timeout or cancel aborts with the same reason, so a failure reads and is classified as
 * before. undici calls these methods by name (its legacy handler interface, which its Agent
 * still speaks: a new-style handler is wrapped to it).
 */
class Exchange {
  aborted = false;
  #abort: ((reason?: Error) => void) | undefined;
  #reason: DOMException | undefined;
  #status = 0;
  #statusText = "";
  #headers: Record<string, string> = {};
  readonly #body: LimitedBody;
  #settled = false;
  #resolve: (answer: Answer) => void = () => {};
  #reject: (error: unknown) => void = () => {};

  constructor(limit: number) {
    this.#body = new LimitedBody(limit);
  }

  send(agent: Dispatcher, dispatch: Dispatcher.DispatchOptions): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
      agent.dispatch(dispatch, this as unknown as Dispatcher.DispatchHandler);
    });
  }

  /** The attempt's timer or the client's cancel. */
  readonly fire = (): void => {
    if (this.aborted) return;
    this.aborted = true;
    this.#reason = abortReason();
    this.#abort?.(this.#reason);
  };

  onConnect(abort: (reason?: Error) => void): void {
    if (this.#reason !== undefined) {
      abort(this.#reason);
      return;
    }
    this.#abort = abort;
  }

  onHeaders(
    status: number,
    rawHeaders: Array<Buffer | string>,
    _resume: () => void,
    statusText?: string,
  ): boolean {
    if (status < 200) return true;
    this.#status = status;
    this.#statusText = statusText ?? "";
    this.#headers = readRawHeaders(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#settled) return true;
    if (this.#body.add(chunk)) {
      this.#settle(true);
      // The rest is not read: undici closes the socket, as for a destroyed response stream.
      this.#abort?.();
    }
    return true;
  }

  onComplete(): void {
    if (!this.#settled) this.#settle(false);
  }

  onError(error: Error): void {
    if (this.#settled) return;
    if (isBodylessMismatch(this.#status, error)) {
      this.#settle(false);
      return;
    }
    this.#settled = true;
    this.#reject(error);
  }

  #settle(truncated: boolean): void {
    this.#settled = true;
    this.#resolve({
      status: this.#status,
      statusText: this.#statusText,
      headers: this.#headers,
      body: this.#body.read(),
      truncated,
    });
  }
}

/**
 * A 204, 205 or 304 has no body by definition, yet some servers send a Content-Length with it
 * (Prism, for a spec that gives its 204 a JSON example: `Content-Length: 4` and nothing after).
 * undici then fails the exchange after the status arrived; the answer is the status, bodiless,
 * not "the connection to the API failed" (which told an agent a Jira transition may not have
 * happened).
 */
function isBodylessMismatch(status: number, error: unknown): boolean {
  return (
    (status === 204 || status === 205 || status === 304) &&
    (error as { code?: unknown } | null)?.code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH"
  );
}

/** undici's raw header list as `request()`'s callers read it: lower-cased names, repeated values joined. */
function readRawHeaders(raw: Array<Buffer | string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString("latin1").toLowerCase();
    const value = raw[i + 1]!.toString("latin1");
    // An own property only: `__proto__` (or another Object.prototype name) is not a header seen before.
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/**
 * One attempt through a dispatcher's `request()` (one a library user passed in). What ends it,
 * its timer or the client's cancel, is the request's `signal`: undici takes an EventEmitter
 * there (its documented alternative to an AbortSignal), which costs a fraction of an
 * AbortController's signal (an EventTarget). It aborts with the reason an AbortController's
 * abort() gives, so a failure reads as before.
 */
class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  readonly fire = (): void => {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = abortReason();
    this.emit("abort");
  };

  async send(agent: Dispatcher, dispatch: Dispatcher.DispatchOptions): Promise<Answer> {
    const response = await agent.request({ ...dispatch, signal: this });
    const { body, truncated } = await readLimited(response.body, this.#limit).catch((error: unknown) => {
      if (isBodylessMismatch(response.statusCode, error)) return { body: Buffer.alloc(0), truncated: false };
      throw error;
    });
    const headers: Record<string, string> = {};
    for (const name in response.headers) {
      const value = response.headers[name];
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    return { status: response.statusCode, statusText: response.statusText ?? "", headers, body, truncated };
  }
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
    const body = new LimitedBody(limit);
    const settle = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      if (!body.add(chunk)) return;
      settle();
      // undici's body, destroyed before its end, reports an abort error: nobody waits for it.
      stream.on("error", () => {});
      stream.destroy();
      resolve({ body: body.read(), truncated: true });
    };
    const onEnd = () => {
      settle();
      resolve({ body: body.read(), truncated: false });
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
  const body = new LimitedBody(limit);
  for await (const chunk of stream) {
    if (body.add(chunk)) {
      stream.destroy?.();
      return { body: body.read(), truncated: true };
    }
  }
  return { body: body.read(), truncated: false };
}

/** A body's bytes up to a limit, for each of the three ways an answer is read. */
class LimitedBody {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #size = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Keeps the chunk, cut at the limit; true when the limit is reached (the rest is not read). */
  add(chunk: Buffer): boolean {
    if (this.#size + chunk.length > this.#limit) {
      this.#chunks.push(chunk.subarray(0, this.#limit - this.#size));
      this.#size = this.#limit;
      return true;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    return false;
  }

  read(): Buffer {
    return Buffer.concat(this.#chunks, this.#size);
  }
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
