/**
 * Every upstream call goes through here: a concurrency limit, a circuit breaker per origin,
 * safe retries with backoff, all within the call's total timeout.
 */
import type { Dispatcher } from "undici";
import type { OutgoingRequest } from "../request/build-request.js";
import { parseRetryAfter } from "../results/failure.js";
import { OPTION_TABLE } from "../settings/option-table.js";
import { type CircuitBreaker, type CircuitOptions, createCircuitBreaker } from "./circuit.js";
import { type ConcurrencyLimit, createConcurrencyLimit } from "./limit.js";
import { type RetryOptions, resolveRetryOptions, retryDelay } from "./retry.js";
import { type HttpOptions, sendRequest, UpstreamFailure, type UpstreamResponse } from "./send.js";

export interface UpstreamClientOptions {
  http: HttpOptions;
  retry?: RetryOptions;
  /** `false` disables the breaker. */
  circuitBreaker?: CircuitOptions | false;
  /** Upstream calls in flight at once, over all origins (default 64). */
  maxConcurrency?: number;
  getDispatcher: () => Promise<Dispatcher>;
  random?: () => number;
}

export type UpstreamOutcome = { attempts: number } & (
  | { response: UpstreamResponse }
  | { failure: UpstreamFailure }
);

export interface UpstreamClient {
  send(request: OutgoingRequest): Promise<UpstreamOutcome>;
  breaker: CircuitBreaker;
  limit: ConcurrencyLimit;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const { http } = options;
  const retry = resolveRetryOptions(options.retry);
  const breaker = createCircuitBreaker(
    options.circuitBreaker === false ? { failureThreshold: 0 } : options.circuitBreaker,
  );
  const limit = createConcurrencyLimit(options.maxConcurrency ?? OPTION_TABLE.maxConcurrency.default);

  const send = async (request: OutgoingRequest): Promise<UpstreamOutcome> => {
    const deadline = performance.now() + http.timeoutMs;
    const origin = request.origin;
    // Fail fast without queueing while the circuit is open; the real check is per attempt.
    const early = breaker.peek(origin);
    if (!early.allowed) return { attempts: 0, failure: circuitFailure(early.message) };
    let release: () => void;
    try {
      release = await limit.acquire(AbortSignal.timeout(http.timeoutMs));
    } catch {
      return { attempts: 0, failure: queueTimeout(http.timeoutMs, limit.max) };
    }
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
        const decision = breaker.check(origin);
        if (!decision.allowed && previous) return withAttempts({ ...previous, attempts: attempt });
        if (!decision.allowed) return { attempts: attempt, failure: circuitFailure(decision.message) };
        let outcome: UpstreamOutcome;
        let delay: number | undefined;
        try {
          const response = await sendRequest(await options.getDispatcher(), request, http, remaining);
          if (response.status >= 500) breaker.recordFailure(origin, `HTTP ${response.status}`);
          else breaker.recordSuccess(origin);
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
          if (!(error instanceof UpstreamFailure)) {
            breaker.recordFailure(origin, "internal error");
            throw error;
          }
          breaker.recordFailure(origin, error.message);
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
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    } finally {
      release();
    }
  };

  return { send, breaker, limit };
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
