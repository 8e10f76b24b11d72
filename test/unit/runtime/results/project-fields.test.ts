/**
 * Field projection: dotted paths with `[]` for each element keep only the named fields of an
 * answer, in its shape and key order; malformed paths are refused with what is wrong; paths
 * that match nothing are reported; the bridge's reserved argument names step aside for an
 * operation's own.
 */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import {
  describeUnmatched,
  parseFieldPaths,
  projectFields,
} from "../../../../src/runtime/results/project-fields.js";
import {
  nameResultArguments,
  takeResultArguments,
} from "../../../../src/runtime/results/result-arguments.js";

const credits = {
  id: 550,
  cast: [
    { id: 1, name: "Edward Norton", character: "Narrator", order: 0 },
    { id: 2, name: "Brad Pitt", character: "Tyler Durden", order: 1 },
  ],
  crew: [{ id: 7, name: "David Fincher", job: "Director", department: "Directing" }],
  meta: { total: 3, page: { number: 1, size: 20 } },
};

function project(value: unknown, paths: unknown) {
  const selection = parseFieldPaths(paths);
  if ("problem" in selection) throw new Error(selection.problem);
  return projectFields(value, selection);
}

describe("projectFields", () => {
  const cases: { name: string; value: unknown; paths: unknown; want: unknown; unmatched?: string[] }[] = [
    {
      name: "each element's fields, and a top-level field",
      value: credits,
      paths: ["crew[].name", "crew[].job", "id"],
      want: { id: 550, crew: [{ name: "David Fincher", job: "Director" }] },
    },
    {
      name: "a key applied to a list applies to each element",
      value: credits,
      paths: ["cast.name"],
      want: { cast: [{ name: "Edward Norton" }, { name: "Brad Pitt" }] },
    },
    {
      name: "a whole subtree, and a nested field",
      value: credits,
      paths: ["meta.page", "crew"],
      want: { crew: credits.crew, meta: { page: { number: 1, size: 20 } } },
    },
    {
      name: "a root list",
      value: [{ a: 1, b: 2 }, { a: 3 }],
      paths: ["[].a"],
      want: [{ a: 1 }, { a: 3 }],
    },
    {
      name: "one element by index",
      value: { items: [{ a: 1 }, { a: 2 }, { a: 3 }] },
      paths: ["items[1].a"],
      want: { items: [{ a: 2 }] },
    },
    {
      name: "comma-separated text, as some clients send lists",
      value: credits,
      paths: "id, meta.total",
      want: { id: 550, meta: { total: 3 } },
    },
    {
      name: "a list as JSON text",
      value: credits,
      paths: '["id"]',
      want: { id: 550 },
    },
    {
      name: "groups, as describe's returns writes them",
      value: credits,
      paths: "crew[]{name, job}, id",
      want: { id: 550, crew: [{ name: "David Fincher", job: "Director" }] },
    },
    {
      name: "a group in a list of paths, nested groups",
      value: credits,
      paths: ["cast[]{name}", "meta{page{size}}"],
      want: { cast: [{ name: "Edward Norton" }, { name: "Brad Pitt" }], meta: { page: { size: 20 } } },
    },
    {
      name: "a returns text copied whole: its elisions select nothing",
      value: credits,
      paths: "{id, crew[]{name, +2 links}, meta{total, …}, …}",
      want: { id: 550, crew: [{ name: "David Fincher" }], meta: { total: 3 } },
    },
    {
      name: "a group that names nothing is the whole field",
      value: credits,
      paths: "meta{+2 more}",
      want: { meta: credits.meta },
    },
    {
      name: "a root list's paths as text, and as a group",
      value: [{ a: 1, b: 2 }, { a: 3 }],
      paths: "[]{a}, [].b",
      want: [{ a: 1, b: 2 }, { a: 3 }],
    },
    {
      name: "paths that match nothing are reported, the others kept",
      value: credits,
      paths: ["id", "budget", "crew[].salary"],
      want: { id: 550 },
      unmatched: ["budget", "crew[].salary"],
    },
    {
      name: "nothing matched: an empty object of the same kind",
      value: credits,
      paths: ["nope"],
      want: {},
      unmatched: ["nope"],
    },
  ];
  it.each(cases)("$name", ({ value, paths, want, unmatched }) => {
    const projected = project(value, paths);
    expect(projected.value).toEqual(want);
    expect(projected.unmatched).toEqual(unmatched ?? []);
  });

  it("keeps the answer's key order, not the order of the paths", () => {
    expect(Object.keys(project(credits, ["meta", "id"]).value as object)).toEqual(["id", "meta"]);
  });

  it("says which fields an answer has when a path matched nothing", () => {
    expect(describeUnmatched(["budget"], credits)).toBe(
      '[Fields: "budget" matched nothing in this answer; its top-level fields: id, cast, crew, meta.]',
    );
  });
});

describe("parseFieldPaths refuses malformed paths with what is wrong", () => {
  const cases: [unknown, RegExp][] = [
    [[], /non-empty list/],
    [[""], /is empty/],
    [["a..b"], /empty name before the "\."/],
    [[".a"], /empty name/],
    [["a."], /ends with a dot/],
    [["a[b]"], /only nothing \(each element\) or an index/],
    [["a[0"], /never closed/],
    [["a]"], /without its "\["/],
    [["a[]b"], /needs a "\." before the name/],
    [[7], /strings only/],
    [{ a: 1 }, /non-empty list/],
    ["[not json", /"\[" at 1 that is never closed/],
    ["a{b", /"\{" at 2 that is never closed/],
    ["a}b", /"\}" at 2 without its "\{"/],
    [["a{b}c"], /"c" after a group's "\}" at 5/],
    [`${"a{".repeat(40)}b${"}".repeat(40)}`, /nested deeper than 32/],
    [`x{${"a,".repeat(200_000)}}`, /more than 100 paths/],
    [Array.from({ length: 50_000 }, () => "x{a, b}"), /at most 100/],
    [Array.from({ length: 101 }, (_, i) => `f${i}`), /at most 100/],
    [["x".repeat(301)], /longer than 300/],
  ];
  it.each(cases)("%j", (paths, problem) => {
    const parsed = parseFieldPaths(paths);
    expect("problem" in parsed && parsed.problem).toMatch(problem);
  });
});

describe("the reserved argument names", () => {
  const tool = (properties: Record<string, unknown>) =>
    ({ name: "t", inputSchema: { type: "object", properties } }) as unknown as ToolNode;

  it.each([
    [{}, { fields: "_fields", continue: "_continue" }],
    [{ fields: {} }, { fields: "_fields", continue: "_continue" }],
    [{ _fields: {} }, { fields: "__fields", continue: "_continue" }],
    [
      { _fields: {}, __fields: {}, _continue: {} },
      { fields: "___fields", continue: "__continue" },
    ],
  ])("operation arguments %j: %j", (properties, want) => {
    expect(nameResultArguments(tool(properties))).toEqual(want);
  });

  it("takes the bridge's own out and leaves the operation's own as they are", () => {
    const names = nameResultArguments(tool({ _fields: {} }));
    expect(takeResultArguments(names, { _fields: "mine", __fields: ["a"], id: 1 })).toEqual({
      args: { _fields: "mine", id: 1 },
      fields: ["a"],
    });
    expect(takeResultArguments(names, { id: 1 })).toEqual({ args: { id: 1 } });
  });
});
