/**
 * The sandbox pool's queue (program-queue.ts) with a hand-driven clock: the per-session share
 * (a flooding session's programs wait, another session's passes them), the bounds (refused at
 * once, with words), and programs cancelled or out of time leaving the queue at once.
 */
import { describe, expect, it } from "vitest";
import {
  createProgramQueue,
  type DropReason,
  type ProgramQueueOptions,
  type QueueClock,
} from "../../../../src/runtime/code/sandbox/program-queue.js";

/** A clock whose timers fire when the test says so. */
function manualClock(): QueueClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  const timers = new Set<{ at: number; fire(): void }>();
  return {
    schedule(ms, fire) {
      const timer = { at: now + ms, fire };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    advance(ms) {
      now += ms;
      for (const timer of [...timers].filter((t) => t.at <= now)) {
        timers.delete(timer);
        timer.fire();
      }
    },
    pending: () => timers.size,
  };
}

function setUp(overrides: Partial<ProgramQueueOptions> = {}) {
  const clock = manualClock();
  const dropped: [string, DropReason][] = [];
  const queue = createProgramQueue<string>(
    { maxWaiting: 8, maxWaitingPerSession: 3, maxRunningPerSession: 1, waitMs: 1000, clock, ...overrides },
    (job, why) => dropped.push([job, why]),
  );
  return { queue, clock, dropped };
}

describe("the per-session share", () => {
  it("lets another session's program pass a session that runs its share", () => {
    const { queue } = setUp();
    for (const job of ["a1", "a2", "a3"]) expect(queue.add(job, "A")).toBeUndefined();
    expect(queue.add("b1", "B")).toBeUndefined();
    expect(queue.take()).toBe("a1");
    // A runs its one program: the next to start is B's, though A's were queued first.
    expect(queue.take()).toBe("b1");
    expect(queue.take()).toBeUndefined();
    queue.finish("A");
    expect(queue.take()).toBe("a2");
  });

  it.each([
    { share: 1, starts: ["a1"] },
    { share: 2, starts: ["a1", "a2"] },
    { share: 0, starts: ["a1"] }, // at least one
  ])("runs at most $share program(s) of one session at once", ({ share, starts }) => {
    const { queue } = setUp({ maxRunningPerSession: share });
    for (const job of ["a1", "a2", "a3"]) queue.add(job, "A");
    const taken: string[] = [];
    for (let job = queue.take(); job !== undefined; job = queue.take()) taken.push(job);
    expect(taken).toEqual(starts);
  });

  it("gives programs without a session no share, only the queue's bound", () => {
    const { queue } = setUp();
    for (const job of ["x1", "x2", "x3", "x4"]) expect(queue.add(job, undefined)).toBeUndefined();
    expect([queue.take(), queue.take(), queue.take(), queue.take()]).toEqual(["x1", "x2", "x3", "x4"]);
  });
});

describe("the bounds", () => {
  it("refuses a session's program past its waiting share at once, another session's still queues", () => {
    const { queue } = setUp();
    for (const job of ["a1", "a2", "a3"]) queue.add(job, "A");
    expect(queue.add("a4", "A")).toMatch(/this session already has 0 program\(s\) running and 3 waiting/);
    expect(queue.add("b1", "B")).toBeUndefined();
    expect(queue.waiting).toBe(4);
  });

  it("refuses any program past the queue's bound", () => {
    const { queue } = setUp({ maxWaiting: 2 });
    queue.add("a1", "A");
    queue.add("b1", "B");
    expect(queue.add("c1", "C")).toMatch(/2 programs are waiting for the sandbox, as many as may wait/);
    expect(queue.add("x", undefined)).toMatch(/as many as may wait/);
  });
});

describe("leaving the queue", () => {
  it("drops a waiting program as soon as its client cancels", () => {
    const { queue, dropped, clock } = setUp();
    const cancel = new AbortController();
    queue.add("a1", "A", cancel.signal);
    queue.add("b1", "B");
    cancel.abort();
    expect(dropped).toEqual([["a1", "cancelled"]]);
    expect(queue.waiting).toBe(1);
    expect(queue.take()).toBe("b1");
    // Its timer went with it.
    expect(clock.pending()).toBe(0);
  });

  it("drops a program that waited its whole wall time, the others keep their place", () => {
    const { queue, dropped, clock } = setUp();
    queue.add("a1", "A");
    clock.advance(600);
    queue.add("b1", "B");
    clock.advance(400);
    expect(dropped).toEqual([["a1", "waited"]]);
    expect(queue.take()).toBe("b1");
  });

  it("forgets a started program's cancel and timer: they drop nothing later", () => {
    const { queue, dropped, clock } = setUp();
    const cancel = new AbortController();
    queue.add("a1", "A", cancel.signal);
    expect(queue.take()).toBe("a1");
    cancel.abort();
    clock.advance(5000);
    expect(dropped).toEqual([]);
  });

  it("drains everything waiting when the pool closes", () => {
    const { queue, clock } = setUp();
    queue.add("a1", "A");
    queue.add("b1", "B");
    expect(queue.drain()).toEqual(["a1", "b1"]);
    expect(queue.waiting).toBe(0);
    expect(clock.pending()).toBe(0);
  });
});
