/**
 * Code mode on the runtime, through a real SDK client in memory: tools/list (three tools; their
 * size, under 1,000 tokens for any API, with the real tokenizer in code-runtime.slow.test.ts),
 * search results with signatures, describe's declarations (valid TypeScript), and execute: every api call is the operation's own call (the same words for a
 * bad argument or an HTTP error as its tool result, access control, confirmation, credentials,
 * redaction, one audit line per call plus one for the execute), results within the budget.
 * Programs run in this thread here (running from source); test/e2e/code-mode.test.ts runs them
 * in the worker pool of the built CLI.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import ts from "typescript";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../../src/runtime/audit/audit-log.js";
import type { BridgeOptions } from "../../../../src/runtime/engine/bridge-options.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { ERROR_META_KEY } from "../../../../src/runtime/results/error-result.js";
import { TRUNCATION_META_KEY } from "../../../../src/runtime/results/truncate.js";
import { connectRuntime, planSpec, textOf } from "../../../e2e/safety-support.js";
import { SHOP_SPEC, shopResponder } from "../../../helpers/shop-api.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

const shop = planSpec(SHOP_SPEC, { resultSchemas: true });

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(shopResponder);
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => {
  upstream.reset();
  upstream.setHandler(shopResponder);
});

function runtimeOf(options: BridgeOptions = {}, model = shop) {
  return createBridgeRuntime(model, { env: {}, baseUrl: `${upstream.url}/v1`, mode: "code", ...options });
}

async function execute(program: string, options: BridgeOptions = {}): Promise<CallToolResult> {
  const runtime = runtimeOf(options);
  try {
    return await runtime.callTool("execute", { program });
  } finally {
    await runtime.close();
  }
}

describe("tools/list in code mode", () => {
  it("execute's annotations are those of the operations api reaches", () => {
    const all = runtimeOf()
      .listTools(undefined)
      .tools.find((t) => t.name === "execute")!;
    expect(all.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    const readOnly = runtimeOf({ access: { readOnly: true } })
      .listTools(undefined)
      .tools.find((t) => t.name === "execute")!;
    expect(readOnly.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});

describe("search and describe", () => {
  it("search results carry each operation's signature, with its argument and result types", async () => {
    const runtime = runtimeOf();
    const result = await runtime.callTool("search_operations", { query: "search products" });
    const results = (result.structuredContent as { results: { name: string; signature: string }[] }).results;
    const hit = results.find((r) => r.name === "searchProducts")!;
    expect(hit.signature).toBe(
      "searchProducts(args?: { q?: string; limit?: number }): Promise<{ id: string; name: string; price: number; stock: number; supplierId?: string }[]>",
    );
    expect(textOf(result)).toContain(`  ${hit.signature}`);
    await runtime.close();
  });

  it("describe gives declarations that are valid TypeScript, with docs, and says which names are none", async () => {
    const runtime = runtimeOf({ access: { destructive: "confirm" } });
    const result = await runtime.callTool("describe_operations", {
      names: ["createOrder", "cancelOrder", "nope"],
    });
    const { declaration } = result.structuredContent as { declaration: string };
    expect(declaration).toContain("createOrder(args: {");
    expect(declaration).toContain("DELETE /orders/{orderId}; the user is asked to confirm each call");
    expect(textOf(result)).toContain("api.nope is no operation of the Shop API");
    const file = ts.createSourceFile(
      "api.ts",
      `${declaration}\ndeclare const api: Api;\nexport const order = api.createOrder({ customerId: "c", items: [{ productId: "p", quantity: 1 }] });`,
      ts.ScriptTarget.ES2022,
    );
    expect((file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([]);
    await runtime.close();
  });
});

describe("execute's arguments", () => {
  it("takes the program as code, as other code-mode servers name it, when no program is given", async () => {
    const runtime = runtimeOf();
    try {
      const viaCode = await runtime.callTool("execute", { code: "return 6 * 7;" });
      expect(viaCode.isError ?? false).toBe(false);
      expect(viaCode.structuredContent).toEqual({ result: 42 });
      // fields among a call's arguments are the call's option when the operation has no such argument.
      const lifted = await runtime.callTool("execute", {
        program: 'return await api.searchProducts({ q: "lamp", fields: ["[].name"] });',
      });
      const given = await runtime.callTool("execute", {
        program: 'return await api.searchProducts({ q: "lamp" }, { fields: ["[].name"] });',
      });
      expect(lifted.isError ?? false).toBe(false);
      expect(lifted.structuredContent).toEqual(given.structuredContent);
      expect(JSON.stringify(lifted.structuredContent)).not.toContain("price");
      // With both, program is the program and code an unknown argument.
      const both = await runtime.callTool("execute", { program: "return 1;", code: "return 2;" });
      expect(both.isError).toBe(true);
      expect(textOf(both)).toContain("code");
    } finally {
      await runtime.close();
    }
  });
});

describe("execute: every api call is the operation's own call", () => {
  it("a bad argument throws the words its tool result gives in tools mode", async () => {
    const tools = createBridgeRuntime(shop, { env: {}, baseUrl: `${upstream.url}/v1`, mode: "tools" });
    const direct = await tools.callTool("createOrder", { customerId: "c1", items: [] });
    await tools.close();
    const caught = await execute(
      'try { await api.createOrder({ customerId: "c1", items: [] }); } catch (e) { return [e.message, e.category]; }',
    );
    expect(caught.structuredContent).toEqual({ result: [textOf(direct), "invalid_argument"] });
    expect(upstream.requests).toHaveLength(0);
  });

  it("an HTTP error throws with its status, category, the API's message and the tool result's words", async () => {
    const tools = createBridgeRuntime(shop, { env: {}, baseUrl: `${upstream.url}/v1`, mode: "tools" });
    const direct = await tools.callTool("getSupplier", { supplierId: "s9" });
    await tools.close();
    const caught = await execute(
      'try { await api.getSupplier({ supplierId: "s9" }); } catch (e) { return { status: e.status, category: e.category, apiMessage: e.apiMessage, message: e.message }; }',
    );
    expect(caught.structuredContent).toEqual({
      status: 404,
      category: "not_found",
      apiMessage: "no supplier s9",
      message: textOf(direct),
    });
    const uncaught = await execute('const x = 1;\nawait api.getSupplier({ supplierId: "s9" });');
    expect(uncaught.isError).toBe(true);
    expect(textOf(uncaught)).toContain('at line 2 (`await api.getSupplier({ supplierId: "s9" });`)');
    expect(textOf(uncaught)).toContain(textOf(direct));
    expect(uncaught._meta?.[ERROR_META_KEY]).toMatchObject({
      category: "not_found",
      status: 404,
    });
  });

  it("--read-only and the selection bound api: other operations do not exist, nothing is sent", async () => {
    const readOnly = await execute(
      'try { await api.cancelOrder({ orderId: "o1" }); } catch (e) { return [e.category, e.message]; }',
      { access: { readOnly: true } },
    );
    const [category, message] = (readOnly.structuredContent as { result: [string, string] }).result;
    expect(category).toBe("unknown_tool");
    expect(message).toContain("api.cancelOrder is no operation of the Shop API served here");
    const selected = await execute(
      'const p = await api.getProduct({ productId: "p1" });\ntry { await api.searchProducts({}); } catch (e) { return [p.id, e.category]; }',
      { access: { includeTools: ["getProduct"] } },
    );
    expect(selected.structuredContent).toEqual({ result: ["p1", "unknown_tool"] });
    expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(["GET /v1/products/p1"]);
  });

  it.each([
    [true, { result: null }, ["DELETE /v1/orders/o3"]],
    [false, { result: "confirmation_declined" }, []],
  ])(
    "--destructive confirm asks the user for each destructive call (accepted: %s)",
    async (accept, want, sent) => {
      const messages: string[] = [];
      const bridge = await connectRuntime(
        runtimeOf({ access: { destructive: "confirm" } }),
        {},
        {
          elicit: (message) => {
            messages.push(message);
            return accept ? { action: "accept", content: { confirm: true } } : { action: "decline" };
          },
        },
      );
      const result = await bridge.call("execute", {
        program: 'try { return await api.cancelOrder({ orderId: "o3" }); } catch (e) { return e.category; }',
      });
      expect(result.structuredContent).toEqual(want);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toContain("cancelOrder");
      expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(sent);
      await bridge.close();
    },
  );

  it("writes one audit line per API call and one for the execute", async () => {
    const lines: AuditEntry[] = [];
    await execute(
      'const [ada] = await api.findCustomers({ email: "ada@example.com" });\nreturn await api.listCustomerOrders({ customerId: ada.id });',
      { audit: { write: (entry: AuditEntry) => lines.push(entry) } as unknown as BridgeOptions["audit"] },
    );
    expect(lines.map((l) => [l.tool, l.outcome, l.status])).toEqual([
      ["findCustomers", "ok", 200],
      ["listCustomerOrders", "ok", 200],
      ["execute", "ok", undefined],
    ]);
    expect(lines[0]!.arguments).toEqual({ email: "ada@example.com" });
  });

  it("credentials never reach the program, its result or the audit log", async () => {
    const secret = "sk-live-0123456789abcdef";
    upstream.setHandler((req, res) => sendJson(res, 200, { seen: req.headers.authorization ?? null }));
    const model = planSpec(
      {
        ...SHOP_SPEC,
        components: { securitySchemes: { key: { type: "http", scheme: "bearer" } } },
        security: [{ key: [] }],
      },
      { resultSchemas: true },
    );
    const lines: AuditEntry[] = [];
    const runtime = runtimeOf(
      {
        auth: { key: secret },
        audit: { write: (entry: AuditEntry) => lines.push(entry) } as unknown as BridgeOptions["audit"],
      },
      model,
    );
    const result = await runtime.callTool("execute", {
      program: `const echoed = await api.getProduct({ productId: "p1" });
        const everything = JSON.stringify(Object.getOwnPropertyNames(globalThis).map((n) => { try { return String(globalThis[n]); } catch { return n; } }));
        return { echoed, found: everything.includes("sk-live") };`,
    });
    await runtime.close();
    expect(upstream.requests[0]!.headers.authorization).toBe(`Bearer ${secret}`);
    const text = JSON.stringify(result);
    expect(text).not.toContain(secret);
    expect((result.structuredContent as { found: boolean }).found).toBe(false);
    expect((result.structuredContent as { echoed: { seen: string } }).echoed.seen).not.toContain(
      "0123456789abcdef",
    );
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it("a large return value is cut to the result budget, the way an API's answer is", async () => {
    const result = await execute(
      "return Array.from({ length: 5000 }, (_, i) => ({ i, name: 'item ' + i }));",
      {
        maxResultChars: 2000,
      },
    );
    expect(textOf(result).length).toBeLessThan(2600);
    expect(textOf(result)).toContain("Return less from the program");
    expect((result.structuredContent as { result: unknown[] }).result.length).toBeLessThan(5000);
    expect(result._meta?.[TRUNCATION_META_KEY]).toMatchObject({ truncated: true });
  });

  it("returns console output with the result, and non-objects wrapped as { result }", async () => {
    const result = await execute('console.log("looking"); console.error("odd"); return 7;');
    expect(result.structuredContent).toEqual({ result: 7 });
    expect(result.content).toEqual([
      { type: "text", text: "7" },
      { type: "text", text: "console output:\nlooking\n[error] odd" },
    ]);
  });

  it("each limit is an isError result that names it and its option", async () => {
    const cases: [string, BridgeOptions["code"], RegExp][] = [
      ["for (;;) {}", { timeoutMs: 300 }, /wall-time limit.*300 ms.*--code-timeout/],
      [
        "const a = []; for (;;) a.push(new Array(100000).fill(1.5));",
        { memoryBytes: 8 * 1024 * 1024 },
        /memory limit.*8 MiB.*--code-memory/,
      ],
      ["const f = (n) => f(n + 1); f(0);", {}, /stack limit.*--code-max-stack/],
      [
        'for (;;) console.log("x");',
        { maxLogChars: 100 },
        /console output limit.*100 characters.*--code-max-log-chars/,
      ],
      [
        'for (let i = 0; i < 10000; i++) await api.getProduct({ productId: "p1" });',
        { maxCalls: 3 },
        /API call limit.*more than 3 API calls.*--code-max-calls.*made 3 API calls \(getProduct\)/,
      ],
    ];
    for (const [program, code, want] of cases) {
      const result = await execute(program, code === undefined ? {} : { code });
      expect(result.isError, program).toBe(true);
      expect(textOf(result), program).toMatch(want);
      expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ category: "program_limit" });
    }
  });

  it("withholds an answer over the per-call cap, and answers past the execute's budget, as errors the program catches", async () => {
    const program = `const seen = [];
      for (let i = 0; i < 4; i++) {
        try { await api.getProduct({ productId: "p1" }); seen.push("ok"); }
        catch (e) { seen.push(e.category + ": " + e.message); }
      }
      return seen;`;
    const perCall = await execute(program, { code: { maxCallBytes: 20 } });
    expect((perCall.structuredContent as { result: string[] }).result).toEqual(
      Array(4).fill(
        expect.stringMatching(
          /^program_limit: api\.getProduct's answer is .* more than the 20 bytes one call may hand a program \(--code-max-call-bytes\)/,
        ),
      ),
    );
    const perExecute = await execute(program, { code: { maxAnswerBytes: 300 } });
    const seen = (perExecute.structuredContent as { result: string[] }).result;
    expect(seen[0]).toBe("ok");
    expect(seen.at(-1)).toMatch(
      /^program_limit: .*past the 300 bytes of answers one execute may be handed \(--code-max-answer-bytes\)/,
    );
    expect(upstream.requests).toHaveLength(8);
  });
});
