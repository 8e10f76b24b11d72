/**
 * runInSlices (runtime/engine/run-in-slices.ts): the model cache's write gives the event loop a turn
 * between slices, so that a request arriving while `serve` writes is answered meanwhile.
 */
import { describe, expect, it } from "vitest";
import { runInSlices } from "../../../../src/runtime/engine/run-in-slices.js";

function* countSteps(steps: number, seen: string[]): Generator<void, number, void> {
  for (let i = 0; i < steps; i++) {
    seen.push(`step ${i}`);
    yield;
  }
  return steps;
}

describe("runInSlices", () => {
  it.each([
    {
      title: "slices of 0 ms: the queued work runs after the first step",
      sliceMs: 0,
      order: ["step 0", "turn", "step 1", "step 2", "end"],
    },
    {
      title: "one endless slice: the queued work waits for the end",
      sliceMs: Number.POSITIVE_INFINITY,
      order: ["step 0", "step 1", "step 2", "end"],
    },
    {
      title: "slices of 0 ms at a hurried pace: the steps run at once, the queued work waits",
      sliceMs: 0,
      hurried: true,
      order: ["step 0", "step 1", "step 2", "end"],
    },
  ])("$title", async ({ sliceMs, order, hurried }) => {
    const seen: string[] = [];
    // What a request arriving meanwhile stands for: work queued on the event loop.
    setImmediate(() => seen.push("turn"));
    const result = await runInSlices(countSteps(3, seen), sliceMs, { hurried: hurried === true });
    seen.push("end");
    expect(result).toBe(3);
    expect(seen).toEqual(order);
  });
});
