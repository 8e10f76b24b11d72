import { describe, expect, it } from "vitest";
import type { ParameterBindingNode, ParameterLocation, ParameterStyle } from "../../../../src/model/types.js";
import { ArgumentError } from "../../../../src/runtime/request/argument-error.js";
import {
  buildQueryString,
  fillPathTemplate,
  serializeCookieParameter,
  serializeHeaderParameter,
  serializePathParameter,
  serializeQueryParameter,
} from "../../../../src/runtime/request/params.js";

function bindParameter(
  where: ParameterLocation,
  style: ParameterStyle,
  explode: boolean,
  extra: Partial<ParameterBindingNode> = {},
): ParameterBindingNode {
  return {
    argument: "color",
    name: "color",
    in: where,
    required: where === "path",
    style,
    explode,
    allowReserved: false,
    shape: "primitive",
    ...extra,
  };
}

function catchArgumentError(run: () => unknown): ArgumentError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArgumentError) return error;
    throw error;
  }
  throw new Error("expected an ArgumentError");
}

// OpenAPI 3.1.1 §4.8.12.4 "Style Examples": color = "" | "blue" | [...] | {...}
const EMPTY = "";
const STRING = "blue";
const ARRAY = ["blue", "black", "brown"];
const OBJECT = { R: 100, G: 200, B: 150 };

interface StyleRow {
  style: ParameterStyle;
  explode: boolean;
  given: unknown;
  want: string;
}

function expandRows(
  style: ParameterStyle,
  explode: boolean,
  wants: [string | null, string | null, string | null, string | null],
): StyleRow[] {
  const values = [EMPTY, STRING, ARRAY, OBJECT];
  return wants.flatMap((want, index) =>
    want === null ? [] : [{ style, explode, given: values[index], want }],
  );
}

describe("serializePathParameter: OpenAPI style examples", () => {
  const rows: StyleRow[] = [
    ...expandRows("matrix", false, [
      ";color",
      ";color=blue",
      ";color=blue,black,brown",
      ";color=R,100,G,200,B,150",
    ]),
    ...expandRows("matrix", true, [
      ";color",
      ";color=blue",
      ";color=blue;color=black;color=brown",
      ";R=100;G=200;B=150",
    ]),
    ...expandRows("label", false, [null, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"]),
    ...expandRows("label", true, [null, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"]),
    ...expandRows("simple", false, [null, "blue", "blue,black,brown", "R,100,G,200,B,150"]),
    ...expandRows("simple", true, [null, "blue", "blue,black,brown", "R=100,G=200,B=150"]),
  ];

  it.each(rows)("$style explode=$explode $given → $want", ({ style, explode, given, want }) => {
    expect(serializePathParameter(bindParameter("path", style, explode), given)).toBe(want);
  });

  // The table's "." (label) and empty (simple) results would leave a dot segment or an empty
  // segment in the URL, so the path refuses them.
  it.each([
    { style: "label", explode: false },
    { style: "label", explode: true },
    { style: "simple", explode: false },
    { style: "simple", explode: true },
  ] as const)("$style explode=$explode refuses the empty string", ({ style, explode }) => {
    expect(
      catchArgumentError(() => serializePathParameter(bindParameter("path", style, explode), "")).argument,
    ).toBe("color");
  });
});

describe("serializePathParameter: percent-encoding", () => {
  it.each([
    { given: "../etc", want: "..%2Fetc" },
    { given: "a/b", want: "a%2Fb" },
    { given: "?x=1", want: "%3Fx%3D1" },
    { given: "#frag", want: "%23frag" },
    { given: "%2F", want: "%252F" },
    { given: "a b", want: "a%20b" },
    { given: "café ☕", want: "caf%C3%A9%20%E2%98%95" },
    { given: "😀", want: "%F0%9F%98%80" },
    { given: "!'()*", want: "%21%27%28%29%2A" },
    { given: ":@$&+,;=", want: "%3A%40%24%26%2B%2C%3B%3D" },
    { given: "-._~", want: "-._~" },
    { given: "...", want: "..." },
    { given: 42, want: "42" },
    { given: -1.5, want: "-1.5" },
    { given: true, want: "true" },
    { given: ["a,b", "c/d"], want: "a%2Cb,c%2Fd" },
    { given: { "k/1": "v;2" }, want: "k%2F1,v%3B2" },
  ])("simple $given → $want", ({ given, want }) => {
    expect(serializePathParameter(bindParameter("path", "simple", false), given)).toBe(want);
  });

  it("encodes the name in matrix style", () => {
    const binding = bindParameter("path", "matrix", false, { name: "a b" });
    expect(serializePathParameter(binding, "x")).toBe(";a%20b=x");
  });

  it("ignores allowReserved in the path", () => {
    const binding = bindParameter("path", "simple", false, { allowReserved: true });
    expect(serializePathParameter(binding, "a/b?c#d")).toBe("a%2Fb%3Fc%23d");
  });

  it("serialises content parameters as one encoded JSON value", () => {
    const binding = bindParameter("path", "simple", false, { contentType: "application/json" });
    expect(serializePathParameter(binding, { a: [1, "/"] })).toBe("%7B%22a%22%3A%5B1%2C%22%2F%22%5D%7D");
  });

  it.each([
    { style: "simple", explode: false, given: "." },
    { style: "simple", explode: false, given: ".." },
    { style: "simple", explode: false, given: [".."] },
    { style: "simple", explode: true, given: ["a", "."] },
    { style: "label", explode: false, given: "." },
    { style: "label", explode: true, given: ["", ""] },
    { style: "matrix", explode: false, given: ".." },
    { style: "simple", explode: false, given: null },
    { style: "simple", explode: false, given: undefined },
    { style: "simple", explode: false, given: [] },
    { style: "simple", explode: false, given: {} },
    { style: "simple", explode: false, given: Number.NaN },
  ] as const)("refuses $style explode=$explode $given", ({ style, explode, given }) => {
    const binding = bindParameter("path", style, explode, { argument: "colour__path" });
    expect(catchArgumentError(() => serializePathParameter(binding, given)).argument).toBe("colour__path");
  });
});

describe("fillPathTemplate", () => {
  const petId = bindParameter("path", "simple", false, { argument: "petId__path", name: "petId" });
  const format = bindParameter("path", "simple", false, { argument: "format", name: "format" });
  const color = bindParameter("path", "matrix", true, { shape: "array" });
  const query = bindParameter("query", "form", true, { argument: "petId__query", name: "petId" });

  it.each([
    { template: "/pets/{petId}", args: { petId__path: 42 }, want: "/pets/42" },
    { template: "/pets/{petId}", args: { petId__path: "../../admin" }, want: "/pets/..%2F..%2Fadmin" },
    {
      template: "/pets/{petId}.{format}",
      args: { petId__path: "a b", format: "json" },
      want: "/pets/a%20b.json",
    },
    { template: "/v1/pets:search/{petId}/", args: { petId__path: "x" }, want: "/v1/pets:search/x/" },
    { template: "/cars/{color}", args: { color: ["red", "blue"] }, want: "/cars/;color=red;color=blue" },
    { template: "/static", args: {}, want: "/static" },
  ])("$template with $args → $want", ({ template, args, want }) => {
    expect(fillPathTemplate(template, [query, petId, format, color], args)).toBe(want);
  });

  it("refuses a variable without a value", () => {
    expect(
      catchArgumentError(() => fillPathTemplate("/pets/{petId}", [petId], { petId__query: 1 })).argument,
    ).toBe("petId__path");
  });

  it("refuses a variable that no path parameter binds", () => {
    expect(
      catchArgumentError(() => fillPathTemplate("/pets/{petId}", [query], { petId__query: 1 })).argument,
    ).toBe("petId");
  });

  it("refuses a dot segment", () => {
    expect(() => fillPathTemplate("/files/{petId}", [petId], { petId__path: ".." })).toThrow(ArgumentError);
  });
});

describe("serializeQueryParameter: OpenAPI style examples", () => {
  const rows: StyleRow[] = [
    ...expandRows("form", false, [
      "color=",
      "color=blue",
      "color=blue,black,brown",
      "color=R,100,G,200,B,150",
    ]),
    ...expandRows("form", true, [
      "color=",
      "color=blue",
      "color=blue&color=black&color=brown",
      "R=100&G=200&B=150",
    ]),
    ...expandRows("spaceDelimited", false, [
      null,
      null,
      "color=blue%20black%20brown",
      "color=R%20100%20G%20200%20B%20150",
    ]),
    ...expandRows("pipeDelimited", false, [
      null,
      null,
      "color=blue%7Cblack%7Cbrown",
      "color=R%7C100%7CG%7C200%7CB%7C150",
    ]),
    ...expandRows("deepObject", true, [
      null,
      null,
      null,
      "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150",
    ]),
  ];

  it.each(rows)("$style explode=$explode $given → $want", ({ style, explode, given, want }) => {
    expect(serializeQueryParameter(bindParameter("query", style, explode), given)).toBe(want);
  });
});

describe("serializeQueryParameter: other cases", () => {
  it.each([
    { style: "tabDelimited", explode: false, given: ARRAY, want: "color=blue%09black%09brown" },
    { style: "spaceDelimited", explode: true, given: ARRAY, want: "color=blue&color=black&color=brown" },
    { style: "pipeDelimited", explode: true, given: OBJECT, want: "R=100&G=200&B=150" },
    { style: "form", explode: true, given: [], want: "" },
    { style: "form", explode: false, given: [], want: "" },
    { style: "form", explode: true, given: {}, want: "" },
    { style: "form", explode: true, given: null, want: "" },
    { style: "form", explode: true, given: undefined, want: "" },
    { style: "form", explode: true, given: [1, null, 2], want: "color=1&color=2" },
    { style: "form", explode: true, given: false, want: "color=false" },
    { style: "form", explode: true, given: 0.5, want: "color=0.5" },
    { style: "form", explode: true, given: [{ a: 1 }], want: "color=%7B%22a%22%3A1%7D" },
    { style: "form", explode: true, given: "a&b=c", want: "color=a%26b%3Dc" },
    { style: "form", explode: true, given: "#frag", want: "color=%23frag" },
    { style: "form", explode: true, given: "1+1 = 2", want: "color=1%2B1%20%3D%202" },
    { style: "form", explode: false, given: ["a,b", "c"], want: "color=a%2Cb,c" },
    { style: "form", explode: true, given: { "a b": "c&d" }, want: "a%20b=c%26d" },
    { style: "form", explode: true, given: "ü", want: "color=%C3%BC" },
    { style: "pipeDelimited", explode: false, given: ["a|b", "c"], want: "color=a%7Cb%7Cc" },
    {
      style: "deepObject",
      explode: true,
      given: { a: { b: { c: 1 } }, tags: ["x", "y"], skip: null, list: [{ k: 1 }] },
      want: "color%5Ba%5D%5Bb%5D%5Bc%5D=1&color%5Btags%5D%5B%5D=x&color%5Btags%5D%5B%5D=y&color%5Blist%5D%5B0%5D%5Bk%5D=1",
    },
    { style: "deepObject", explode: true, given: { "a]b": "[v]" }, want: "color%5Ba%5Db%5D=%5Bv%5D" },
    { style: "deepObject", explode: true, given: {}, want: "" },
    { style: "deepObject", explode: true, given: ["x", "y"], want: "color%5B%5D=x&color%5B%5D=y" },
    {
      style: "deepObject",
      explode: true,
      given: [{ type: "eu_vat", value: "1" }, null, { type: "gb_vat", value: "2" }],
      want: "color%5B0%5D%5Btype%5D=eu_vat&color%5B0%5D%5Bvalue%5D=1&color%5B1%5D%5Btype%5D=gb_vat&color%5B1%5D%5Bvalue%5D=2",
    },
    {
      style: "deepObject",
      explode: true,
      given: { m: [["a", "b"], "c"] },
      want: "color%5Bm%5D%5B0%5D%5B%5D=a&color%5Bm%5D%5B0%5D%5B%5D=b&color%5Bm%5D%5B1%5D=c",
    },
    { style: "deepObject", explode: true, given: [null], want: "" },
    { style: "deepObject", explode: true, given: "x", want: "color=x" },
  ] as const)("$style explode=$explode $given → $want", ({ style, explode, given, want }) => {
    expect(serializeQueryParameter(bindParameter("query", style, explode), given)).toBe(want);
  });

  it("encodes the name", () => {
    expect(serializeQueryParameter(bindParameter("query", "form", true, { name: "a=b&c" }), "x")).toBe(
      "a%3Db%26c=x",
    );
  });

  it.each([
    { given: "a/b?c:d@e", want: "color=a/b?c:d@e" },
    { given: "!$'()*,;", want: "color=!$'()*,;" },
    { given: "&=+#[]", want: "color=%26%3D%2B%23%5B%5D" },
    { given: "%2F%zz%", want: "color=%2F%25zz%25" },
    { given: "a b^é", want: "color=a%20b%5E%C3%A9" },
  ])("allowReserved $given → $want", ({ given, want }) => {
    const binding = bindParameter("query", "form", true, { allowReserved: true });
    expect(serializeQueryParameter(binding, given)).toBe(want);
  });

  it.each([
    {
      contentType: "application/json",
      given: { a: 1, b: "x y" },
      want: "color=%7B%22a%22%3A1%2C%22b%22%3A%22x%20y%22%7D",
    },
    { contentType: "application/vnd.api+json; charset=utf-8", given: "s", want: "color=%22s%22" },
    { contentType: "application/json", given: [1, 2], want: "color=%5B1%2C2%5D" },
    { contentType: "text/plain", given: "x y", want: "color=x%20y" },
    { contentType: "text/plain", given: 7, want: "color=7" },
    { contentType: "application/json", given: undefined, want: "" },
  ])("content $contentType $given → $want", ({ contentType, given, want }) => {
    expect(serializeQueryParameter(bindParameter("query", "form", true, { contentType }), given)).toBe(want);
  });
});

describe("buildQueryString", () => {
  const bindings = [
    bindParameter("query", "form", true, { argument: "limit", name: "limit" }),
    bindParameter("path", "simple", false, { argument: "id", name: "id" }),
    bindParameter("query", "form", true, { argument: "tags", name: "tag", shape: "array" }),
    bindParameter("query", "deepObject", true, { argument: "filter", name: "filter", shape: "object" }),
  ];

  it.each([
    { args: {}, want: "" },
    { args: { id: 3 }, want: "" },
    { args: { limit: 10, id: 3 }, want: "limit=10" },
    { args: { tags: ["a", "b"], limit: 10 }, want: "limit=10&tag=a&tag=b" },
    { args: { tags: [], filter: { x: 1 } }, want: "filter%5Bx%5D=1" },
  ])("$args → $want", ({ args, want }) => {
    expect(buildQueryString(bindings, args)).toBe(want);
  });
});

describe("serializeHeaderParameter", () => {
  const rows: StyleRow[] = [
    ...expandRows("simple", false, ["", "blue", "blue,black,brown", "R,100,G,200,B,150"]),
    ...expandRows("simple", true, ["", "blue", "blue,black,brown", "R=100,G=200,B=150"]),
  ];

  it.each(rows)("$style explode=$explode $given → $want", ({ style, explode, given, want }) => {
    expect(serializeHeaderParameter(bindParameter("header", style, explode), given)).toBe(want);
  });

  it.each([
    { given: "a/b?c#d %2F", want: "a/b?c#d %2F" },
    { given: 'W/"etag"', want: 'W/"etag"' },
    { given: "a\tb", want: "a\tb" },
    { given: "café", want: "caf%C3%A9" },
    { given: 12, want: "12" },
    { given: undefined, want: "" },
    { given: [], want: "" },
  ])("$given → $want", ({ given, want }) => {
    expect(serializeHeaderParameter(bindParameter("header", "simple", false), given)).toBe(want);
  });

  it("sends content parameters as raw JSON", () => {
    const binding = bindParameter("header", "simple", false, { contentType: "application/json" });
    expect(serializeHeaderParameter(binding, { a: "b c" })).toBe('{"a":"b c"}');
  });

  it.each(["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u0000b", "a\u007fb", ["ok", "x\r\ny"], { k: "v\n" }])(
    "refuses control characters in %j",
    (given) => {
      const binding = bindParameter("header", "simple", false, { argument: "X-Trace" });
      expect(catchArgumentError(() => serializeHeaderParameter(binding, given)).argument).toBe("X-Trace");
    },
  );
});

describe("serializeCookieParameter", () => {
  const rows: StyleRow[] = [
    ...expandRows("form", false, [
      "color=",
      "color=blue",
      "color=blue,black,brown",
      "color=R,100,G,200,B,150",
    ]),
    ...expandRows("form", true, [
      "color=",
      "color=blue",
      "color=blue; color=black; color=brown",
      "R=100; G=200; B=150",
    ]),
  ];

  it.each(rows)("$style explode=$explode $given → $want", ({ style, explode, given, want }) => {
    expect(serializeCookieParameter(bindParameter("cookie", style, explode), given)).toBe(want);
  });

  it.each([
    { given: "a; admin=true", want: "color=a%3B%20admin=true" },
    { given: "a,b", want: "color=a%2Cb" },
    { given: '"q"\\', want: "color=%22q%22%5C" },
    { given: "100%", want: "color=100%25" },
    { given: "é", want: "color=%C3%A9" },
    { given: "a\tb", want: "color=a%09b" },
    { given: "x/y?z=1&w#", want: "color=x/y?z=1&w#" },
    { given: ["a b", "c"], want: "color=a%20b,c" },
    { given: null, want: "" },
    { given: [], want: "" },
  ])("$given → $want", ({ given, want }) => {
    expect(serializeCookieParameter(bindParameter("cookie", "form", false), given)).toBe(want);
  });

  it("encodes a name that is not a token", () => {
    expect(serializeCookieParameter(bindParameter("cookie", "form", false, { name: "a b=" }), "x")).toBe(
      "a%20b%3D=x",
    );
  });

  it("serialises content parameters", () => {
    const binding = bindParameter("cookie", "form", false, { contentType: "application/json" });
    expect(serializeCookieParameter(binding, { a: "b c" })).toBe("color={%22a%22:%22b%20c%22}");
  });

  it.each(["a\r\nSet-Cookie: x=1", "a\nb", "a\rb", "a\u0000b", ["x", "y\n"]])("refuses %j", (given) => {
    const binding = bindParameter("cookie", "form", true, { argument: "session" });
    expect(catchArgumentError(() => serializeCookieParameter(binding, given)).argument).toBe("session");
  });
});
