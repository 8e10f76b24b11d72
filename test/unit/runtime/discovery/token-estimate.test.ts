/**
 * The runtime's token estimate (no tokenizer at start-up): its arithmetic. Against the real
 * o200k_base tokenizer on the tools of real specs, in token-estimate.slow.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createRandom } from "../../../../bench/fuzz-inputs.mjs";
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

  it("counts as the runs of letters, digits and other symbols a regular expression cuts", () => {
    // The estimate as first written (matchAll over the runs); the loop must give the same count.
    const byRuns = (text: string) => {
      let pieces = 0;
      for (const [run] of text.matchAll(/[A-Za-z]+|[0-9]+|[^\sA-Za-z0-9]+/g)) {
        const c = run.charCodeAt(0);
        const per = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 7 : c >= 48 && c <= 57 ? 2 : 2;
        pieces += Math.ceil(run.length / per);
      }
      return Math.round(pieces / 1.275);
    };
    const alphabet = [
      "a",
      "Z",
      "q",
      "0",
      "7",
      " ",
      "\t",
      "\n",
      "\u00a0",
      "\u2003",
      "\u3000",
      "\ufeff",
      "{",
      '"',
      ":",
      "é",
      "\u201c",
      "日",
      "\ud83d",
      "\ude00",
      "_",
      "-",
    ];
    const random = createRandom(7);
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(random() * 60);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
      expect(estimateTokens(text), JSON.stringify(text)).toBe(byRuns(text));
    }
    const schema = JSON.stringify({
      type: "object",
      properties: {
        owner: {
          type: "string",
          description: "The account owner of the repository. The name is not case sensitive.",
        },
      },
    });
    expect(estimateTokens(schema)).toBe(byRuns(schema));
  });
});
