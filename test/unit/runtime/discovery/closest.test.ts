/** The closest operations to a name that is none: near names first, then the search. */
import { describe, expect, it } from "vitest";
import { findClosestOperations } from "../../../../src/runtime/discovery/closest.js";
import { createOperationSearch } from "../../../../src/runtime/discovery/search.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

describe("findClosestOperations", () => {
  const tools = planSpec({ paths: TOY_PATHS }).tools;
  const search = createOperationSearch(tools);

  it.each([
    ["GETPET", "getPet"],
    ["deletePets", "deletePet"],
    ["inventory", "getInventory"],
    ["remove_user", "deleteUser"],
    ["get_pte", "getPet"],
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
