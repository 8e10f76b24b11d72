/**
 * The bounded regex engine: the same answers as V8's RegExp (random patterns differentially,
 * the first 1,000 here and all 20,000 in bounded-regexp.slow.test.ts; real spec patterns by table), catastrophic patterns answered without backtracking, values too
 * long for the budget or the fallback's cap refused with PatternLimitError.
 */
import { describe, expect, it } from "vitest";
import {
  boundedRegExp,
  PatternLimitError,
  withMatchBudget,
} from "../../../../src/runtime/regex/bounded-regexp.js";
import { runDifferential } from "./regex-differential.js";

describe("the linear matcher agrees with V8", () => {
  it("on 1,000 random patterns, 8 inputs each (all 20,000: bounded-regexp.slow.test.ts)", () => {
    const { checked, disagreement } = runDifferential(1_000);
    expect(disagreement).toBeUndefined();
    expect(checked).toBeGreaterThan(2_500);
  });

  it.each([
    ["^[a-zA-Z0-9_-]{1,64}$", ["get_pet", "", "a".repeat(64), "a".repeat(65), "bad name"]],
    ["^\\d{4}-\\d{2}-\\d{2}$", ["2024-01-31", "2024-1-31", "x2024-01-31"]],
    ["^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d@$!%*?&]{8,}$", ["Passw0rd", "password", "PASSWORD1", "Pa1"]],
    ["^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$", ["DE89370400440532013000", "de89"]],
    ["^https?://", ["https://x", "ftp://x"]],
    ["[\\u{1F600}-\\u{1F64F}]", ["😀", "a"]],
    ["^\\uD83D\\uDE00$", ["😀", "\uD83D"]],
    ["^(\\+|-)?\\d+(\\.\\d+)?$", ["-1.5", "+3", "1.", "."]],
    ["\\bword\\b", ["a word here", "swordfish"]],
    ["^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", ["a@b.co", "a@b", "a b@c.d"]],
    ["^(?!.*\\.\\.)[a-z.]+$", ["a.b", "a..b"]],
    ["^(a+)+$", ["aaaa", "aaab"]],
  ])("%s", (source, inputs) => {
    const bounded = boundedRegExp(source, "u");
    for (const input of inputs) {
      expect([input, withMatchBudget(() => bounded.test(input))]).toEqual([
        input,
        new RegExp(source, "u").test(input),
      ]);
    }
  });

  it("the case-insensitive ajv-formats url pattern answers as V8 does", () => {
    const source =
      "^(?:https?|ftp):\\/\\/(?:\\S+(?::\\S*)?@)?(?:(?!(?:10|127)(?:\\.\\d{1,3}){3})[a-z0-9\\u{00a1}-\\u{ffff}.-]+)(?::\\d{2,5})?(?:\\/[^\\s]*)?$";
    const bounded = boundedRegExp(source, "iu");
    for (const input of ["HTTP://Example.COM/x", "https://10.0.0.1/", "http://a:b@host:8080/p", "nope"]) {
      expect(withMatchBudget(() => bounded.test(input))).toBe(new RegExp(source, "iu").test(input));
    }
  });
});

describe("catastrophic patterns", () => {
  it.each([
    ["^(a+)+$", `${"a".repeat(41)}!`],
    ["^(a|a)*$", `${"a".repeat(100)}!`],
    ["^(\\w+\\s?)*$", `${"word ".repeat(2000)}!`],
    ["^([a-z0-9]+[-.]?)+[a-z0-9]$", `${"a-".repeat(5000)}-`],
  ])("%s on %j is answered, false, without backtracking", (source, input) => {
    expect(withMatchBudget(() => boundedRegExp(source).test(input))).toBe(false);
  });

  it("a value that would take more steps than the budget is refused with PatternLimitError", () => {
    const bounded = boundedRegExp("[a-z]{1,500}x");
    expect(() => withMatchBudget(() => bounded.test("a".repeat(100_000)), 1_000_000)).toThrow(
      PatternLimitError,
    );
    expect(withMatchBudget(() => bounded.test(`${"a".repeat(100)}x`), 1_000_000)).toBe(true);
  });

  it.each([
    ["a lookbehind", "(?<=\\$)\\d+", "$12", 1000],
    ["a backreference", "^(\\w)\\1$", "aa", 1000],
    ["four unbounded repetitions and a backreference", "^(a*)(b*)(c*)(d*)\\1$", "abcd", 56],
    ["a backreference after nested repetition", "^((a+)+)\\1$", "aaaa", 16],
  ])("%s runs natively on values up to a length that bounds it", (_what, source, input, cap) => {
    const bounded = boundedRegExp(source);
    expect(bounded.test(input)).toBe(new RegExp(source, "u").test(input));
    expect(() => bounded.test("a".repeat(cap))).not.toThrow();
    expect(() => bounded.test("a".repeat(cap + 1))).toThrow(PatternLimitError);
  });

  it("a pattern no dialect compiles matches anything (it is ignored, not fatal)", () => {
    expect(boundedRegExp("(unclosed").test("x")).toBe(true);
  });
});

describe("in the argument validator", () => {
  it("each pattern of one schema is checked against its own expression (Ajv keys them by toString)", async () => {
    const { createArgumentValidator } = await import("../../../../src/runtime/arguments/validate.js");
    const validate = createArgumentValidator({
      type: "object",
      properties: { a: { type: "string", pattern: "^a+$" }, b: { type: "string", pattern: "^b+$" } },
    });
    expect(validate({ a: "aaa", b: "bbb" }).ok).toBe(true);
    expect(validate({ a: "bbb" }).ok).toBe(false);
    expect(validate({ b: "aaa" }).ok).toBe(false);
  });

  it("a value the budget cannot check fails the call, naming the pattern", async () => {
    const { createArgumentValidator } = await import("../../../../src/runtime/arguments/validate.js");
    const validate = createArgumentValidator({
      type: "object",
      properties: { q: { type: "string", pattern: "^(?<=x)a$" } },
    });
    const check = validate({ q: "a".repeat(5000) });
    expect(check).toEqual({
      ok: false,
      issues: [
        {
          argument: "(root)",
          message:
            'the pattern "^(?<=x)a$" (lookbehind or backreference) is only checked on values of at most 1000 characters; send a shorter value',
        },
      ],
    });
  });
});
