/** Retry decisions, backoff, the circuit breaker (with a fake clock) and the concurrency limit. */
import { describe, expect, it } from "vitest";
import { createCircuitBreaker } from "../../../../src/runtime/upstream/circuit.js";
import { createConcurrencyLimit } from "../../../../src/runtime/upstream/limit.js";
import { backoff, resolveRetryOptions, retryDelay } from "../../../../src/runtime/upstream/retry.js";
import { UpstreamFailure } from "../../../../src/runtime/upstream/send.js";

const options = resolveRetryOptions({ retries: 3, baseDelayMs: 100, maxDelayMs: 1000 });
const half = () => 0.5;

function delayFor(method: string, outcome: Parameters<typeof retryDelay>[0]["outcome"], attempt = 0) {
  return retryDelay({ method, attempt, outcome, options, random: half });
}

const status = (code: number, retryAfterMs?: number) => ({ status: code, retryAfterMs });
const failure = (kind: "connect" | "network" | "timeout") => ({
  failure: new UpstreamFailure(kind, "X", "x"),
});

describe("retryDelay", () => {
  it.each([
    ["GET", status(503), 50],
    ["GET", status(502), 50],
    ["GET", status(504), 50],
    ["GET", status(429), 50],
    ["PUT", status(503), 50],
    ["DELETE", failure("network"), 50],
    ["GET", status(500), undefined],
    ["GET", status(404), undefined],
    ["GET", status(200), undefined],
    ["GET", failure("timeout"), undefined],
    ["POST", status(503), undefined],
    ["POST", status(429), undefined],
    ["PATCH", failure("network"), undefined],
    ["POST", failure("connect"), 50],
    ["POST", status(429, 300), 300],
    ["PATCH", status(503, 0), 0],
    ["POST", status(502, 300), undefined],
    ["GET", status(429, 300), 300],
    ["GET", status(429, 5000), undefined],
  ])("%s after %o waits %s ms", (method, outcome, want) => {
    expect(delayFor(method, outcome)).toBe(want);
  });

  it("stops after the configured number of retries", () => {
    expect(delayFor("GET", status(503), 2)).toBe(200);
    expect(delayFor("GET", status(503), 3)).toBeUndefined();
    expect(
      retryDelay({
        method: "GET",
        attempt: 0,
        outcome: status(503),
        options: resolveRetryOptions({ retries: 0 }),
      }),
    ).toBe(undefined);
  });
});

describe("backoff", () => {
  it("doubles, is capped, and is jittered over [0, ceiling]", () => {
    expect([0, 1, 2, 3, 4, 5].map((a) => backoff(a, options, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoff(3, options, () => 0)).toBe(0);
    for (let i = 0; i < 100; i++) {
      const delay = backoff(2, options);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});

describe("circuit breaker", () => {
  it("opens after N consecutive failures, fails fast, probes once after the cool-down", () => {
    let now = 1_000;
    const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 10_000 }, () => now);
    const origin = "http://a.test";
    breaker.recordFailure(origin, "HTTP 503");
    breaker.recordFailure(origin, "HTTP 503");
    breaker.recordSuccess(origin); // not consecutive any more
    breaker.recordFailure(origin, "HTTP 503");
    breaker.recordFailure(origin, "HTTP 503");
    expect(breaker.check(origin).allowed).toBe(true);
    breaker.recordFailure(origin, "HTTP 503");
    expect(breaker.stateOf(origin)).toBe("open");
    const refused = breaker.check(origin);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 10_000 });
    expect(refused.allowed ? "" : refused.message).toContain("after 3 failures in a row (last: HTTP 503)");
    expect(breaker.check("http://b.test").allowed).toBe(true); // per origin
    now += 9_999;
    expect(breaker.peek(origin).allowed).toBe(false);
    now += 1;
    expect(breaker.peek(origin).allowed).toBe(true);
    expect(breaker.stateOf(origin)).toBe("open"); // peek changes nothing
    expect(breaker.check(origin).allowed).toBe(true); // the one trial call
    expect(breaker.stateOf(origin)).toBe("half-open");
    expect(breaker.check(origin).allowed).toBe(false); // everyone else waits for the trial
    breaker.recordFailure(origin, "ECONNRESET");
    expect(breaker.stateOf(origin)).toBe("open"); // trial failed: open again, full cool-down
    now += 10_000;
    expect(breaker.check(origin).allowed).toBe(true);
    breaker.recordSuccess(origin);
    expect(breaker.stateOf(origin)).toBe("closed");
    expect(breaker.check(origin).allowed).toBe(true);
  });

  it("is off with a threshold of 0", () => {
    const breaker = createCircuitBreaker({ failureThreshold: 0 });
    for (let i = 0; i < 100; i++) breaker.recordFailure("o", "x");
    expect(breaker.check("o").allowed).toBe(true);
  });
});

describe("concurrency limit", () => {
  it("admits at most max at once, in order, and lets a waiter give up", async () => {
    const limit = createConcurrencyLimit(2);
    const order: string[] = [];
    const a = await limit.acquire();
    const b = await limit.acquire();
    const c = limit.acquire().then((release) => {
      order.push("c");
      return release;
    });
    const controller = new AbortController();
    const d = limit.acquire(controller.signal);
    const e = limit.acquire().then((release) => {
      order.push("e");
      return release;
    });
    expect([limit.active, limit.waiting]).toEqual([2, 3]);
    controller.abort(new Error("gave up"));
    await expect(d).rejects.toThrow("gave up");
    expect(limit.waiting).toBe(2);
    a();
    a(); // releasing twice frees one slot only
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect([limit.active, limit.waiting]).toEqual([2, 1]);
    b();
    const releaseE = await e;
    expect(order).toEqual(["c", "e"]);
    releaseC();
    releaseE();
    expect([limit.active, limit.waiting]).toEqual([0, 0]);
  });
});
