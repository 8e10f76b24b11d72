/**
 * Arguments as the API means them and code mode's polish, end to end: the built CLI over stdio
 * and Streamable HTTP, real SDK clients, a recording upstream on 127.0.0.1.
 * - A required body property with a default (Graph's `@odata.type`), or a required query
 *   parameter with one (`api-version`), is no required argument and reaches the API with its
 *   default; properties the body schema allows beyond those it
 *   lists go as `extraProperties` and reach the API in the body.
 * - Code mode: a hyphenated operationId is `api.listPets` (and `api["list-pets"]`), signatures
 *   show enum values, a refused call is not counted as made, an argument in query and body
 *   says which is which.
 * - An operation whose schema does not compile (served with --no-validate) is said to be
 *   unavailable in search, describe and call, in every mode; a program calling it gets an
 *   error it can catch, and the server keeps serving.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  connectHttp,
  connectStdio,
  type HttpBridge,
  type SpawnedConnected,
  STACK_LINE,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { describeRequest, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const OK = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Directory", version: "1" },
  paths: {
    "/groups": {
      post: {
        operationId: "createGroup",
        summary: "Create a group",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/group" } } },
        },
        responses: OK,
      },
    },
    "/pets": {
      get: {
        operationId: "list-pets",
        summary: "List pets",
        parameters: [
          { name: "state", in: "query", schema: { $ref: "#/components/schemas/RepeatState" } },
          { name: "limit", in: "query", schema: { type: "integer" } },
          {
            name: "api-version",
            in: "query",
            required: true,
            schema: { type: "string", default: "2024-01-01" },
          },
        ],
        responses: OK,
      },
    },
    "/tracks": {
      put: {
        operationId: "saveTracks",
        summary: "Save tracks",
        parameters: [{ name: "ids", in: "query", schema: { type: "string" } }],
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { ids: { type: "array", items: { type: "string" } } } },
            },
          },
        },
        responses: OK,
      },
    },
    "/things": {
      get: {
        operationId: "listThings",
        summary: "List things",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: "fifty" } }],
        responses: OK,
      },
    },
  },
  components: {
    schemas: {
      entity: {
        type: "object",
        required: ["@odata.type"],
        properties: { id: { type: "string", readOnly: true }, "@odata.type": { type: "string" } },
      },
      group: {
        allOf: [
          { $ref: "#/components/schemas/entity" },
          {
            type: "object",
            required: ["@odata.type"],
            properties: {
              displayName: { type: "string" },
              "@odata.type": { type: "string", default: "#microsoft.graph.group" },
            },
            additionalProperties: { type: "object" },
          },
        ],
      },
      RepeatState: { type: "string", enum: ["track", "context", "off"] },
    },
  },
};

let upstream: Upstream;
let dir: string;
let spec: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, describeRequest(req)));
  dir = mkdtempSync(join(tmpdir(), "omb-args-"));
  spec = join(dir, "directory.json");
  writeFileSync(spec, JSON.stringify(SPEC));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => upstream.reset());

const sent = () => upstream.requests.map((r) => `${r.method} ${r.rawUrl} ${r.text()}`.trim());
const serveArgs = (mode: string) => [
  "--no-validate",
  "--no-cache",
  "--mode",
  mode,
  "--base-url",
  upstream.url,
];

function expectOk(result: CallToolResult): void {
  expect(result.isError ?? false, textOf(result)).toBe(false);
}

describe("tools mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(spec, serveArgs("tools"));
  });
  afterAll(async () => {
    await bridge.close();
  });

  it("@odata.type is optional and sent with its default; extra properties reach the body", async () => {
    const create = bridge.tools.find((t) => t.name === "createGroup")!;
    expect(create.inputSchema.required ?? []).not.toContain("@odata.type");
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual([
      "@odata.type",
      "displayName",
      "extraProperties",
    ]);
    expectOk(await bridge.call("createGroup", { displayName: "Team" }));
    expectOk(
      await bridge.call("createGroup", {
        displayName: "Team",
        extraProperties: { extension_abc_skills: { level: 3 } },
      }),
    );
    expect(sent()).toEqual([
      'POST /groups {"@odata.type":"#microsoft.graph.group","displayName":"Team"}',
      'POST /groups {"@odata.type":"#microsoft.graph.group","displayName":"Team","extension_abc_skills":{"level":3}}',
    ]);
    // The additionalProperties schema holds: a value that is no object is refused, nothing sent.
    upstream.reset();
    const wrong = await bridge.call("createGroup", { extraProperties: { extension_abc_skills: 3 } });
    expect(wrong.isError).toBe(true);
    expect(upstream.requests).toHaveLength(0);
  });

  it("ids in the query and in the body: each says which it is", () => {
    const save = bridge.tools.find((t) => t.name === "saveTracks")!;
    const properties = save.inputSchema.properties as Record<string, { description?: string }>;
    expect(properties.ids?.description).toBe(
      'Sent as the query parameter "ids"; the body property is `ids__body`.',
    );
    expect(properties.ids__body?.description).toBe(
      'Sent as the body property "ids"; the query parameter is `ids`.',
    );
  });

  it("the unusable operation is listed as unavailable with the reason; its call says so", async () => {
    const things = bridge.tools.find((t) => t.name === "listThings")!;
    expect(things.description).toMatch(/^Unavailable: .*\(maximum value must be \["number"\]\)/);
    const result = await bridge.call("listThings", { limit: 3 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /cannot be called through this bridge.*operator can correct the schema at \/paths\/~1things\/get/,
    );
    expect(upstream.requests).toHaveLength(0);
    expect(bridge.stderr()).not.toMatch(STACK_LINE);
  });
});

describe("code mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(spec, serveArgs("code"));
  });
  afterAll(async () => {
    await bridge.close();
  });

  it("search shows valid method names and enum values; the tool text tells no invalid JavaScript", async () => {
    const search = await bridge.call("search_operations", { query: "list pets" });
    const text = textOf(search);
    expect(text).toContain(
      'listPets(args?: { state?: "track" | "context" | "off"; limit?: number; "api-version"?: string })',
    );
    expect(text).not.toContain('"list-pets"(');
    const execute = bridge.tools.find((t) => t.name === "execute")!;
    expect(execute.description).toContain("`await api.<method>(args)`");
    const describe = textOf(await bridge.call("describe_operations", { names: ["list-pets"] }));
    expect(describe).toContain('also api["list-pets"]');
    expect(describe).toContain("listPets(args?:");
  });

  it("a program calls by identifier and original name, fills defaults, counts only calls sent", async () => {
    const result = await bridge.call("execute", {
      program: [
        'const a = await api.listPets({ state: "off" });',
        'const b = await api["list-pets"]({ limit: 2 });',
        'const c = await api.createGroup({ displayName: "T", extraProperties: { ext_x: { on: true } } });',
        "return [a.method, b.method, c.method];",
      ].join("\n"),
    });
    expectOk(result);
    expect(sent()).toEqual([
      "GET /pets?state=off&api-version=2024-01-01",
      "GET /pets?limit=2&api-version=2024-01-01",
      'POST /groups {"@odata.type":"#microsoft.graph.group","displayName":"T","ext_x":{"on":true}}',
    ]);
    upstream.reset();
    const refused = await bridge.call("execute", {
      program: 'await api.listPets({ state: "loop" }); return 1;',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      "The program made no API call. 1 call was refused before anything was sent (list-pets).",
    );
    expect(upstream.requests).toHaveLength(0);
  });

  it("a program calling the unusable operation gets an error it can catch; the server goes on", async () => {
    const search = textOf(await bridge.call("search_operations", { query: "list things" }));
    expect(search).toMatch(/List things \(unavailable: maximum value must be/);
    const describe = textOf(await bridge.call("describe_operations", { names: ["listThings"] }));
    expect(describe).toContain("Unavailable: the spec describes this operation's arguments");
    const caught = await bridge.call("execute", {
      program: "try { await api.listThings({ limit: 3 }); } catch (e) { return e.category; }",
    });
    expectOk(caught);
    expect(caught.structuredContent).toEqual({ result: "operation_unavailable" });
    for (let i = 0; i < 3; i++) {
      const uncaught = await bridge.call("execute", {
        program: "return await api.listThings({ limit: 3 });",
      });
      expect(uncaught.isError).toBe(true);
      expect(textOf(uncaught)).toMatch(/cannot be called through this bridge/);
    }
    expectOk(await bridge.call("execute", { program: "return (await api.listPets()).method;" }));
    expect(sent()).toEqual(["GET /pets?api-version=2024-01-01"]);
    expect(bridge.stderr()).not.toMatch(STACK_LINE);
  });
});

describe("discovery mode over HTTP", () => {
  let bridge: HttpBridge;
  beforeAll(async () => {
    bridge = await startHttpBridge(spec, serveArgs("discovery"));
  });
  afterAll(async () => {
    await bridge.stop();
  });

  it("search, describe and call of the unusable operation answer, saying why; the rest works", async () => {
    const session = await connectHttp(bridge);
    try {
      const search = textOf(await session.call("search_operations", { query: "list things" }));
      expect(search).toMatch(/listThings: GET \/things - List things \(unavailable: maximum value must be/);
      const describe = await session.call("describe_operations", { names: ["listThings"] });
      expectOk(describe);
      expect(textOf(describe)).toContain("Unavailable:");
      const call = await session.call("call_operation", { name: "listThings", arguments: { limit: 3 } });
      expect(call.isError).toBe(true);
      expect(textOf(call)).toMatch(/cannot be called through this bridge/);
      expectOk(
        await session.call("call_operation", { name: "createGroup", arguments: { displayName: "D" } }),
      );
      expect(sent()).toEqual(['POST /groups {"@odata.type":"#microsoft.graph.group","displayName":"D"}']);
    } finally {
      await session.close();
    }
    expect(bridge.stderr()).not.toMatch(STACK_LINE);
  });
});
