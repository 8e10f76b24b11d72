/**
 * Every upstream call goes through here: a concurrency limit, the circuit breaker (circuit.ts:
 * per origin for calls that cannot connect, per operation and caller for calls that get no
 * answer), safe retries with backoff, all within the call's total timeout.
 */
import type { Dispatcher } from "undici";
import type { OutgoingRequest } from "../request/build-request.js";
import { parseRetryAfter } from "../results/failure.js";
import { getTelemetry } from "../telemetry/telemetry.js";
import type { UpstreamCallFacts } from "../telemetry/telemetry-hooks.js";
import {
  type Availability,
  type CircuitBreaker,
  type CircuitKey,
  type CircuitOptions,
  createCircuitBreaker,
  resolveCircuitOptions,
} from "./circuit.js";
import { type ConcurrencyLimit, createConcurrencyLimit, DEFAULT_MAX_CONCURRENCY } from "./limit.js";
import { type ResolvedRetryOptions, type RetryOptions, resolveRetryOptions, retryDelay } from "./retry.js";
import {
  cancelledFailure,
  type HttpOptions,
  sendRequest,
  UpstreamFailure,
  type UpstreamResponse,
} from "./send.js";

/** How an upstream client is made; what is not given is resolved by resolveUpstreamOptions. */
export interface UpstreamOptions {
  retry?: RetryOptions;
  /** `false` disables the breaker. */
  circuitBreaker?: CircuitOptions | false;
  /** Upstream calls in flight at once, over all origins (default 64). */
  maxConcurrency?: number;
}

export interface ResolvedUpstreamOptions {
  retry: ResolvedRetryOptions;
  /** A failure threshold of 0 disables the breaker. */
  circuit: Required<CircuitOptions>;
  maxConcurrency: number;
}

/** The one place the upstream client's defaults are applied. */
export function resolveUpstreamOptions(options: UpstreamOptions): ResolvedUpstreamOptions {
  return {
    retry: resolveRetryOptions(options.retry),
    circuit: resolveCircuitOptions(options.circuitBreaker),
    maxConcurrency: Math.max(1, Math.floor(options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY)),
  };
}

export interface UpstreamClientOptions extends ResolvedUpstreamOptions {
  http: HttpOptions;
  getDispatcher: () => Promise<Dispatcher>;
  random?: () => number;
}

export type UpstreamOutcome = { attempts: number } & (
  | { response: UpstreamResponse }
  | { failure: UpstreamFailure }
);

export interface UpstreamClient {
  /**
   * `call`: the operation and who calls it, for the circuit breaker (default: one shared caller),
   * and the signal of a client's cancel: it ends the wait for a slot, a backoff and the request
   * itself, frees the slot and is never retried nor counted by the breaker.
   */
  send(
    request: OutgoingRequest,
    call?: {
      operation?: string;
      caller?: string;
      signal?: AbortSignal;
      maxResponseBytes?: number;
      /** What each attempt's span tells (telemetry/): the parent, the path template, the secrets. */
      trace?: UpstreamCallFacts;
    },
  ): Promise<UpstreamOutcome>;
  breaker: CircuitBreaker;
  limit: ConcurrencyLimit;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const { http } = options;
  const { retry } = options;
  const breaker = createCircuitBreaker(options.circuit);
  const limit = createConcurrencyLimit(options.maxConcurrency);

  const send: UpstreamClient["send"] = async (request, call = {}) => {
    const deadline = performance.now() + http.timeoutMs;
    const key: CircuitKey = {
      origin: request.origin,
      operation: call.operation ?? `${request.method} ${request.path.split("?")[0]}`,
      caller: call.caller ?? "",
    };
    const { signal } = call;
    if (signal?.aborted) return { attempts: 0, failure: cancelledFailure() };
    // A caller that can use less of the answer (a program's budget) reads less of it.
    const limits =
      call.maxResponseBytes !== undefined && call.maxResponseBytes < http.maxResponseBytes
        ? { ...http, maxResponseBytes: call.maxResponseBytes }
        : http;
    // Fail fast without queueing while a circuit is open; the admission proper follows.
    const early = breaker.peek(key);
    if (!early.allowed) return { attempts: 0, failure: circuitFailure(early.message) };
    // A free slot is taken at once; the wait's timer and combined signal are made only when the
    // call has to queue (a few microseconds a call on the common path).
    let release = limit.tryAcquire();
    if (release === undefined) {
      try {
        const wait = AbortSignal.timeout(http.timeoutMs);
        release = await limit.acquire(signal ? AbortSignal.any([wait, signal]) : wait);
      } catch {
        if (signal?.aborted) return { attempts: 0, failure: cancelledFailure() };
        return { attempts: 0, failure: queueTimeout(http.timeoutMs, limit.max) };
      }
    }
    const admission = breaker.admit(key);
    if (!admission.allowed) {
      release();
      return { attempts: 0, failure: circuitFailure(admission.message) };
    }
    // The call, not each attempt, is what the breaker counts: the best evidence of all attempts.
    const verdict: { availability: Availability; description: string } = {
      availability: "local",
      description: "",
    };
    const note = (availability: Availability, description: string) => {
      if (EVIDENCE[availability] >= EVIDENCE[verdict.availability]) {
        verdict.availability = availability;
        verdict.description = description;
      }
    };
    try {
      // A retry that runs out of time (or into an open circuit) gives back the previous, real answer.
      let previous: UpstreamOutcome | undefined;
      for (let attempt = 0; ; attempt++) {
        const remaining = deadline - performance.now();
        if (remaining <= 0 && previous) return withAttempts({ ...previous, attempts: attempt });
        if (remaining <= 0) {
          const failure =
            attempt === 0
              ? queueTimeout(http.timeoutMs, limit.max)
              : new UpstreamFailure(
                  "timeout",
                  "TIMEOUT",
                  `the API did not answer within ${http.timeoutMs} ms`,
                );
          return { attempts: attempt, failure };
        }
        // Another call may have opened a circuit since: a retry does not go out then.
        if (attempt > 0 && !breaker.peek(key).allowed && previous)
          return withAttempts({ ...previous, attempts: attempt });
        let outcome: UpstreamOutcome;
        let delay: number | undefined;
        // Each attempt is a span of its own when tracing is on (its traceparent goes upstream).
        const traced = getTelemetry().startAttempt(request, attempt, call.trace ?? {});
        try {
          const response = await sendRequest(
            await options.getDispatcher(),
            traced?.request ?? request,
            limits,
            remaining,
            signal,
          );
          traced?.end({ status: response.status });
          note(
            GATEWAY_STATUSES.has(response.status) ? "unresponsive" : "answered",
            `HTTP ${response.status}`,
          );
          outcome = { attempts: attempt + 1, response };
          const retryAfter = parseRetryAfter(response.headers["retry-after"]);
          delay = retryDelay({
            method: request.method,
            attempt,
            outcome: {
              status: response.status,
              retryAfterMs: retryAfter === undefined ? undefined : retryAfter * 1000,
            },
            options: retry,
            ...(options.random ? { random: options.random } : {}),
          });
        } catch (error) {
          if (!(error instanceof UpstreamFailure)) throw error;
          traced?.end({ failure: error });
          if (error.kind === "cancelled") return { attempts: attempt + 1, failure: error };
          note(availabilityOf(error), error.message);
          if (error.kind === "timeout" && previous)
            return withAttempts({ ...previous, attempts: attempt + 1 });
          outcome = { attempts: attempt + 1, failure: error };
          delay = retryDelay({
            method: request.method,
            attempt,
            outcome: { failure: error },
            options: retry,
            ...(options.random ? { random: options.random } : {}),
          });
        }
        if (delay === undefined || performance.now() + delay >= deadline) return withAttempts(outcome);
        previous = outcome;
        if (!(await waitUnlessCancelled(delay, signal)))
          return { attempts: attempt + 1, failure: cancelledFailure() };
      }
    } finally {
      breaker.record(admission.ticket, verdict.availability, verdict.description);
      release();
    }
  };

  return { send, breaker, limit };
}

/** Waits `ms`; false, at once, when `signal` aborts first (a backoff the client cancelled). */
function waitUnlessCancelled(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(() => resolve(true), ms));
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A gateway that says the API behind it did not answer: no different from a timeout here. */
const GATEWAY_STATUSES = new Set([502, 504]);

/** How much an outcome shows the API is alive: one answer outweighs any number of failures. */
const EVIDENCE: Record<Availability, number> = { local: 0, unreachable: 1, unresponsive: 2, answered: 3 };

function availabilityOf(failure: UpstreamFailure): Availability {
  switch (failure.kind) {
    case "connect":
      return "unreachable";
    case "local":
    case "circuit_open":
    case "cancelled":
      return "local";
    default:
      return "unresponsive";
  }
}

function queueTimeout(timeoutMs: number, max: number): UpstreamFailure {
  return new UpstreamFailure(
    "timeout",
    "QUEUE_TIMEOUT",
    `no upstream call slot was free within ${timeoutMs} ms (the bridge runs at most ${max} calls at once)`,
  );
}

function circuitFailure(message: string): UpstreamFailure {
  return new UpstreamFailure("circuit_open", "CIRCUIT_OPEN", message);
}

/** Says how many attempts a failure took, so the model does not retry in a tight loop. */
function withAttempts(outcome: UpstreamOutcome): UpstreamOutcome {
  if (!("failure" in outcome) || outcome.attempts <= 1) return outcome;
  const { failure } = outcome;
  return {
    attempts: outcome.attempts,
    failure: new UpstreamFailure(
      failure.kind,
      failure.code,
      `${failure.message} (after ${outcome.attempts} attempts)`,
    ),
  };
}
