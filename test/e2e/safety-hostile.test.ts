/**
 * Hostile input: arguments that try to leave the path, inject headers, smuggle `__proto__`, or
 * are huge; specs whose servers point at other schemes or other hosts, network `$ref`s,
 * billion-laughs YAML, extremely deep or wide schemas, 20,000 operations. A second loopback
 * server stands in for "elsewhere": whatever the arguments and the spec say, it never gets a
 * request.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildModel } from "../../src/generator/compile/build-model.js";
import type { BridgeModel } from "../../src/model/types.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, errorMeta, type InMemoryBridge, planSpec, textOf } from "./safety-support.js";

let api: Upstream;
let elsewhere: Upstream;
let bridge: InMemoryBridge;
const dir = mkdtempSync(join(tmpdir(), "omb-hostile-"));

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const str = { type: "string" };

function hostileSpec(): Record<string, unknown> {
  const away = `${elsewhere.url}/stolen`;
  return {
    // Every server the spec names is "elsewhere"; the bridge is configured with --base-url.
    servers: [{ url: away }],
    paths: {
      "/files/{name}": {
        servers: [{ url: away }],
        get: {
          operationId: "getFile",
          servers: [{ url: away }],
          parameters: [
            { name: "name", in: "path", required: true, schema: str },
            { name: "q", in: "query", schema: str },
            { name: "X-Note", in: "header", schema: str },
            { name: "session", in: "cookie", schema: str },
          ],
          responses: ok,
        },
      },
      "/nested/{a}/{b}": {
        get: {
          operationId: "getNested",
          parameters: [
            { name: "a", in: "path", required: true, schema: str },
            { name: "b", in: "path", required: true, schema: { type: "array", items: str } },
          ],
          responses: ok,
        },
      },
      "/echo": {
        post: {
          operationId: "echoBody",
          requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
          responses: ok,
        },
      },
      "/typed": {
        post: {
          operationId: "typedBody",
          requestBody: {
            content: {
              "application/json": {
                schema: { type: "object", properties: { name: str, tags: { type: "array", items: str } } },
              },
            },
          },
          responses: ok,
        },
      },
    },
  };
}

beforeAll(async () => {
  api = await startUpstream((req, res) => sendJson(res, 200, { path: req.rawPath, query: req.rawQuery }));
  elsewhere = await startUpstream((_req, res) => sendJson(res, 200, { stolen: true }));
  bridge = await connectRuntime(planSpec(hostileSpec()), {
    baseUrl: api.url,
    env: {},
    retry: { retries: 2, baseDelayMs: 1 },
  });
});
afterAll(async () => {
  await bridge.close();
  // The point of the whole file: nothing, from any test, reached the other host.
  expect(elsewhere.requests.map((r) => r.rawUrl)).toEqual([]);
  await api.close();
  await elsewhere.close();
});
beforeEach(() => {
  api.reset();
});

describe("arguments that try to leave the path", () => {
  it.each([".", ".."])("%s as a whole path segment is refused, nothing sent", async (name) => {
    const result = await bridge.call("getFile", { name });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`"${name}" is not allowed in the path parameter "name"`);
    expect(errorMeta(result)?.category).toBe("invalid_argument");
    expect(api.requests).toHaveLength(0);
  });

  it.each([
    ["../admin", "/files/..%2Fadmin"],
    ["a/b", "/files/a%2Fb"],
    ["a%2Fb", "/files/a%252Fb"],
    ["%2e%2e", "/files/%252e%252e"],
    [".%2E", "/files/.%252E"],
    ["...", "/files/..."],
    ["/etc/passwd", "/files/%2Fetc%2Fpasswd"],
    ["..\\..\\windows", "/files/..%5C..%5Cwindows"],
    ["x?admin=1#frag", "/files/x%3Fadmin%3D1%23frag"],
    ["http://127.0.0.1:1/x", "/files/http%3A%2F%2F127.0.0.1%3A1%2Fx"],
    ["//evil.example/x", "/files/%2F%2Fevil.example%2Fx"],
    ["%00", "/files/%2500"],
    ["\u0000nul", "/files/%00nul"],
  ])("%j stays inside one segment: %s", async (name, want) => {
    const result = await bridge.call("getFile", { name });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(api.requests.map((r) => r.rawPath)).toEqual([want]);
  });

  it("array and multi-parameter paths cannot add segments either", async () => {
    await bridge.call("getNested", { a: "../../x", b: ["../y", "/", "ok"] });
    expect(api.requests).toHaveLength(1);
    const path = api.requests[0]!.rawPath;
    expect(path.startsWith("/nested/")).toBe(true);
    expect(path.split("/")).toHaveLength(4);
  });

  it("an absolute URL in a query argument is only a value", async () => {
    await bridge.call("getFile", { name: "n", q: `${elsewhere.url}/x?y=1` });
    expect(api.requests[0]!.queryPairs()).toEqual([["q", `${elsewhere.url}/x?y=1`]]);
  });
});

describe("header and cookie injection", () => {
  it.each(["a\r\nX-Injected: 1", "a\nX-Injected: 1", "a\rb", "a\u0000b"])(
    "a header value %j is refused",
    async (note) => {
      const result = await bridge.call("getFile", { name: "n", "X-Note": note });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("cannot contain control character");
      expect(api.requests).toHaveLength(0);
    },
  );

  it("a cookie value cannot add a cookie or a header", async () => {
    const result = await bridge.call("getFile", { name: "n", session: "abc; admin=true" });
    if (result.isError) expect(api.requests).toHaveLength(0);
    else expect(api.requests[0]!.cookies().map(([k]) => k)).toEqual(["session"]);
    const crlf = await bridge.call("getFile", { name: "n", session: "a\r\nX-Injected: 1" });
    expect(crlf.isError).toBe(true);
    for (const req of api.requests) expect(req.header("x-injected")).toBeUndefined();
  });
});

describe("__proto__ and constructor keys", () => {
  it("are refused as top-level arguments (the schema allows no extra properties)", async () => {
    const args = JSON.parse(
      '{"name": "n", "__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
    );
    const result = await bridge.call("getFile", args);
    expect(result.isError).toBe(true);
    expect(api.requests).toHaveLength(0);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("are refused inside a free-form body too, naming them, polluting nothing", async () => {
    const body = JSON.parse(
      '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}, "ok": 1}',
    );
    const result = await bridge.call("echoBody", { body });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('body.__proto__: property name "__proto__" is not allowed');
    expect(textOf(result)).toContain('body.constructor: property name "constructor" is not allowed');
    expect(api.requests).toHaveLength(0);
    expect(({} as Record<string, unknown>)["isAdmin"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
});

describe("huge arguments", () => {
  it("a 2 MB body argument is sent whole, and a 2 MB query value gets the API's refusal, both as results", async () => {
    const big = "x".repeat(2 * 1024 * 1024);
    const sent = await bridge.call("typedBody", { name: big });
    expect(sent.isError ?? false).toBe(false);
    expect(api.requests[0]!.body.length).toBeGreaterThan(2 * 1024 * 1024);
    const refused = await bridge.call("getFile", { name: "n", q: big });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/HTTP 431|connection to the API failed/);
  });

  it("an array of 100,000 items and a body nested 2,000 levels deep are handled", async () => {
    const tags = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
    expect((await bridge.call("typedBody", { name: "n", tags })).isError ?? false).toBe(false);
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 2000; i++) deep = { d: deep };
    const result = await bridge.call("echoBody", { body: deep });
    expect(typeof (result.isError ?? false)).toBe("boolean");
    expect((await bridge.call("getFile", { name: "still-alive" })).isError ?? false).toBe(false);
  });
});

describe("specs that point elsewhere", () => {
  it.each([
    "file:///etc/passwd",
    "ftp://127.0.0.1/x",
    "gopher://127.0.0.1:70/x",
    "data:text/plain,hi",
    "javascript:alert(1)",
    "ws://127.0.0.1/x",
    "/relative/only",
  ])("a server URL %s gives a configuration error and sends nothing", async (url) => {
    const model = planSpec({
      servers: [{ url }],
      paths: { "/x": { get: { operationId: "x", responses: ok } } },
    });
    const b = await connectRuntime(model, { env: {} });
    try {
      const result = await b.call("x");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Configuration error: the server URL/);
      expect(api.requests).toHaveLength(0);
    } finally {
      await b.close();
    }
  });

  it("document, path and operation servers naming another host are all overridden by --base-url", async () => {
    await bridge.call("getFile", { name: "n" });
    expect(api.requests.map((r) => r.rawPath)).toEqual(["/files/n"]);
  });

  it("a network $ref is refused while loading and fetches nothing", async () => {
    const file = join(dir, "network-ref.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "T", version: "1" },
        paths: {
          "/x": {
            get: {
              operationId: "x",
              responses: {
                "200": {
                  description: "OK",
                  content: { "application/json": { schema: { $ref: `${elsewhere.url}/schema.json` } } },
                },
              },
            },
          },
        },
      }),
    );
    await expect(buildModel(file)).rejects.toThrow(/OMB_REF_NETWORK|network/i);
  });

  it("billion-laughs YAML is refused while loading", async () => {
    const lines = [
      "openapi: 3.1.0",
      'info: {title: T, version: "1"}',
      "x-bomb:",
      '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ];
    let previous = "a";
    for (const name of ["b", "c", "d", "e", "f", "g", "h", "i"]) {
      lines.push(
        `  ${name}: &${name} [*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous}]`,
      );
      previous = name;
    }
    lines.push("paths: {}");
    const file = join(dir, "bomb.yaml");
    writeFileSync(file, `${lines.join("\n")}\n`);
    await expect(buildModel(file)).rejects.toThrow();
  });
});

describe("extreme specs", () => {
  it("a schema nested 500 levels deep and one with 5,000 properties plan and serve", async () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 500; i++) deep = { type: "object", properties: { d: deep } };
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) wide[`p${i}`] = { type: "integer" };
    const model = planSpec({
      servers: [{ url: api.url }],
      paths: {
        "/deep": {
          post: {
            operationId: "deep",
            requestBody: {
              content: { "application/json": { schema: { type: "object", properties: { root: deep } } } },
            },
            responses: ok,
          },
        },
        "/wide": {
          post: {
            operationId: "wide",
            requestBody: {
              content: { "application/json": { schema: { type: "object", properties: wide } } },
            },
            responses: ok,
          },
        },
      },
    });
    // Tools mode: what is tested is these tools as tools (auto would serve discovery: 5,000 properties).
    const b = await connectRuntime(model, { env: {}, mode: "tools" });
    try {
      const listed = await b.client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(["deep", "wide"]);
      // 5,000 properties (an inline body schema: no extraProperties argument).
      expect(Object.keys((listed.tools[1]!.inputSchema.properties ?? {}) as object)).toHaveLength(5000);
      expect((await b.call("wide", { p1: 1, p4999: 2 })).isError ?? false).toBe(false);
      expect(api.requests[0]!.json()).toEqual({ p1: 1, p4999: 2 });
      const refused = await b.call("wide", { p1: "not a number" });
      expect(refused.isError).toBe(true);
      const result = await b.call("deep", { root: { d: { d: {} } } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
    } finally {
      await b.close();
    }
  });

  it("20,000 operations: planned, listed in pages, any one callable", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) {
      paths[`/r${i}/{id}`] = {
        get: {
          operationId: `op${i}`,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          // No response schema: the SDK client would compile 20,000 output schemas on tools/list.
          responses: { "200": { description: "OK" } },
        },
      };
    }
    const model: BridgeModel = planSpec({ servers: [{ url: api.url }], paths });
    expect(model.tools).toHaveLength(20_000);
    const b = await connectRuntime(model, { env: {}, pageBytes: 1024 * 1024, mode: "tools" });
    try {
      let cursor: string | undefined;
      let count = 0;
      let pages = 0;
      do {
        const page = await b.client.listTools(cursor === undefined ? {} : { cursor });
        count += page.tools.length;
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < 1000);
      expect(count).toBe(20_000);
      expect(pages).toBeGreaterThan(1);
      expect((await b.call("op19999", { id: 7 })).isError ?? false).toBe(false);
      expect(api.requests.map((r) => r.rawPath)).toEqual(["/r19999/7"]);
    } finally {
      await b.close();
    }
    // Auto serves them as discovery: three tools, and any operation found and called.
    api.reset();
    const d = await connectRuntime(model, { env: {} });
    try {
      const listed = await d.client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual([
        "search_operations",
        "describe_operations",
        "call_operation",
      ]);
      const found = await d.call("search_operations", { query: "op19999" });
      expect((found.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe("op19999");
      const called = await d.call("call_operation", { name: "op19999", arguments: { id: 8 } });
      expect(called.isError ?? false).toBe(false);
      expect(api.requests.map((r) => r.rawPath)).toEqual(["/r19999/8"]);
    } finally {
      await d.close();
    }
  });
});

describe("elsewhere", () => {
  it("received no request from any test above", () => {
    expect(elsewhere.requests.map((r) => r.rawUrl)).toEqual([]);
  });
});
