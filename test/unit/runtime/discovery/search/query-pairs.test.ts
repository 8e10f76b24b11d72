/** The task's word pairs that the phrase factor looks for (query-pairs.ts). */
import { describe, expect, it } from "vitest";
import { readQueryPairs } from "../../../../../src/runtime/discovery/search/query-pairs.js";
import { splitWords } from "../../../../../src/runtime/discovery/search/tokenize.js";

describe("readQueryPairs", () => {
  it.each([
    ["list of users", ["list user"]],
    ["exchange rate today", ["exchang rate", "rate todai"]],
    ["authenticate me and send me the report", ["authent user", "user send", "send user", "user report"]],
    ["my email address", ["email address"]],
    ["users me users", []],
    ["weather", []],
  ])("%s", (query, want) => {
    expect([...readQueryPairs(splitWords(query))]).toEqual(want);
  });
});
