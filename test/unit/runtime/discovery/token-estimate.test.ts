/**
 * The runtime's token estimate (no tokenizer at start-up): its arithmetic. Against the real
 * o200k_base tokenizer on the tools of real specs, in token-estimate.slow.test.ts.
 */
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../../../src/runtime/discovery/token-estimate.js";

describe("estimateTokens", () => {
  it("is 0 for no text and grows with the text", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("   \n")).toBe(0);
    const schema = '{"type":"object","properties":{"id":{"type":"integer"}}}';
    const one = estimateTokens(schema);
    expect(one).toBeGreaterThan(5);
    const ten = estimateTokens(Array.from({ length: 10 }, () => schema).join(" "));
    expect(Math.abs(ten - one * 10)).toBeLessThanOrEqual(5);
  });
});
