/**
 * Discovery mode on the runtime itself (no transport): what search_operations,
 * describe_operations and call_operation answer, and that call_operation is the operation's
 * own call: the same validation text, access control, confirmation, audit line and result as
 * the operation's tool in tools mode. The same through real SDK clients over stdio and HTTP is
 * test/e2e/discovery-mode.test.ts.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../../src/runtime/audit/audit-log.js";
import type { BridgeOptions } from "../../../../src/runtime/engine/bridge-options.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { toListedTool } from "../../../../src/runtime/server/tool-list.js";
import { errorMeta, planSpec, TOY_PATHS, textOf } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;
const model = planSpec({ info: { title: "Toy", version: "1" }, paths: TOY_PATHS });

beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, { method: req.method, path: req.rawPath }));
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

function discovery(options: BridgeOptions = {}) {
  return createBridgeRuntime(model, { env: {}, baseUrl: upstream.url, mode: "discovery", ...options });
}

interface Results {
  results: { name: string; method: string; path: string; summary: string }[];
}

async function search(args: Record<string, unknown>, options: BridgeOptions = {}): Promise<CallToolResult> {
  const runtime = discovery(options);
  try {
    return await runtime.callTool("search_operations", args);
  } finally {
    await runtime.close();
  }
}

describe("search_operations", () => {
  it("finds the obvious operation, best first, with the method upper-case and the path template", async () => {
    const result = await search({ query: "delete a pet" });
    expect(result.isError ?? false).toBe(false);
    const { results } = result.structuredContent as unknown as Results;
    expect(results.map((r) => r.name)).toContain("deletePet");
    const hit = results.find((r) => r.name === "deletePet")!;
    expect(hit).toEqual({
      name: "deletePet",
      method: "DELETE",
      path: "/pets/{id}",
      summary: expect.any(String),
    });
    // The same as text, one line a result, in the same order.
    const lines = textOf(result)
      .split("\n")
      .filter((line) => line.startsWith("- "));
    expect(lines.map((line) => line.slice(2, line.indexOf(":")))).toEqual(results.map((r) => r.name));
    expect(textOf(result)).toContain("- deletePet: DELETE /pets/{id}");
  });

  it("is deterministic", async () => {
    expect(await search({ query: "pet inventory store" })).toEqual(
      await search({ query: "pet inventory store" }),
    );
  });

  it.each<[string, Record<string, unknown>, (names: string[]) => void]>([
    ["limit", { query: "pet", limit: 2 }, (names) => expect(names).toHaveLength(2)],
    ["limit as text (coerced)", { query: "pet", limit: "1" }, (names) => expect(names).toHaveLength(1)],
    [
      "tag",
      { query: "delete", tag: "ADMIN" },
      (names) => expect(names.sort()).toEqual(["deletePet", "deleteUser"]),
    ],
    [
      "method",
      { query: "pet", method: "get" },
      (names) => expect(names.sort()).toEqual(["getPet", "listPets"]),
    ],
    [
      "readOnly",
      { query: "pet", readOnly: true },
      (names) => expect(names.every((n) => ["listPets", "getPet", "headPet"].includes(n))).toBe(true),
    ],
  ])("filters by %s", async (_label, args, check) => {
    const result = await search(args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    check((result.structuredContent as unknown as Results).results.map((r) => r.name));
  });

  it("searches only what the selection serves", async () => {
    const result = await search({ query: "delete pet user", limit: 50 }, { access: { readOnly: true } });
    const names = (result.structuredContent as unknown as Results).results.map((r) => r.name);
    expect(names).not.toContain("deletePet");
    expect(names).not.toContain("deleteUser");
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["no query", {}, /^Invalid arguments for tool search_operations:\n- query: /],
    ["a limit over 50", { query: "pet", limit: 51 }, /- limit: .*50/],
    ["an unknown method", { query: "pet", method: "FETCH" }, /- method: must be an HTTP method: GET, PUT/],
    ["an unknown argument", { query: "pet", color: "red" }, /- color: /],
    [
      "a query longer than a task (1,000 characters)",
      { query: "pet ".repeat(1_000_000) },
      /- query: is 4,000,000 characters; at most 1,000: say what you want to do in a few words/,
    ],
  ])("refuses %s as invalid arguments", async (_label, args, want) => {
    const result = await search(args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(want);
    expect(errorMeta(result)?.category).toBe("invalid_argument");
  });

  it("says when nothing matches, and suggests broader words and the tags", async () => {
    const result = await search({ query: "quantum flux capacitor" });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ results: [] });
    expect(textOf(result)).toContain('No operation of the Toy API matches "quantum flux capacitor".');
    expect(textOf(result)).toContain("broader words");
    expect(textOf(result)).toContain("pets (7), admin (2), store (2)");
    const unknownTag = await search({ query: "pet", tag: "cars" });
    expect(textOf(unknownTag)).toContain('No operation has the tag "cars".');
  });
});

describe("describe_operations", () => {
  it("gives what calling each needs: description, input schema, result, annotations, confirmation", async () => {
    const runtime = discovery({ access: { destructive: "confirm" } });
    const result = await runtime.callTool("describe_operations", {
      names: ["deletePet", "getPet", "deletePet"],
    });
    await runtime.close();
    expect(result.isError ?? false).toBe(false);
    const { operations } = result.structuredContent as { operations: Record<string, unknown>[] };
    expect(operations.map((o) => o.name)).toEqual(["deletePet", "getPet"]);
    const tool = model.tools.find((t) => t.name === "deletePet")!;
    expect(operations[0]).toMatchObject({
      method: "DELETE",
      path: "/pets/{id}",
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: {
        readOnlyHint: tool.annotations.readOnlyHint,
        destructiveHint: tool.annotations.destructiveHint,
        idempotentHint: tool.annotations.idempotentHint,
      },
      responses: { "200": "" },
      needsConfirmation: true,
    });
    expect(operations[1]).not.toHaveProperty("needsConfirmation");
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it("names the fields a successful answer holds, for call_operation's fields", async () => {
    const pet = {
      type: "object",
      properties: {
        id: { type: "integer" },
        owner: { type: "object", properties: { login: { type: "string" } } },
      },
    };
    const withFields = planSpec({
      info: { title: "Toy", version: "1" },
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            responses: {
              "200": {
                description: "OK",
                content: { "application/json": { schema: { type: "array", items: pet } } },
              },
            },
          },
        },
        "/pets.csv": {
          get: {
            operationId: "exportPets",
            responses: { "200": { description: "OK", content: { "text/csv": {} } } },
          },
        },
      },
    });
    const runtime = createBridgeRuntime(withFields, { env: {}, baseUrl: upstream.url, mode: "discovery" });
    const result = await runtime.callTool("describe_operations", { names: ["listPets", "exportPets"] });
    // A pointer into returns: the names of that part; an answer with no names says so.
    const owner = await runtime.callTool("describe_operations", {
      names: ["listPets"],
      pointer: "/returns/owner",
    });
    const csv = await runtime.callTool("describe_operations", { names: ["exportPets"], pointer: "/returns" });
    const code = createBridgeRuntime(withFields, { env: {}, baseUrl: upstream.url, mode: "code" });
    const inCode = await code.callTool("describe_operations", {
      names: ["listPets"],
      pointer: "/returns/owner",
    });
    await code.close();
    await runtime.close();
    const { operations } = result.structuredContent as { operations: Record<string, unknown>[] };
    expect(operations[0]!.returns).toBe("[]{id, owner{login}}");
    expect(operations[1]).not.toHaveProperty("returns");
    const want = { name: "listPets", pointer: "/returns/owner", returns: "{login}" };
    expect(owner.structuredContent).toEqual(want);
    expect(inCode.structuredContent).toEqual(want);
    expect(csv.isError).toBe(true);
    expect(textOf(csv)).toContain("exportPets's answer has no field names to show");
  });

  it("lists names that are no operation with the closest ones; only those: an error", async () => {
    const runtime = discovery();
    const mixed = await runtime.callTool("describe_operations", { names: ["getPet", "getPets"] });
    expect(mixed.isError ?? false).toBe(false);
    expect((mixed.structuredContent as { notFound: unknown[] }).notFound).toEqual([
      { name: "getPets", closest: expect.arrayContaining(["getPet"]) },
    ]);
    const none = await runtime.callTool("describe_operations", { names: ["removePet"] });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/"removePet" is no operation of the Toy API; the closest: .*deletePet/);
    expect(errorMeta(none)?.category).toBe("unknown_tool");
    const tooMany = await runtime.callTool("describe_operations", {
      names: Array.from({ length: 11 }, () => "x"),
    });
    expect(textOf(tooMany)).toMatch(/- names: /);
    await runtime.close();
  });
});

describe("call_operation", () => {
  it("calls the operation: the same request and result as its own tool in tools mode", async () => {
    const tools = createBridgeRuntime(model, { env: {}, baseUrl: upstream.url, mode: "tools" });
    const viaTool = await tools.callTool("getPet", { id: "7" });
    const sentByTool = upstream.requests.map((r) => `${r.method} ${r.rawUrl}`);
    upstream.reset();
    const runtime = discovery();
    const viaCall = await runtime.callTool("call_operation", { name: "getPet", arguments: { id: "7" } });
    expect(viaCall).toEqual(viaTool);
    expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(sentByTool);
    expect(sentByTool).toEqual(["GET /pets/7"]);
    // Arguments sent as JSON text, as some clients do, are the same arguments.
    expect(await runtime.callTool("call_operation", { name: "getPet", arguments: '{"id":"7"}' })).toEqual(
      viaTool,
    );
    await runtime.close();
    await tools.close();
  });

  it.each<[string, Record<string, unknown>]>([
    ["a missing required argument", {}],
    ["a wrong type", { id: { nested: true } }],
    ["an unknown argument", { id: "1", idd: "2" }],
  ])("refuses %s with exactly the words of tools mode", async (_label, args) => {
    const tools = createBridgeRuntime(model, { env: {}, baseUrl: upstream.url, mode: "tools" });
    const runtime = discovery();
    const viaTool = await tools.callTool("getPet", args);
    const viaCall = await runtime.callTool("call_operation", { name: "getPet", arguments: args });
    expect(viaTool.isError).toBe(true);
    expect(viaCall).toEqual(viaTool);
    expect(upstream.requests).toEqual([]);
    await runtime.close();
    await tools.close();
  });

  it("calls an operation named without its case and separators: get_pet is getPet", async () => {
    const runtime = discovery();
    const loose = await runtime.callTool("call_operation", { name: "get_pet", arguments: { id: "7" } });
    const exact = await runtime.callTool("call_operation", { name: "getPet", arguments: { id: "7" } });
    expect(loose).toEqual(exact);
    expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(["GET /pets/7", "GET /pets/7"]);
    const described = await runtime.callTool("describe_operations", { names: ["GET_PET", "getPet"] });
    expect((described.structuredContent as { operations: { name: string }[] }).operations).toEqual([
      expect.objectContaining({ name: "getPet" }),
    ]);
    await runtime.close();
  });

  it("reads fields given inside arguments as call_operation's own when the operation has no such argument", async () => {
    const runtime = discovery();
    const inside = await runtime.callTool("call_operation", {
      name: "getPet",
      arguments: { id: "7", fields: ["path"] },
    });
    const beside = await runtime.callTool("call_operation", {
      name: "getPet",
      arguments: { id: "7" },
      fields: ["path"],
    });
    expect(inside.isError ?? false).toBe(false);
    expect(inside).toEqual(beside);
    expect(inside.structuredContent).toEqual({ path: "/pets/7" });
    // Given beside too, the one beside wins and the one inside is the operation's to refuse.
    const both = await runtime.callTool("call_operation", {
      name: "getPet",
      arguments: { id: "7", fields: ["method"] },
      fields: ["path"],
    });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain("fields");
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/pets/7", "/pets/7"]);
    await runtime.close();
  });

  it("answers an unknown operation with an error naming the closest ones, and sends nothing", async () => {
    const runtime = discovery();
    const result = await runtime.callTool("call_operation", { name: "getPets", arguments: { id: "1" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Unknown operation "getPets": .*The closest: getPet/);
    expect(errorMeta(result)?.category).toBe("unknown_tool");
    expect(upstream.requests).toEqual([]);
    await runtime.close();
  });

  it("reaches only what the selection serves", async () => {
    const runtime = discovery({ access: { readOnly: true } });
    const result = await runtime.callTool("call_operation", { name: "deletePet", arguments: { id: "1" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Unknown operation "deletePet"');
    expect(upstream.requests).toEqual([]);
    await runtime.close();
  });

  it.each<[string, unknown, RegExp]>([
    ["no name", { arguments: {} }, /- name: required/],
    ["arguments that are no object", { name: "getPet", arguments: [1] }, /- arguments: must be an object/],
    [
      "the operation's arguments beside the name",
      { name: "getPet", id: "1" },
      /- id: not an argument of call_operation: the operation's arguments go inside "arguments"/,
    ],
  ])("refuses %s", async (_label, args, want) => {
    const runtime = discovery();
    const result = await runtime.callTool("call_operation", args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid arguments for tool call_operation:/);
    expect(textOf(result)).toMatch(want);
    expect(upstream.requests).toEqual([]);
    await runtime.close();
  });

  it("asks for confirmation of a destructive operation as tools mode does", async () => {
    const asked: string[] = [];
    const runtime = discovery({ access: { destructive: "confirm" } });
    const declined = await runtime.callTool(
      "call_operation",
      { name: "deletePet", arguments: { id: "3" } },
      {
        confirm: async (message) => {
          asked.push(message);
          return false;
        },
      },
    );
    expect(textOf(declined)).toMatch(/^Refused: the user did not allow deletePet \(DELETE \/pets\/\{id\}\)/);
    expect(upstream.requests).toEqual([]);
    const unavailable = await runtime.callTool("call_operation", {
      name: "deletePet",
      arguments: { id: "3" },
    });
    expect(textOf(unavailable)).toContain("does not support elicitation");
    const accepted = await runtime.callTool(
      "call_operation",
      { name: "deletePet", arguments: { id: "3" } },
      { confirm: async () => true },
    );
    expect(accepted.isError ?? false).toBe(false);
    expect(asked).toEqual([expect.stringContaining("deletePet (DELETE /pets/{id})")]);
    expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(["DELETE /pets/3"]);
    await runtime.close();
  });

  it("writes the audit line under the operation's name", async () => {
    const entries: AuditEntry[] = [];
    const runtime = discovery({ audit: { write: (entry) => entries.push(entry), close: async () => {} } });
    await runtime.callTool("search_operations", { query: "pet" });
    await runtime.callTool("call_operation", { name: "getPet", arguments: { id: "5" } });
    await runtime.callTool("call_operation", { name: "getPet", arguments: {} });
    await runtime.callTool("call_operation", { name: "nothing", arguments: { a: 1 } });
    await runtime.close();
    expect(entries.map((e) => [e.tool, e.outcome, e.category, e.status])).toEqual([
      ["search_operations", "ok", undefined, undefined],
      ["getPet", "ok", undefined, 200],
      ["getPet", "error", "invalid_argument", undefined],
      ["nothing", "error", "unknown_tool", undefined],
    ]);
    expect(entries[1]!.arguments).toEqual({ id: "5" });
  });
});

describe("the other tools of the model in discovery mode", () => {
  it("are not tools of the server: calling one by name is the unknown-tool error", async () => {
    const runtime = discovery();
    await expect(runtime.callTool("getPet", { id: "1" })).rejects.toThrow(
      /Unknown tool: getPet\. This server is in discovery mode/,
    );
    expect(upstream.requests).toEqual([]);
    expect(() => runtime.listTools("dG9vbHM6MQ")).toThrow(/Invalid cursor/);
    await runtime.close();
  });
});

describe("tools mode", () => {
  it("lists every tool as before, and is what auto serves for a small API", () => {
    for (const mode of ["tools", "auto", undefined] as const) {
      const runtime = createBridgeRuntime(model, {
        env: {},
        baseUrl: "http://127.0.0.1:9",
        ...(mode ? { mode } : {}),
      });
      expect(runtime.mode.mode).toBe("tools");
      expect(runtime.listTools(undefined)).toEqual({ tools: model.tools.map(toListedTool) });
    }
  });
});
