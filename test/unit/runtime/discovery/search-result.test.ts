/**
 * search_operations' answer as text: one line a result, a summary only when it says more than
 * the name, no closing line in discovery mode (its tool text says what comes next), code mode's
 * own next step.
 */
import { describe, expect, it } from "vitest";
import { isNameInWords } from "../../../../src/runtime/discovery/describe-budget.js";
import type { SearchHit } from "../../../../src/runtime/discovery/search.js";
import { toSearchResult } from "../../../../src/runtime/discovery/search-result.js";

const api = { title: "Shop", operations: 40, tags: [] };
const hit = (name: string, summary: string, path = "/x"): SearchHit => ({
  name,
  method: "GET",
  path,
  summary,
  tags: [],
  readOnly: true,
  score: 1,
});
const textOf = (result: { content: { type: string; text?: string }[] }) => result.content[0]?.text ?? "";

describe("isNameInWords", () => {
  it.each([
    ["Get describe images", "GET_DescribeImages", true],
    ["list orders", "listOrders", true],
    ["List all orders", "listOrders", false],
    ["Get a droplet", "droplets_get", false],
  ])("%s for %s: %s", (text, name, want) => {
    expect(isNameInWords(text, name)).toBe(want);
  });
});

describe("toSearchResult", () => {
  it("writes one line a result, leaving out a summary that is the name in words", () => {
    const result = toSearchResult(
      { query: "images" },
      [
        hit("GET_DescribeImages", "Get describe images", "/#Action=DescribeImages"),
        hit("listOrders", "List all orders of the shop", "/orders"),
      ],
      api,
    );
    expect(textOf(result)).toBe(
      [
        '2 operations of 40 for "images", best first:',
        "- GET_DescribeImages: GET /#Action=DescribeImages",
        "- listOrders: GET /orders - List all orders of the shop",
      ].join("\n"),
    );
    expect(result.structuredContent).toEqual({
      results: [
        { name: "GET_DescribeImages", method: "GET", path: "/#Action=DescribeImages", summary: "" },
        { name: "listOrders", method: "GET", path: "/orders", summary: "List all orders of the shop" },
      ],
    });
  });

  it("ends with code mode's next step when it has one", () => {
    const result = toSearchResult({ query: "orders" }, [hit("listOrders", "List all orders")], api, {
      signatureOf: () => "api.listOrders(): Promise<unknown>",
      next: "execute runs a program.",
    });
    expect(textOf(result).split("\n").at(-1)).toBe("execute runs a program.");
  });
});
