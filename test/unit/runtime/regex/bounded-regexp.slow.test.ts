/**
 * The bounded regex engine against V8's RegExp on all 20,000 seeded random patterns, 8 inputs
 * each (a few seconds: the `slow` project; bounded-regexp.test.ts runs the first 1,000).
 */
import { describe, expect, it } from "vitest";
import { runDifferential } from "./regex-differential.js";

describe("the linear matcher agrees with V8", () => {
  it("on 20,000 random patterns, 8 inputs each", () => {
    const { checked, disagreement } = runDifferential(20_000);
    expect(disagreement).toBeUndefined();
    expect(checked).toBeGreaterThan(50_000);
  });
});
