/**
 * `lint`'s real tokenizer (o200k_base through js-tiktoken, a rank table of a few MB): slow to
 * load, so in the `slow` project; lint.test.ts counts with characters / 4.
 */
import { describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../src/generator/lint/token-count.js";

describe("lint findings", () => {
  it("counts with the real o200k_base tokenizer", async () => {
    const count = await loadTokenCounter();
    expect(count("hello world")).toBe(2);
    expect(count('{"type":"object"}')).toBeGreaterThan(3);
  });

  it("counts a special token in a spec's text as the text it is (openai.com's spec has one)", async () => {
    const count = await loadTokenCounter();
    const n = count("Stop at <|endoftext|> in the prompt");
    expect(n).toBeGreaterThan(count("Stop at  in the prompt"));
  });
});
