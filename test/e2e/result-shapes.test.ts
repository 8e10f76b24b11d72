/**
 * Every result shape a real SDK Client must accept (success, error, truncated, binary image,
 * other binary; for tools with and without outputSchema), against the recording loopback
 * upstream: the Client checks structuredContent against each tool's outputSchema on every call
 * and throws when it does not match, or when a successful result of such a tool has none. Also:
 * a 422 naming a flattened body field reports our argument name, and `--max-result-chars`
 * reaches the runtime through the CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeModel } from "../../src/model/types.js";
import { connectStdio, library, listAllTools, textOf } from "../helpers/bridge.js";
import {
  type RecordedRequest,
  sendBytes,
  sendJson,
  startUpstream,
  type Upstream,
} from "../helpers/upstream.js";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const SMALL_BIN = Buffer.from([0, 1, 2, 127, 128, 254, 255, 13, 10]);
const LARGE_BIN = Buffer.alloc(60_000, 0xab);

const pet = (i: number) => ({ id: i, name: `Pet number ${i}`, status: "available", notes: "n".repeat(60) });
/** 400 pets: ~40,000 characters of JSON, over the default budget of 25,000. */
const PETS = Array.from({ length: 400 }, (_, i) => pet(i + 1));
const NOTES = Array.from({ length: 3000 }, (_, i) => `note ${i}: likes walks`).join("\n");

const PET_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    status: { type: "string", enum: ["available", "sold"] },
    notes: { type: "string" },
  },
  required: ["id", "name"],
};

const json = (schema?: unknown) => ({ "application/json": schema === undefined ? {} : { schema } });
const problem = {
  description: "The request is invalid.",
  content: { "application/problem+json": { schema: { type: "object" } } },
};

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Result shapes", version: "1.0.0" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        parameters: [
          { name: "page", in: "query", schema: { type: "integer" } },
          { name: "per_page", in: "query", schema: { type: "integer" } },
          { name: "status", in: "query", schema: { type: "string" } },
        ],
        responses: {
          "200": {
            description: "Pets.",
            content: json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }),
          },
          "400": problem,
        },
      },
      post: {
        operationId: "createPet",
        security: [{ key: [] }],
        parameters: [
          { name: "name", in: "query", description: "Who is asking.", schema: { type: "string" } },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                properties: {
                  name: { type: "string" },
                  age: { type: "integer" },
                  owner: { type: "object", properties: { email: { type: "string" } } },
                },
              },
            },
          },
        },
        responses: {
          "201": { description: "Created.", content: json({ $ref: "#/components/schemas/Pet" }) },
          "422": problem,
        },
      },
    },
    "/search": {
      get: {
        operationId: "searchPets",
        parameters: [
          { name: "q", in: "query", schema: { type: "string" } },
          { name: "cursor", in: "query", schema: { type: "string" } },
          { name: "limit", in: "query", schema: { type: "integer" } },
        ],
        responses: {
          "200": {
            description: "Matches.",
            content: json({
              type: "object",
              properties: {
                total_count: { type: "integer" },
                items: { type: "array", items: { $ref: "#/components/schemas/Pet" } },
                next_cursor: { type: "string" },
              },
            }),
          },
        },
      },
    },
    "/pets/{id}": {
      get: {
        operationId: "getPet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: {
          "200": { description: "The pet.", content: json({ $ref: "#/components/schemas/Pet" }) },
          "404": { description: "No pet has this id." },
        },
      },
    },
    "/export": {
      get: {
        operationId: "exportPets",
        parameters: [{ name: "offset", in: "query", schema: { type: "integer" } }],
        responses: { "200": { description: "Everything, undocumented shape.", content: json() } },
      },
    },
    "/notes": {
      get: {
        operationId: "getNotes",
        responses: {
          "200": { description: "Notes.", content: { "text/plain": { schema: { type: "string" } } } },
        },
      },
    },
    "/pets/{id}/photo": {
      get: {
        operationId: "getPetPhoto",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "A photo.", content: { "image/png": {} } } },
      },
    },
    "/files/{name}": {
      get: {
        operationId: "downloadFile",
        parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "The file.", content: { "application/octet-stream": {} } } },
      },
    },
  },
  components: {
    schemas: { Pet: PET_SCHEMA },
    securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } },
  },
};

/** What the upstream answers for each operation; `errorBody` is the 422 of createPet. */
let errorBody: unknown = {};

function respond(req: RecordedRequest, res: ServerResponse): void {
  const path = req.rawPath;
  const query = new URLSearchParams(req.rawQuery);
  if (req.method === "GET" && path === "/pets") {
    if (query.get("status") === "bad") {
      const body = JSON.stringify({
        title: "Bad Request",
        detail: "unknown status",
        invalid_params: [{ name: "status", reason: "must be available or sold" }],
      });
      sendBytes(res, 400, "application/problem+json", body);
      return;
    }
    const page = Number(query.get("page") ?? "1");
    const body = Buffer.from(JSON.stringify(PETS));
    res.writeHead(200, {
      "content-type": "application/json",
      link: `<https://api.example.com/pets?page=${page + 1}&per_page=400>; rel="next"`,
    });
    res.end(body);
    return;
  }
  if (req.method === "POST" && path === "/pets") {
    const sent = req.json() as { name?: string };
    if (sent.name === "") {
      sendBytes(res, 422, "application/problem+json", JSON.stringify(errorBody));
      return;
    }
    sendJson(res, 201, { id: 7, name: sent.name });
    return;
  }
  if (path === "/search") {
    sendJson(res, 200, { total_count: 9000, items: PETS, next_cursor: "cur_2" });
    return;
  }
  if (path === "/pets/1") {
    sendJson(res, 200, pet(1));
    return;
  }
  if (path === "/pets/2") {
    // a photo where JSON was documented
    sendBytes(res, 200, "image/png", PNG);
    return;
  }
  if (path === "/pets/404") {
    sendBytes(res, 404, "application/json", JSON.stringify({ error: { message: "No pet 404" } }));
    return;
  }
  if (path === "/export") {
    sendJson(res, 200, PETS);
    return;
  }
  if (path === "/notes") {
    sendBytes(res, 200, "text/plain; charset=utf-8", NOTES);
    return;
  }
  if (path === "/pets/1/photo") {
    sendBytes(res, 200, "image/png", PNG);
    return;
  }
  if (path === "/files/small.bin") {
    sendBytes(res, 200, "application/octet-stream", SMALL_BIN);
    return;
  }
  if (path === "/files/large.bin") {
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-disposition": 'attachment; filename="large.bin"',
    });
    res.end(LARGE_BIN);
    return;
  }
  if (path === "/files/broken") {
    sendBytes(res, 500, "text/html", "<html><body><h1>Internal error</h1></body></html>");
    return;
  }
  sendJson(res, 599, { unexpected: `${req.method} ${req.rawUrl}` });
}

let upstream: Upstream;
let dir: string;
let specFile: string;
/** Planned with `outputSchemas: true`; `plainModel` with the default (no output schemas). */
let model: BridgeModel;
let plainModel: BridgeModel;

interface Session {
  tools: Tool[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A real Client connected in memory to the bridge with these runtime options. */
const API_KEY = "sekret-key-123";

async function connect(options: { maxResultChars?: number } = {}, planned = model): Promise<Session> {
  const { createBridgeServer } = await library();
  const server = createBridgeServer(planned, {
    baseUrl: upstream.url,
    auth: { key: API_KEY },
    env: {},
    ...options,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "result-shapes", version: "1.0.0" });
  await client.connect(clientTransport);
  // Listing primes the Client's outputSchema validators: from here on it checks every result.
  const tools = await listAllTools(client);
  return {
    tools,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

const TRUNCATED = "openapi-mcp-bridge/truncated";
const ERROR = "openapi-mcp-bridge/error";
const ajv = new Ajv2020({ strict: false });

beforeAll(async () => {
  upstream = await startUpstream(respond);
  dir = mkdtempSync(join(tmpdir(), "omb-result-shapes-"));
  specFile = join(dir, "openapi.json");
  writeFileSync(specFile, JSON.stringify(SPEC));
  const { buildModel } = await library();
  model = await buildModel(specFile, { cache: false, outputSchemas: true });
  plainModel = await buildModel(specFile, { cache: false });
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the SDK Client accepts every result shape (default budget of 25,000 characters)", () => {
  let session: Session;
  const tool = (name: string) => {
    const found = session.tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  /** The structured copy matches the advertised schema (the Client checked it too). */
  const expectValidStructured = (name: string, result: CallToolResult) => {
    const schema = tool(name).outputSchema;
    if (!schema || result.isError) return;
    const validate = ajv.compile(schema);
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
  };

  beforeAll(async () => {
    session = await connect();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("has the tools the table needs, with and without outputSchema", () => {
    expect(tool("listPets").outputSchema).toBeDefined();
    expect(tool("searchPets").outputSchema).toBeDefined();
    expect(tool("getPet").outputSchema).toBeDefined();
    expect(tool("createPet").outputSchema).toBeDefined();
    for (const name of ["exportPets", "getNotes", "getPetPhoto", "downloadFile"]) {
      expect(tool(name).outputSchema, name).toBeUndefined();
    }
    expect(Object.keys(tool("createPet").inputSchema.properties ?? {}).sort()).toEqual([
      "age",
      "name",
      "name__body",
      "owner",
    ]);
  });

  it.each([
    {
      shape: "success, with outputSchema",
      name: "getPet",
      args: { id: 1 },
      check: (r: CallToolResult) => {
        expect(r.isError ?? false).toBe(false);
        expect(r.structuredContent).toEqual(pet(1));
        expect(r._meta?.[TRUNCATED]).toBeUndefined();
      },
    },
    {
      shape: "success, without outputSchema",
      name: "downloadFile",
      args: { name: "small.bin" },
      check: (r: CallToolResult) => {
        expect(r.isError ?? false).toBe(false);
        const resource = r.content.find((c) => c.type === "resource") as
          | { resource: { blob?: string; mimeType?: string } }
          | undefined;
        expect(resource?.resource.mimeType).toBe("application/octet-stream");
        expect(Buffer.from(resource?.resource.blob ?? "", "base64").equals(SMALL_BIN)).toBe(true);
      },
    },
    {
      shape: "error, with outputSchema",
      name: "getPet",
      args: { id: 404 },
      check: (r: CallToolResult) => {
        expect(r.isError).toBe(true);
        expect(r.structuredContent).toBeUndefined();
        expect(textOf(r)).toContain("Not found: HTTP 404 Not Found from GET /pets/{id}.");
        expect(textOf(r)).toContain("The API says: No pet 404");
        expect(r._meta?.[ERROR]).toMatchObject({ category: "not_found", status: 404, message: "No pet 404" });
      },
    },
    {
      shape: "error, without outputSchema",
      name: "downloadFile",
      args: { name: "broken" },
      check: (r: CallToolResult) => {
        expect(r.isError).toBe(true);
        expect(textOf(r)).toContain("Upstream error: HTTP 500");
        expect(textOf(r)).toContain("Internal error");
      },
    },
    {
      shape: "truncated list (wrapped as {result}), with outputSchema",
      name: "listPets",
      args: { page: 1 },
      check: (r: CallToolResult) => {
        expect(r.isError ?? false).toBe(false);
        const text = textOf(r);
        expect(text.length).toBeLessThanOrEqual(25_000);
        const meta = r._meta?.[TRUNCATED] as {
          items: { shown: number; total: number };
          originalChars: number;
        };
        expect(meta).toMatchObject({ truncated: true, budget: 25_000, items: { total: 400 } });
        expect(meta.originalChars).toBe(JSON.stringify(PETS).length);
        const n = meta.items.shown;
        expect(n).toBeGreaterThan(100);
        expect(n).toBeLessThan(400);
        expect(r.structuredContent).toEqual({ result: PETS.slice(0, n) });
        expect(text).toContain(`Showing ${n} of 400 items`);
        expect(text).toContain(`call again with {"per_page":${n},"page":2}`);
      },
    },
    {
      shape: "truncated object with a nested list and a next cursor, with outputSchema",
      name: "searchPets",
      args: { q: "pet" },
      check: (r: CallToolResult) => {
        const structured = r.structuredContent as {
          total_count: number;
          items: unknown[];
          next_cursor: string;
        };
        expect(structured.total_count).toBe(9000);
        expect(structured.next_cursor).toBe("cur_2");
        const n = structured.items.length;
        expect(n).toBeLessThan(400);
        expect(r._meta?.[TRUNCATED]).toMatchObject({
          items: { path: "items", shown: n },
          next: { cursor: "cur_2", limit: n },
        });
        expect(textOf(r)).toContain("from the `next_cursor` field");
        expect(textOf(r).length).toBeLessThanOrEqual(25_000);
      },
    },
    {
      shape: "truncated JSON, without outputSchema (offset pagination)",
      name: "exportPets",
      args: { offset: 1000 },
      check: (r: CallToolResult) => {
        const meta = r._meta?.[TRUNCATED] as { items: { shown: number } } | undefined;
        const n = meta?.items.shown ?? -1;
        expect(r.structuredContent).toEqual({ result: PETS.slice(0, n) });
        expect(textOf(r)).toContain(`call again with {"offset":${1000 + n}}`);
      },
    },
    {
      shape: "truncated text, without outputSchema",
      name: "getNotes",
      args: {},
      check: (r: CallToolResult) => {
        const text = textOf(r);
        expect(text.length).toBeLessThanOrEqual(25_000);
        expect(text.startsWith("note 0: likes walks\nnote 1: likes walks\n")).toBe(true);
        expect(text).toMatch(
          /\nnote \d+: likes walks\n\[Truncated by the bridge: the answer has [\d,]+ characters/,
        );
        expect(r._meta?.[TRUNCATED]).toMatchObject({ lines: { total: 3000 } });
      },
    },
    {
      shape: "binary image, without outputSchema",
      name: "getPetPhoto",
      args: { id: 1 },
      check: (r: CallToolResult) => {
        const image = r.content.find((c) => c.type === "image") as { data: string; mimeType: string };
        expect(image.mimeType).toBe("image/png");
        expect(Buffer.from(image.data, "base64").equals(PNG)).toBe(true);
      },
    },
    {
      shape: "binary image, with outputSchema (the API broke its spec)",
      name: "getPet",
      args: { id: 2 },
      check: (r: CallToolResult) => {
        expect(r.isError).toBe(true);
        expect(textOf(r)).toContain("the answer is image/png");
        expect(r._meta?.[ERROR]).toMatchObject({ category: "unexpected_response" });
      },
    },
    {
      shape: "binary other over the inline size, without outputSchema: a link to read it",
      name: "downloadFile",
      args: { name: "large.bin" },
      check: (r: CallToolResult) => {
        expect(r.isError ?? false).toBe(false);
        expect(r.content.map((c) => c.type)).toEqual(["text", "resource_link"]);
        expect(textOf(r)).toContain('a file (application/octet-stream, file name "large.bin", 58.6 KiB)');
        expect(r.content[1]).toMatchObject({
          uri: expect.stringMatching(/^openapi-mcp-bridge:\/\/files\//),
          name: "large.bin",
          mimeType: "application/octet-stream",
          size: 60_000,
        });
        expect(r._meta?.[TRUNCATED]).toBeUndefined();
      },
    },
  ])("$shape: $name", async ({ name, args, check }) => {
    const result = await session.call(name, args);
    check(result);
    expectValidStructured(name, result);
  });

  it.each([
    {
      shape: "RFC 9457 errors with JSON pointers",
      body: {
        type: "https://example.net/validation-error",
        title: "Your request is not valid.",
        errors: [
          { detail: "must not be empty", pointer: "#/name" },
          { detail: "is not an email address", pointer: "#/owner/email" },
        ],
      },
    },
    {
      shape: "FastAPI detail with loc",
      body: {
        detail: [
          { type: "string_too_short", loc: ["body", "name"], msg: "must not be empty" },
          { type: "value_error", loc: ["body", "owner", "email"], msg: "is not an email address" },
        ],
      },
    },
    {
      shape: "Rails errors by field",
      body: { errors: { name: ["must not be empty"], "owner.email": ["is not an email address"] } },
    },
  ])(
    "a 422 naming the flattened body field `name` reports the argument `name__body` ($shape)",
    async ({ body }) => {
      errorBody = body;
      upstream.reset();
      const result = await session.call("createPet", { name: "caller", name__body: "" });
      expect(upstream.requests[0]?.json()).toEqual({ name: "" });
      expect(upstream.requests[0]?.rawQuery).toBe("name=caller");
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain("Invalid argument: HTTP 422 Unprocessable Entity from POST /pets.");
      expect(text).toContain("- Argument `name__body`: must not be empty");
      expect(text).toContain("- Argument `owner.email`: is not an email address");
      expect(text).not.toContain("Argument `name`:");
      const facts = result._meta?.[ERROR] as { fields: { argument?: string; message: string }[] };
      expect(facts.fields.map((f) => [f.argument, f.message])).toEqual([
        ["name__body", "must not be empty"],
        ["owner.email", "is not an email address"],
      ]);
    },
  );

  it("redacts a credential the API echoes in its field errors, also in _meta", async () => {
    errorBody = { errors: [{ pointer: "#/name", detail: `must not be empty (key ${API_KEY})` }] };
    const result = await session.call("createPet", { name__body: "" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("- Argument `name__body`: must not be empty (key [REDACTED])");
    expect(JSON.stringify(result)).not.toContain(API_KEY);
    const facts = result._meta?.[ERROR] as { fields: { message: string }[] };
    expect(facts.fields[0]?.message).toBe("must not be empty (key [REDACTED])");
  });

  it("maps a query parameter named in a 400 to its argument", async () => {
    const result = await session.call("listPets", { status: "bad" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("- Argument `status`: must be available or sold");
    expect(textOf(result)).toContain("The API says: Bad Request: unknown status");
  });

  it("keeps a 201 with outputSchema as it is", async () => {
    const result = await session.call("createPet", { name__body: "Rex" });
    expect(result.structuredContent).toEqual({ id: 7, name: "Rex" });
    expectValidStructured("createPet", result);
  });
});

describe("maxResultChars", () => {
  it("0 means no limit: the whole list, no marker", async () => {
    const session = await connect({ maxResultChars: 0 });
    try {
      const result = await session.call("listPets", {});
      expect(result.structuredContent).toEqual({ result: PETS });
      expect(textOf(result)).toBe(JSON.stringify(PETS));
      expect(result._meta?.[TRUNCATED]).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it("a smaller budget cuts smaller, and links binary it would otherwise embed", async () => {
    const session = await connect({ maxResultChars: 3000 });
    try {
      const list = await session.call("listPets", {});
      expect(textOf(list).length).toBeLessThanOrEqual(3000);
      expect((list.structuredContent as { result: unknown[] }).result.length).toBeLessThan(30);
      const file = await session.call("downloadFile", { name: "large.bin" });
      expect(file.content.map((c) => c.type)).toEqual(["text", "resource_link"]);
      expect(textOf(file).length).toBeLessThan(3000);
    } finally {
      await session.close();
    }
  });

  it("is set by `serve --max-result-chars N`", async () => {
    const bridge = await connectStdio(specFile, [
      "--base-url",
      upstream.url,
      "--max-result-chars",
      "2000",
      "--no-cache",
    ]);
    try {
      const result = await bridge.call("listPets", {});
      expect(textOf(result).length).toBeLessThanOrEqual(2000);
      expect(result._meta?.[TRUNCATED]).toMatchObject({ truncated: true, budget: 2000 });
    } finally {
      await bridge.close();
    }
  });
});

describe("without output schemas (the default), the SDK Client accepts every result shape", () => {
  let session: Session;

  beforeAll(async () => {
    session = await connect({}, plainModel);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("lists no output schema; JSON answers come as text, whole or cut, with the same data structured", async () => {
    expect(session.tools.filter((t) => t.outputSchema !== undefined)).toEqual([]);
    const one = await session.call("getPet", { id: 1 });
    expect(one.isError ?? false).toBe(false);
    expect(JSON.parse(textOf(one))).toEqual(pet(1));
    expect(one.structuredContent).toEqual(pet(1));
    const list = await session.call("listPets", { page: 1 });
    expect(list.isError ?? false).toBe(false);
    expect(textOf(list).length).toBeLessThanOrEqual(25_000);
    const meta = list._meta?.[TRUNCATED] as { items: { shown: number; total: number } };
    expect(meta).toMatchObject({ truncated: true, items: { total: 400 } });
    expect(list.structuredContent).toEqual({ result: PETS.slice(0, meta.items.shown) });
    expect(textOf(list)).toContain(`call again with {"per_page":${meta.items.shown},"page":2}`);
    const missing = await session.call("getPet", { id: 404 });
    expect(missing.isError).toBe(true);
    expect(missing._meta?.[ERROR]).toMatchObject({ category: "not_found", status: 404 });
  });
});
