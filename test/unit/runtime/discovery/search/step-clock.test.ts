import { describe, expect, it } from "vitest";
import { createStepClock, STEP_MS } from "../../../../../src/runtime/discovery/search/step-clock.js";

/** Runs `checks` calls of due() with the time at each call given by `times(call)`. */
function countDue(times: (call: number) => number, checks: number, budget = STEP_MS): number[] {
  let call = 0;
  const clock = createStepClock(() => times(call), budget);
  const due: number[] = [];
  for (call = 1; call <= checks; call++) {
    if (clock.due()) {
      due.push(call);
      clock.resumed();
    }
  }
  return due;
}

describe("createStepClock", () => {
  it.each([
    { name: "no time passes: never due", times: () => 0, checks: 1000, due: [] },
    {
      name: "1 ms per call: due at the first check past 8 ms",
      times: (c: number) => c,
      checks: 100,
      due: [32, 64, 96],
    },
    {
      name: "0.1 ms per call: due once 8 ms are spent, at a check",
      times: (c: number) => c / 10,
      checks: 200,
      due: [96, 192],
    },
    {
      name: "a resumed step counts from the resume",
      times: (c: number) => (c <= 40 ? 0 : 1000),
      checks: 80,
      due: [64],
    },
  ])("$name", ({ times, checks, due }) => {
    expect(countDue(times, checks)).toEqual(due);
  });
});
