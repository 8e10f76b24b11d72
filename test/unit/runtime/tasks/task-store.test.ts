/**
 * The task store (tasks/task-store.ts): tasks belong to who made them, the number running at
 * once is bounded, ended tasks expire after their TTL, a cancel is final, and a call's protocol
 * error fails its task.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { createTaskStore, TASK_LIMITS } from "../../../../src/runtime/tasks/task-store.js";

const done: CallToolResult = { content: [{ type: "text", text: "done" }] };

function deferred() {
  let resolve: (value: CallToolResult) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<CallToolResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("task store", () => {
  it("a task is its owner's only", () => {
    const store = createTaskStore();
    const task = store.create("session a", () => deferred().promise)!;
    expect(store.get("session a", task.id)).toBe(task);
    expect(store.get("session b", task.id)).toBeUndefined();
    expect(store.get(undefined, task.id)).toBeUndefined();
    expect(store.list("session b")).toEqual([]);
    expect(store.cancel("session b", task.id)).toBeUndefined();
    expect(task.status).toBe("working");
  });

  it("completes with the call's result, and fails with its protocol error", async () => {
    const store = createTaskStore();
    const ok = store.create(undefined, async () => done)!;
    const bad = store.create(undefined, async () => {
      throw Object.assign(new Error("Unknown tool: x"), { code: -32602 });
    })!;
    await Promise.all([ok.ended, bad.ended]);
    expect(ok).toMatchObject({ status: "completed", result: done });
    expect(bad).toMatchObject({ status: "failed", error: { code: -32602, message: "Unknown tool: x" } });
  });

  it("bounds the tasks running at once", () => {
    const store = createTaskStore({ ...TASK_LIMITS, maxRunning: 2 });
    store.create(undefined, () => deferred().promise);
    store.create(undefined, () => deferred().promise);
    expect(store.hasRoom()).toBe(false);
    expect(store.create(undefined, () => deferred().promise)).toBeUndefined();
  });

  it("expires ended tasks after their TTL, never running ones", async () => {
    let now = 0;
    const store = createTaskStore({ ...TASK_LIMITS, ttlMs: 1_000 }, () => now);
    const running = store.create(undefined, () => deferred().promise)!;
    const ended = store.create(undefined, async () => done)!;
    await ended.ended;
    now = 1_000;
    expect(store.get(undefined, ended.id)).toBeUndefined();
    expect(store.get(undefined, running.id)).toBe(running);
  });

  it("a cancel is final: the call's later result does not change it", async () => {
    const call = deferred();
    let signal: AbortSignal | undefined;
    const store = createTaskStore(TASK_LIMITS, Date.now, () => "cancelled by test");
    const task = store.create(undefined, (control) => {
      signal = control.signal;
      return call.promise;
    })!;
    store.cancel(undefined, task.id);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe("cancelled by test");
    await task.ended;
    call.resolve(done);
    await call.promise;
    expect(task.status).toBe("cancelled");
    expect(task.result).toBeUndefined();
  });
});
