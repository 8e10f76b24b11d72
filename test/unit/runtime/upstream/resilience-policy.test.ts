/** Retry decisions, backoff, the circuit breaker (with a fake clock) and the concurrency limit. */
import { describe, expect, it } from "vitest";
import {
  type Availability,
  type CircuitBreaker,
  type CircuitKey,
  createCircuitBreaker,
  resolveCircuitOptions,
} from "../../../../src/runtime/upstream/circuit.js";
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
  const a: CircuitKey = { origin: "http://a.test", operation: "GET /slow", caller: "session 1" };
  const sameOpOtherCaller: CircuitKey = { ...a, caller: "session 2" };
  const otherOp: CircuitKey = { ...a, operation: "GET /fast" };
  const otherOrigin: CircuitKey = { ...a, origin: "http://b.test" };

  /** Calls `key` once with the outcome `availability` (admitted first, as the client does). */
  function call(breaker: CircuitBreaker, key: CircuitKey, availability: Availability): boolean {
    const admission = breaker.admit(key);
    if (!admission.allowed) return false;
    breaker.record(
      admission.ticket,
      availability,
      availability === "unreachable" ? "ECONNREFUSED" : "timeout",
    );
    return true;
  }

  it.each<[string, Availability[], Record<string, boolean>]>([
    [
      "answered errors (500, 4xx, 503) never count",
      Array(20).fill("answered"),
      { a: true, sameOpOtherCaller: true, otherOp: true, otherOrigin: true },
    ],
    [
      "local failures never count",
      Array(20).fill("local"),
      { a: true, sameOpOtherCaller: true, otherOp: true, otherOrigin: true },
    ],
    [
      "3 unresponsive calls open the operation for that caller only",
      Array(3).fill("unresponsive"),
      { a: false, sameOpOtherCaller: true, otherOp: true, otherOrigin: true },
    ],
    [
      "2 unresponsive calls are under the threshold",
      Array(2).fill("unresponsive"),
      { a: true, sameOpOtherCaller: true, otherOp: true },
    ],
    [
      "an answer in between resets the count",
      ["unresponsive", "unresponsive", "answered", "unresponsive", "unresponsive"],
      { a: true },
    ],
    [
      "a local failure in between neither counts nor resets",
      ["unresponsive", "unresponsive", "local", "unresponsive"],
      { a: false },
    ],
    [
      "3 unreachable calls open the origin for every operation and caller",
      Array(3).fill("unreachable"),
      { a: false, sameOpOtherCaller: false, otherOp: false, otherOrigin: true },
    ],
    [
      "unreachable and unresponsive count apart",
      ["unreachable", "unreachable", "unresponsive", "unresponsive"],
      { a: true, otherOp: true },
    ],
  ])("%s", (_what, outcomes, expected) => {
    const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 10_000 }, () => 1_000);
    for (const outcome of outcomes) call(breaker, a, outcome);
    const keys: Record<string, CircuitKey> = { a, sameOpOtherCaller, otherOp, otherOrigin };
    for (const [name, allowed] of Object.entries(expected)) {
      expect([name, breaker.peek(keys[name]!).allowed]).toEqual([name, allowed]);
    }
  });

  it("after any sequence of outcomes of one operation, another operation's call goes out unless the origin is unreachable", () => {
    const outcomes: Availability[] = ["answered", "unresponsive", "local"];
    let seed = 11;
    for (let round = 0; round < 200; round++) {
      const breaker = createCircuitBreaker({ failureThreshold: 2, cooldownMs: 10_000 }, () => 0);
      for (let i = 0; i < 12; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        call(breaker, a, outcomes[seed % outcomes.length]!);
      }
      expect(breaker.admit(otherOp).allowed).toBe(true);
      expect(breaker.admit(sameOpOtherCaller).allowed).toBe(true);
    }
  });

  it("fails fast while open, then lets exactly one trial through; its outcome closes or reopens", () => {
    let now = 1_000;
    const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 10_000 }, () => now);
    expect(breaker.countStates()).toEqual([]);
    for (let i = 0; i < 3; i++) call(breaker, a, "unreachable");
    expect(breaker.stateOf(a, "origin")).toBe("open");
    // What the breaker gauge reads (telemetry/): open circuits by kind, never which.
    expect(breaker.countStates()).toEqual([{ circuit: "origin", state: "open", count: 1 }]);
    const refused = breaker.admit(otherOp);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 10_000 });
    expect(refused.allowed ? "" : refused.message).toBe(
      "the bridge stopped calling http://a.test after 3 calls in a row could not connect (last: ECONNREFUSED); " +
        "calls fail fast for another 10 s, then one trial call is let through",
    );
    now += 9_999;
    expect(breaker.peek(a).allowed).toBe(false);
    now += 1;
    expect(breaker.peek(a).allowed).toBe(true);
    expect(breaker.stateOf(a, "origin")).toBe("open"); // peek changes nothing
    const trial = breaker.admit(a);
    expect(trial.allowed).toBe(true);
    expect(breaker.stateOf(a, "origin")).toBe("half-open");
    expect(breaker.countStates()).toEqual([{ circuit: "origin", state: "half-open", count: 1 }]);
    const waiting = breaker.admit(otherOp);
    expect(waiting.allowed ? "" : waiting.message).toContain("testing whether http://a.test answers again");
    if (!trial.allowed) throw new Error("unreachable");
    breaker.record(trial.ticket, "unreachable", "ECONNREFUSED");
    expect(breaker.stateOf(a, "origin")).toBe("open"); // the trial failed: a full cool-down again
    now += 10_000;
    const second = breaker.admit(a);
    if (!second.allowed) throw new Error("the second trial was refused");
    breaker.record(second.ticket, "answered", "HTTP 500");
    expect(breaker.stateOf(a, "origin")).toBe("closed");
    expect(breaker.countStates()).toEqual([]);
    expect(breaker.admit(otherOp).allowed).toBe(true);
  });

  it("a trial that never left the bridge gives the trial back to the next call", () => {
    let now = 0;
    const breaker = createCircuitBreaker({ failureThreshold: 1, cooldownMs: 100 }, () => now);
    call(breaker, a, "unresponsive");
    now = 100;
    const trial = breaker.admit(a);
    if (!trial.allowed) throw new Error("refused");
    breaker.record(trial.ticket, "local", "");
    expect(breaker.admit(a).allowed).toBe(true);
  });

  it("a call that connected closes the origin's circuit: the origin answers", () => {
    let now = 0;
    const breaker = createCircuitBreaker({ failureThreshold: 1, cooldownMs: 100 }, () => now);
    call(breaker, a, "unreachable");
    now = 100;
    call(breaker, a, "unresponsive");
    expect(breaker.stateOf(a, "origin")).toBe("closed");
    expect(breaker.stateOf(a, "operation")).toBe("open");
    expect(breaker.admit(otherOp).allowed).toBe(true);
  });

  it("is off with a threshold of 0", () => {
    const breaker = createCircuitBreaker(resolveCircuitOptions({ failureThreshold: 0 }));
    for (let i = 0; i < 100; i++) call(breaker, a, "unreachable");
    expect(breaker.admit(a).allowed).toBe(true);
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

  it("takes a free slot at once with tryAcquire and never queues", async () => {
    const limit = createConcurrencyLimit(1);
    const first = limit.tryAcquire();
    expect(first).toBeTypeOf("function");
    expect(limit.tryAcquire()).toBeUndefined();
    expect([limit.active, limit.waiting]).toEqual([1, 0]);
    const queued = limit.acquire();
    first?.();
    first?.(); // twice frees one slot only
    const second = await queued;
    expect(limit.tryAcquire()).toBeUndefined();
    second();
    expect(limit.active).toBe(0);
  });
});
