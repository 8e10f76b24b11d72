/**
 * The byte budget of a program's calls (call-bytes.ts): arguments over the per-call cap, an
 * answer over it, and answers past the execute's budget are refused with the program's words.
 */
import { describe, expect, it } from "vitest";
import { fitAnswer, limitAnswer, refuseCallBytes } from "../../../../src/runtime/code/sandbox/call-bytes.js";

const LIMITS = { maxCallBytes: 1024, maxAnswerBytes: 3000 };
const error = (answer: string) =>
  (JSON.parse(answer) as { error: { category: string; message: string } }).error;

describe("refuseCallBytes", () => {
  it.each([
    { bytes: 1024, refused: false },
    { bytes: 1025, refused: true },
  ])("arguments of $bytes bytes: refused $refused", ({ bytes, refused }) => {
    const answer = refuseCallBytes("listPets", bytes, LIMITS);
    expect(answer !== undefined).toBe(refused);
    if (answer) expect(error(answer)).toMatchObject({ category: "program_limit" });
  });
});

describe("fitAnswer", () => {
  it.each([
    { size: 1000, used: 0, handed: true, why: undefined },
    {
      size: 1100,
      used: 0,
      handed: false,
      why: /more than the 1 KiB one call may hand a program \(--code-max-call-bytes\)/,
    },
    { size: 1000, used: 2000, handed: true, why: undefined },
    {
      size: 1000,
      used: 2500,
      handed: false,
      why: /past the 2\.9 KiB of answers one execute may be handed \(--code-max-answer-bytes\)/,
    },
  ])("an answer of $size bytes after $used: handed $handed", ({ size, used, handed, why }) => {
    const answer = JSON.stringify({ ok: true, value: "x".repeat(size - 22) });
    expect(answer.length).toBe(size);
    const fitted = fitAnswer("listPets", answer, used, LIMITS);
    if (handed) expect(fitted).toEqual({ answer, bytes: size });
    else {
      expect(fitted.bytes).toBe(0);
      expect(error(fitted.answer)).toMatchObject({
        category: "program_limit",
        message: expect.stringMatching(why!),
      });
    }
  });
});

describe("limitAnswer", () => {
  it.each([
    {
      used: 0,
      bytes: 1024,
      why: /more than the 1 KiB one call may hand a program \(--code-max-call-bytes\)/,
    },
    { used: 1976, bytes: 1024, why: /--code-max-call-bytes/ },
    {
      used: 2500,
      bytes: 500,
      why: /past the 2\.9 KiB of answers one execute may be handed.*2\.4 KiB were handed before/,
    },
    { used: 3000, bytes: 0, why: /--code-max-answer-bytes/ },
    { used: 3500, bytes: 0, why: /--code-max-answer-bytes/ },
  ])("after $used bytes handed: read at most $bytes", ({ used, bytes, why }) => {
    const limit = limitAnswer("listPets", used, LIMITS);
    expect(limit.bytes).toBe(bytes);
    expect(limit.message).toMatch(why);
    expect(limit.message).toMatch(/^api\.listPets's answer .*the rest of its answer was not read/);
  });
});
