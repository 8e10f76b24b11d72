/**
 * compactDescription and restatesName remember their answers by their texts (a large API repeats
 * the same parameter texts on thousands of operations): the same text asked again with another
 * budget, keepWhole or name gets that call's own answer, not the one remembered for the first.
 */
import { describe, expect, it } from "vitest";
import { compactDescription, restatesName } from "../../../src/generator/compile/text.js";

const TEXT =
  "Show only the first n items. Used with $skip for paging. See the paging guide for the details of it.";

describe("compactDescription asked again", () => {
  it.each([
    { budget: 200, keepWhole: true, expected: TEXT },
    { budget: 200, keepWhole: false, expected: "Show only the first n items." },
    { budget: 20, keepWhole: true, expected: "Show only the…" },
    { budget: 200, keepWhole: true, expected: TEXT },
  ])("budget $budget, keepWhole $keepWhole", ({ budget, keepWhole, expected }) => {
    // twice: the second answer is the remembered one
    expect(compactDescription(TEXT, budget, keepWhole)).toBe(expected);
    expect(compactDescription(TEXT, budget, keepWhole)).toBe(expected);
  });
});

describe("restatesName asked again", () => {
  it.each([
    { name: "secret_name", description: "The name of the secret.", expected: true },
    { name: "owner", description: "The name of the secret.", expected: false },
    { name: "secret_name", description: "The name of the secret.", expected: true },
  ])("$name: $description", ({ name, description, expected }) => {
    expect(restatesName(name, description)).toBe(expected);
    expect(restatesName(name, description)).toBe(expected);
  });
});
