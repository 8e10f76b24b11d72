/**
 * The response-size budget: answers over it are cut at whole items (JSON lists) or whole lines
 * (text), the marker says how much was cut and which arguments fetch the rest, and the cut
 * JSON keeps its shape.
 */
import { describe, expect, it } from "vitest";
import type { ParameterBindingNode, ToolNode } from "../../../../src/model/types.js";
import {
  findNextPage,
  findPaginationArguments,
  parseNextLink,
} from "../../../../src/runtime/results/pagination.js";
import { cutAtBoundary, findMainArray, fitJson, fitText } from "../../../../src/runtime/results/truncate.js";

function query(name: string, argument = name): ParameterBindingNode {
  return {
    argument,
    name,
    in: "query",
    required: false,
    style: "form",
    explode: true,
    allowReserved: false,
    shape: "primitive",
  };
}

function createTool(parameters: ParameterBindingNode[], fields: Partial<ToolNode> = {}): ToolNode {
  return {
    name: "listThings",
    title: "List things",
    description: "List things.",
    inputSchema: { type: "object", properties: {} },
    annotations: {
      title: "List things",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: { method: "get", path: "/things", parameters, security: [], responses: [], accept: [] },
    source: { pointer: "/paths/~1things/get" },
    tags: [],
    deprecated: false,
    ...fields,
  };
}

/** 200 items of ~100 characters each: ~20,000 characters of JSON. */
const ITEMS = Array.from({ length: 200 }, (_, i) => ({
  id: `item_${i}`,
  name: `Thing ${i}`,
  note: "x".repeat(60),
}));
const BUDGET = 5000;

function fitAnswer(value: unknown, tool: ToolNode, args: Record<string, unknown> = {}, headers = {}) {
  return fitJson(value, JSON.stringify(value), { budget: BUDGET, tool, args, headers });
}

/** The JSON part of a cut text (before the marker line). */
function jsonPart(text: string): unknown {
  return JSON.parse(text.slice(0, text.lastIndexOf("\n[Truncated")));
}

describe("fitJson", () => {
  it("leaves an answer within the budget exactly as received", () => {
    const text = '{ "a": [1, 2, 3] }';
    const fitted = fitJson({ a: [1, 2, 3] }, text, { budget: 100, tool: createTool([]) });
    expect(fitted).toEqual({ value: { a: [1, 2, 3] }, text });
  });

  it("applies no limit with a budget of 0", () => {
    const text = JSON.stringify(ITEMS);
    expect(fitJson(ITEMS, text, { budget: 0, tool: createTool([]) }).truncation).toBeUndefined();
  });

  it("cuts a root list to whole items within the budget and says how many", () => {
    const fitted = fitAnswer(ITEMS, createTool([]));
    expect(fitted.text.length).toBeLessThanOrEqual(BUDGET);
    const shown = fitted.truncation!.items!.shown;
    expect(shown).toBeGreaterThan(20);
    expect(shown).toBeLessThan(200);
    expect(fitted.value).toEqual(ITEMS.slice(0, shown));
    expect(jsonPart(fitted.text)).toEqual(ITEMS.slice(0, shown));
    expect(fitted.text).toContain(`Showing ${shown} of 200 items (whole items, in order)`);
    expect(fitted.truncation).toMatchObject({
      truncated: true,
      originalChars: JSON.stringify(ITEMS).length,
      budget: BUDGET,
      items: { path: "", total: 200 },
    });
    expect(fitted.text).toContain("This operation has no argument to page or narrow its answer");
  });

  it("cuts the largest nested list and keeps the other fields", () => {
    const value = { total_count: 200, incomplete_results: false, items: ITEMS, labels: ["a", "b"] };
    const fitted = fitAnswer(value, createTool([]));
    const cut = fitted.value as typeof value;
    expect(cut.total_count).toBe(200);
    expect(cut.labels).toEqual(["a", "b"]);
    expect(cut.items.length).toBe(fitted.truncation!.items!.shown);
    expect(fitted.truncation!.items!.path).toBe("items");
    expect(fitted.text).toContain("items of `items`");
  });

  it.each([
    {
      title: "offset + limit: the next offset after the last item shown",
      parameters: [query("offset"), query("limit")],
      args: { offset: 400, limit: 200 },
      want: (n: number) => ({ offset: 400 + n, limit: n }),
    },
    {
      title: "page + per_page on page 1: pages of N, page 2 starts after the last item shown",
      parameters: [query("page"), query("per_page")],
      args: {},
      want: (n: number) => ({ per_page: n, page: 2 }),
    },
    {
      title: "Stripe-style starting_after: the id of the last item shown",
      parameters: [query("starting_after"), query("limit")],
      args: { limit: 200 },
      want: (n: number) => ({ starting_after: `item_${n - 1}`, limit: n }),
    },
    {
      title: "a suffixed argument name is what the model is told",
      parameters: [query("offset", "offset__query")],
      args: {},
      want: (n: number) => ({ offset__query: n }),
    },
  ])("tells the next arguments: $title", ({ parameters, args, want }) => {
    const fitted = fitAnswer(ITEMS, createTool(parameters), args);
    const n = fitted.truncation!.items!.shown;
    expect(fitted.truncation!.next).toEqual(want(n));
    expect(fitted.text).toContain(JSON.stringify(want(n)));
    expect(fitted.text.length).toBeLessThanOrEqual(BUDGET);
  });

  it("on a later page whose cut does not fall on a page of N, says where to go on from", () => {
    const fitted = fitAnswer(ITEMS, createTool([query("page"), query("per_page")]), {
      page: 3,
      per_page: 200,
    });
    const n = fitted.truncation!.items!.shown;
    expect(400 % n).not.toBe(0);
    expect(fitted.truncation!.next).toBeUndefined();
    expect(fitted.text).toContain(`go on from item ${400 + n + 1} of the whole list`);
  });

  it("passes on the next cursor of the body, with a smaller page size", () => {
    const value = { data: ITEMS, meta: { next_cursor: "b64:abc==" } };
    const fitted = fitAnswer(value, createTool([query("cursor"), query("limit")]));
    const n = fitted.truncation!.items!.shown;
    expect(fitted.truncation!.next).toEqual({ cursor: "b64:abc==", limit: n });
    expect(fitted.text).toContain("from the `meta.next_cursor` field");
  });

  it("reads the Link header's next page into the tool's arguments", () => {
    const fitted = fitAnswer(
      ITEMS,
      createTool([query("page")]),
      { page: 1 },
      {
        link: '<https://api.example.com/things?page=2&per_page=30>; rel="next", <https://api.example.com/things?page=9>; rel="last"',
      },
    );
    expect(fitted.truncation!.next).toEqual({ page: 2 });
    expect(fitted.text).toContain("has no page-size argument");
  });

  it("names the arguments that narrow a request when the operation has no pagination", () => {
    const fitted = fitAnswer(ITEMS, createTool([query("q"), query("state")]));
    expect(fitted.truncation!.next).toBeUndefined();
    expect(fitted.text).toContain(
      "no pagination arguments; narrow the request with its arguments (`q`, `state`)",
    );
  });

  it("shortens strings inside when there is no list to cut, keeping the types", () => {
    const value = { id: 1, content: "y".repeat(20_000), nested: { text: "z".repeat(10_000), n: 2 } };
    const fitted = fitAnswer(value, createTool([]));
    expect(fitted.text.length).toBeLessThanOrEqual(BUDGET);
    expect(fitted.truncation!.shortened).toBe(true);
    const cut = fitted.value as typeof value;
    expect(cut.id).toBe(1);
    expect(typeof cut.content).toBe("string");
    expect(cut.content.endsWith("…")).toBe(true);
    expect(cut.nested.n).toBe(2);
    expect(jsonPart(fitted.text)).toEqual(cut);
  });

  it("shortens inside the single item of a list when one item alone is over the budget", () => {
    const value = [{ id: 1, blob: "q".repeat(50_000) }];
    const fitted = fitAnswer(value, createTool([]));
    expect(fitted.text.length).toBeLessThanOrEqual(BUDGET);
    expect(Array.isArray(fitted.value)).toBe(true);
    expect((fitted.value as { id: number }[])[0]!.id).toBe(1);
  });
});

describe("fitText", () => {
  it("cuts after a whole line and counts lines", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i},${"c".repeat(20)}`).join("\n");
    const fitted = fitText(text, { budget: BUDGET, tool: createTool([query("page"), query("per_page")]) });
    expect(fitted.text.length).toBeLessThanOrEqual(BUDGET);
    const shownLines = fitted.truncation!.lines!.shown;
    expect(fitted.text.startsWith(text.split("\n").slice(0, shownLines).join("\n"))).toBe(true);
    expect(fitted.text).toContain(`Showing the first ${shownLines} of 1,000 lines`);
    expect(fitted.text).toContain("pagination arguments (`page`, `per_page`)");
  });

  it("leaves short text alone", () => {
    expect(fitText("hello", { budget: BUDGET, tool: createTool([]) })).toEqual({ text: "hello" });
  });
});

describe("cutAtBoundary", () => {
  it.each([
    { title: "after a line end", text: "aaaa\nbbbb\ncccc", max: 12, want: "aaaa\nbbbb" },
    {
      title: "after a space when no line end is near",
      text: "word word word word",
      max: 17,
      want: "word word word ",
    },
    { title: "hard when there is no boundary", text: "x".repeat(30), max: 10, want: "x".repeat(10) },
    { title: "never inside a surrogate pair", text: "ab😀cd", max: 3, want: "ab" },
  ])("$title", ({ text, max, want }) => {
    expect(cutAtBoundary(text, max).text).toBe(want);
  });
});

describe("pagination", () => {
  it("finds pagination arguments by name, in the query and in the body", () => {
    const tool = createTool([query("page"), query("per_page"), query("q"), query("pageToken")], {
      http: {
        method: "post",
        path: "/search",
        parameters: [query("page"), query("per_page"), query("q"), query("pageToken")],
        body: {
          mediaType: "application/json",
          required: true,
          mode: "properties",
          kind: "json",
          properties: [
            { argument: "start_cursor", name: "start_cursor", shape: "primitive" },
            { argument: "filter", name: "filter", shape: "object" },
          ],
        },
        security: [],
        responses: [],
        accept: [],
      },
    });
    expect(findPaginationArguments(tool).map((p) => [p.argument, p.role])).toEqual([
      ["page", "page"],
      ["per_page", "size"],
      ["pageToken", "cursor"],
      ["start_cursor", "cursor"],
    ]);
  });

  it.each([
    { header: '<https://x/a?page=3>; rel="next"', want: "https://x/a?page=3" },
    {
      header: '<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; rel="next"',
      want: "https://x/a?page=3",
    },
    { header: "<https://x/a?p=1,2>; rel=next", want: "https://x/a?p=1,2" },
    { header: '<https://x/a?page=1>; rel="first"', want: undefined },
    { header: undefined, want: undefined },
  ])("parseNextLink($header)", ({ header, want }) => {
    expect(parseNextLink(header)).toBe(want);
  });

  it.each([
    {
      title: "Slack response_metadata.next_cursor",
      body: { ok: true, members: [], response_metadata: { next_cursor: "dXNlcjpVMEc5V0ZYTlo=" } },
      parameters: [query("cursor"), query("limit")],
      want: { cursor: "dXNlcjpVMEc5V0ZYTlo=" },
    },
    {
      title: "Google nextPageToken",
      body: { files: [], nextPageToken: "tok2" },
      parameters: [query("pageToken")],
      want: { pageToken: "tok2" },
    },
    {
      title: "a next URL in the body",
      body: { results: [], next: "https://api.example.org/things/?offset=40&limit=20" },
      parameters: [query("offset"), query("limit")],
      want: { offset: 40, limit: 20 },
    },
    {
      title: "JSON:API links.next",
      body: { data: [], links: { next: "/things?page%5Bnumber%5D=3" } },
      parameters: [query("page[number]", "page_number")],
      want: { page_number: 3 },
    },
    {
      title: "Notion has_more false: no next page",
      body: { results: [], has_more: false, next_cursor: null },
      parameters: [query("start_cursor")],
      want: undefined,
    },
  ])("findNextPage: $title", ({ body, parameters, want }) => {
    const next = findNextPage(createTool(parameters), {}, body);
    expect(next?.arguments).toEqual(want);
  });
});

describe("findMainArray", () => {
  it("picks the largest list one or two levels down", () => {
    expect(findMainArray({ a: [1], data: { children: [1, 2, 3, 4, 5] } })?.path).toEqual([
      "data",
      "children",
    ]);
    expect(findMainArray({ a: 1 })).toBeUndefined();
  });
});
