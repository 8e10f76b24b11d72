/**
 * Text a client controls never makes the search work grow faster than its length: each input
 * below took the ranker quadratic time before (a run of opening quotes backtracked over the rest
 * of the query at every one; every "my" read the rest of the words again; an unknown name of
 * any length was compared with every operation's). Each check is a result: quadratic work on
 * these sizes would not finish within the test's time limit.
 */
import { describe, expect, it } from "vitest";
import {
  findClosestOperations,
  MAX_NAME_CHARS,
  showName,
} from "../../../../../src/runtime/discovery/closest.js";
import { hasName, readQueryIntent } from "../../../../../src/runtime/discovery/search/intent.js";
import { createOperationSearch, MAX_QUERY_CHARS } from "../../../../../src/runtime/discovery/search.js";
import { planSpec, TOY_PATHS } from "../../../../e2e/safety-support.js";

const model = planSpec({ paths: TOY_PATHS });
const search = createOperationSearch(model.tools);

describe("the search's text scanning on hostile input", () => {
  it.each<[string, string, boolean]>([
    ["a run of opening curly quotes", "\u201c".repeat(200_000), false],
    ["opening quotes each followed by a letter", "\u201ca".repeat(100_000), false],
    [
      "straight quotes around a name, after a run of curly ones",
      `${"\u201c".repeat(50_000)} "Titanic"`,
      true,
    ],
    ["a capitalised word deep in a long run of spaces", `find${" ".repeat(200_000)}Titanic`, true],
  ])("reads %s in linear time", (_label, text, named) => {
    expect(hasName(text)).toBe(named);
  });

  it("finds what each 'my' owns in one pass, however many there are", () => {
    const words = [...Array.from({ length: 100_000 }, () => "my"), "pets"];
    const intent = readQueryIntent(words);
    expect(intent.self).toBe(true);
    expect([...intent.owned]).toEqual(["pet"]);
  });

  it("ranks only the first part of a query longer than a task, cut at a space", () => {
    const long = `list the pets ${"my ".repeat(1_000_000)}`;
    const hits = search.search(long, { limit: 3 });
    expect(hits.map((hit) => hit.name)).toEqual(
      search.search(long.slice(0, MAX_QUERY_CHARS).trimEnd(), { limit: 3 }).map((hit) => hit.name),
    );
    expect(hits.length).toBeGreaterThan(0);
  });

  it("compares no name longer than any tool's with every operation, and quotes it cut", () => {
    const name = `getPet${"x".repeat(1_000_000)}`;
    expect(findClosestOperations(name, model.tools, search)).toEqual(
      search.search(name, { limit: 5 }).map((hit) => hit.name),
    );
    expect(findClosestOperations("getPets", model.tools, search)[0]).toBe("getPet");
    expect(showName(name)).toBe(`${name.slice(0, MAX_NAME_CHARS)}… (1,000,006 characters)`);
    expect(showName("getPet")).toBe("getPet");
  });
});
