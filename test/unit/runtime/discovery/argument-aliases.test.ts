import { describe, expect, it } from "vitest";
import { readArgumentAliases } from "../../../../src/runtime/discovery/argument-aliases.js";

describe("readArgumentAliases", () => {
  it.each([
    {
      tool: "call_operation",
      given: { operation: "getPet", args: { id: 1 } },
      want: { name: "getPet", arguments: { id: 1 } },
    },
    {
      tool: "call_operation",
      given: { name: "getPet", operation: "x" },
      want: { name: "getPet", operation: "x" },
    },
    // two other names for one argument: left for the refusal to name both
    {
      tool: "call_operation",
      given: { operation: "a", operationId: "b" },
      want: { operation: "a", operationId: "b" },
    },
    { tool: "describe_operations", given: { operations: ["a"] }, want: { names: ["a"] } },
    { tool: "describe_operations", given: { name: "a", pointer: "/x" }, want: { names: "a", pointer: "/x" } },
    { tool: "search_operations", given: { q: "pets", top_k: 3 }, want: { query: "pets", limit: 3 } },
    { tool: "execute", given: { code: "return 1" }, want: { program: "return 1" } },
    { tool: "execute", given: { program: "a", code: "b" }, want: { program: "a", code: "b" } },
    // an operation's own tools (tools mode) are the API's: nothing is renamed
    { tool: "getPet", given: { operation: "x" }, want: { operation: "x" } },
    { tool: "call_operation", given: "text", want: "text" },
  ])("$tool $given", ({ tool, given, want }) => {
    expect(readArgumentAliases(tool, given)).toEqual(want);
  });

  it("returns the given object when nothing is renamed", () => {
    const given = { name: "getPet" };
    expect(readArgumentAliases("call_operation", given)).toBe(given);
  });
});
