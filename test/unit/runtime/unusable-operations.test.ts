/**
 * Never crash, never hang, always say why: an operation whose input schema the bridge cannot
 * compile (a slip no repair reads, served leniently) is answered in every mode: tools mode's
 * call, discovery's search, describe and call, and code mode's search, describe and a program
 * that calls it are results naming the reason and what to do; no protocol error, no crash.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, textOf } from "../../e2e/safety-support.js";
import { echoHandler, startUpstream, type Upstream } from "../../helpers/upstream.js";

const OK = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };

/** Slips Ajv refuses to compile. */
const SLIPS: [string, Record<string, unknown>][] = [
  ["maximum written as text", { type: "integer", maximum: "fifty" }],
  ["minLength written as text", { type: "string", minLength: "x" }],
  ["enum that is no list", { type: "string", enum: "a" }],
];

/** Slips the bridge reads past: the operation stays callable. */
const TOLERATED: [string, Record<string, unknown>][] = [
  ["a pattern that is no regex", { type: "string", pattern: "([a-z" }],
  ["an unknown type", { type: "int" }],
  ["multipleOf zero", { type: "number", multipleOf: 0 }],
  ["required that is no list", { type: "object", properties: { a: { type: "string" } }, required: "a" }],
];

function modelWith(schema: Record<string, unknown>) {
  return planSpec({
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          summary: "List things",
          parameters: [{ name: "limit", in: "query", schema }],
          responses: OK,
        },
      },
      "/ping": { get: { operationId: "ping", summary: "Ping", responses: OK } },
    },
  });
}

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(echoHandler);
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

async function inMode(schema: Record<string, unknown>, mode: "tools" | "discovery" | "code") {
  return createBridgeRuntime(modelWith(schema), { env: {}, baseUrl: upstream.url, mode });
}

describe.each(SLIPS)("%s", (_label, schema) => {
  it("tools mode: the call is an operation_unavailable result; the other operation answers", async () => {
    const runtime = await inMode(schema, "tools");
    try {
      const result = (await runtime.callTool("listThings", { limit: 3 })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /cannot be called through this bridge: .*cannot check \(.+\)\. Nothing was sent/,
      );
      expect(textOf(result)).toContain("the operator can correct the schema at /paths/~1things/get");
      expect((await runtime.callTool("ping", {})).isError ?? false).toBe(false);
      expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/ping"]);
    } finally {
      await runtime.close();
    }
  });

  it("discovery mode: search and describe say it is unavailable and why; the call says so", async () => {
    const runtime = await inMode(schema, "discovery");
    try {
      const search = (await runtime.callTool("search_operations", {
        query: "list things",
      })) as CallToolResult;
      expect(search.isError ?? false).toBe(false);
      expect(textOf(search)).toMatch(/- listThings: GET \/things - List things \(unavailable: .+\)/);
      const describe = (await runtime.callTool("describe_operations", {
        names: ["listThings"],
      })) as CallToolResult;
      expect(describe.isError ?? false).toBe(false);
      expect(textOf(describe)).toMatch(/unavailable/i);
      const call = (await runtime.callTool("call_operation", {
        name: "listThings",
        arguments: { limit: 3 },
      })) as CallToolResult;
      expect(call.isError).toBe(true);
      expect(textOf(call)).toMatch(/cannot be called through this bridge/);
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await runtime.close();
    }
  });

  it("code mode: search and describe say so; a program calling it gets an ApiError it can catch", async () => {
    const runtime = await inMode(schema, "code");
    try {
      const search = (await runtime.callTool("search_operations", {
        query: "list things",
      })) as CallToolResult;
      expect(textOf(search)).toMatch(
        /listThings\(.*List things \(unavailable: .+\)|List things \(unavailable: .+\)/s,
      );
      const describe = (await runtime.callTool("describe_operations", {
        names: ["listThings"],
      })) as CallToolResult;
      expect(describe.isError ?? false).toBe(false);
      expect(textOf(describe)).toMatch(/unavailable/i);
      const result = (await runtime.callTool("execute", {
        program:
          "try { await api.listThings({ limit: 3 }); } catch (e) { return { category: e.category, message: e.message }; }",
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({ category: "operation_unavailable" });
      const uncaught = (await runtime.callTool("execute", {
        program: "await api.listThings({ limit: 3 }); return 1;",
      })) as CallToolResult;
      expect(uncaught.isError).toBe(true);
      expect(textOf(uncaught)).toMatch(/cannot be called through this bridge/);
      expect(textOf(uncaught)).toContain("The program made no API call.");
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await runtime.close();
    }
  });
});

describe.each(TOLERATED)("%s", (_label, schema) => {
  it.each(["tools", "discovery", "code"] as const)("%s mode: the call is answered", async (mode) => {
    const runtime = await inMode(schema, mode);
    try {
      const result = (
        mode === "tools"
          ? await runtime.callTool("listThings", { limit: "abc" })
          : mode === "discovery"
            ? await runtime.callTool("call_operation", { name: "listThings", arguments: { limit: "abc" } })
            : await runtime.callTool("execute", { program: 'return await api.listThings({ limit: "abc" });' })
      ) as CallToolResult;
      expect(result.content.length).toBeGreaterThan(0);
      expect(upstream.requests.length).toBeLessThanOrEqual(1);
    } finally {
      await runtime.close();
    }
  });
});
