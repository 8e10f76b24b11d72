/** The closest operations to a name that is none: edit distance first, then the search. */
import { describe, expect, it } from "vitest";
import { boundedDistance, findClosestOperations } from "../../../../src/runtime/discovery/closest.js";
import { createOperationSearch } from "../../../../src/runtime/discovery/search.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

describe("boundedDistance", () => {
  it.each([
    ["getpet", "getpet", 3, 0],
    ["getpet", "getpets", 3, 1],
    ["getpet", "gtpet", 3, 1],
    ["getpet", "setpot", 3, 2],
    ["kitten", "sitting", 3, 3],
    ["kitten", "sitting", 2, 3],
    ["a", "abcdefgh", 2, 3],
    ["", "abc", 5, 3],
  ])("%s → %s within %d: %d", (a, b, limit, want) => {
    expect(boundedDistance(a, b, limit)).toBe(want);
  });
});

describe("findClosestOperations", () => {
  const tools = planSpec({ paths: TOY_PATHS }).tools;
  const search = createOperationSearch(tools);

  it.each([
    ["GETPET", "getPet"],
    ["deletePets", "deletePet"],
    ["inventory", "getInventory"],
    ["remove_user", "deleteUser"],
  ])("%s: %s among at most five", (name, want) => {
    const closest = findClosestOperations(name, tools, search);
    expect(closest).toContain(want);
    expect(closest.length).toBeLessThanOrEqual(5);
    expect(new Set(closest).size).toBe(closest.length);
  });

  it("puts a near spelling first", () => {
    expect(findClosestOperations("getpet", tools, search)[0]).toBe("getPet");
  });
});
