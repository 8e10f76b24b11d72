/**
 * isDeeperThan, the one depth measure for specs, saved models, catalogs and answers: objects and
 * arrays count a level each, scalars none, and a value far deeper than any stack is measured
 * without recursion.
 */
import { describe, expect, it } from "vitest";
import { isDeeperThan } from "../../../src/model/json-depth.js";

/** `levels` containers, alternating arrays and objects, around `leaf`. */
function nest(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

describe("isDeeperThan", () => {
  it.each([
    { label: "a number", value: 1, max: 0, deeper: false },
    { label: "null", value: null, max: 0, deeper: false },
    { label: "an empty object at max 0", value: {}, max: 0, deeper: true },
    { label: "an empty object at max 1", value: {}, max: 1, deeper: false },
    { label: "3 levels at max 3", value: nest(3), max: 3, deeper: false },
    { label: "3 levels at max 2", value: nest(3), max: 2, deeper: true },
    {
      label: "a deep branch after shallow siblings",
      value: { a: 1, b: [1, 2], c: nest(5) },
      max: 5,
      deeper: true,
    },
    { label: "the same within the limit", value: { a: 1, b: [1, 2], c: nest(5) }, max: 6, deeper: false },
    {
      label: "scalars in a wide array",
      value: Array.from({ length: 1000 }, (_, i) => i),
      max: 1,
      deeper: false,
    },
    {
      label: "an own __proto__ key (JSON.parse)",
      value: JSON.parse('{"__proto__":{"a":{}}}'),
      max: 2,
      deeper: true,
    },
    { label: "100,000 levels", value: nest(100_000), max: 2000, deeper: true },
  ])("$label: $deeper", ({ value, max, deeper }) => {
    expect(isDeeperThan(value, max)).toBe(deeper);
  });
});
