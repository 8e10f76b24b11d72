import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { showsRecords, toPageFacts } from "../../../../src/runtime/apps/result-view.js";

function tool(
  overrides: Partial<ToolNode> & { path?: string; query?: string[]; method?: string } = {},
): ToolNode {
  const { path = "/pets", query = [], method = "get", ...rest } = overrides;
  return {
    name: "listPets",
    http: {
      method,
      path,
      parameters: query.map((name) => ({ argument: name, name, in: "query" })),
      responses: [{ status: "200", description: "", mediaTypes: ["application/json"] }],
    },
    ...rest,
  } as unknown as ToolNode;
}

const objects = { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } };

describe("which tools point at the result view", () => {
  it.each([
    {
      given: "an output schema wrapping a list of objects",
      tool: tool({ outputSchema: { type: "object", properties: { result: objects } }, outputWrapped: true }),
      want: true,
    },
    {
      given: "an object holding a list of objects",
      tool: tool({
        outputSchema: { type: "object", properties: { items: objects, total: { type: "integer" } } },
      }),
      want: true,
    },
    {
      given: "an object without a list",
      tool: tool({ outputSchema: { type: "object", properties: { id: { type: "integer" } } } }),
      want: false,
    },
    {
      given: "a list of strings",
      tool: tool({
        outputSchema: {
          type: "object",
          properties: { result: { type: "array", items: { type: "string" } } },
        },
        outputWrapped: true,
      }),
      want: false,
    },
    { given: "no schema: a GET of a collection", tool: tool(), want: true },
    { given: "no schema: a GET of one item", tool: tool({ path: "/pets/{id}" }), want: false },
    {
      given: "no schema: a GET of one item that pages",
      tool: tool({ path: "/pets/{id}", query: ["page"] }),
      want: true,
    },
    { given: "no schema: a POST", tool: tool({ method: "post" }), want: false },
  ])("$given → $want", ({ tool: node, want }) => {
    expect(showsRecords(node)).toBe(want);
  });
});

describe("the paging facts of an answer", () => {
  const rows = [{ id: 1 }, { id: 2 }];
  it.each([
    {
      given: "a page argument",
      tool: tool({ query: ["page", "limit"] }),
      args: { limit: 2 },
      headers: {},
      body: rows,
      next: { limit: 2, page: 2 },
    },
    {
      given: "an offset and a size",
      tool: tool({ query: ["offset", "limit"] }),
      args: { offset: 4, limit: 2 },
      headers: {},
      body: rows,
      next: { offset: 6, limit: 2 },
    },
    {
      given: "a Link header",
      tool: tool({ query: ["cursor"] }),
      args: {},
      headers: { link: '</pets?cursor=abc>; rel="next"' },
      body: rows,
      next: { cursor: "abc" },
    },
    {
      given: "an empty page",
      tool: tool({ query: ["page"] }),
      args: { page: 3 },
      headers: {},
      body: [],
      next: undefined,
    },
    { given: "nothing to page with", tool: tool(), args: {}, headers: {}, body: rows, next: undefined },
  ])("$given → next $next", ({ tool: node, args, headers, body, next }) => {
    const facts = toPageFacts(node, args, headers as Record<string, string>, body);
    expect(facts).toMatchObject({ tool: "listPets", arguments: args });
    expect(facts.next).toEqual(next);
  });
});
