/**
 * When a failed upstream attempt may be sent again, and how long to wait first. Retries happen
 * only where repeating cannot do harm: idempotent methods (RFC 9110 §9.2.2), a connection that
 * was never made (nothing was sent), or a 429/503 whose Retry-After says the API did not act.
 */

import type { UpstreamFailure } from "./send.js";

export interface RetryOptions {
  /** Attempts after the first (default 2; 0 disables retries). */
  retries?: number;
  /** First backoff step in milliseconds (default 200); doubles each attempt. */
  baseDelayMs?: number;
  /** Longest wait between attempts, backoff or Retry-After (default 5,000). */
  maxDelayMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

/** The retry policy's defaults (`--retries` cites the first). */
export const DEFAULT_RETRY: ResolvedRetryOptions = { retries: 2, baseDelayMs: 200, maxDelayMs: 5_000 };

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRY.retries)),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs),
  };
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);

export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/** Statuses that say "try again later" rather than "this request is wrong". */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * The delay before the next attempt, or undefined when the outcome must not be retried.
 * `retryAfterMs` is the parsed Retry-After of a response (undefined when absent).
 */
export function retryDelay(input: {
  method: string;
  attempt: number;
  outcome: { status: number; retryAfterMs: number | undefined } | { failure: UpstreamFailure };
  options: ResolvedRetryOptions;
  random?: () => number;
}): number | undefined {
  const { method, attempt, outcome, options } = input;
  if (attempt >= options.retries) return undefined;
  const idempotent = isIdempotentMethod(method);
  if ("failure" in outcome) {
    const { kind } = outcome.failure;
    // A refused or timed-out connect sent nothing; any other failure may have reached the API.
    if (kind === "connect" || (kind === "network" && idempotent))
      return backoff(attempt, options, input.random);
    return undefined;
  }
  const { status, retryAfterMs } = outcome;
  if (!RETRYABLE_STATUSES.has(status)) return undefined;
  const explicit = (status === 429 || status === 503) && retryAfterMs !== undefined;
  if (!idempotent && !explicit) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= options.maxDelayMs ? retryAfterMs : undefined;
  return backoff(attempt, options, input.random);
}

/** Exponential backoff with full jitter, capped: random in [0, min(cap, base·2^attempt)]. */
export function backoff(
  attempt: number,
  options: ResolvedRetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling * random());
}
