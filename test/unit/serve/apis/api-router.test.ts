/**
 * The router of a bridge of several APIs, in process, with a real SDK Client and a recording
 * upstream per API on 127.0.0.1: names, routing, credentials and headers kept to their API,
 * one breaker per API, the audit identity, and discovery over every API.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import type { AuditEntry } from "../../../../src/runtime/audit/audit-log.js";
import type { BridgeOptions } from "../../../../src/runtime/engine/bridge-options.js";
import { type ApiRouter, createApiRouter, createApiRuntime } from "../../../../src/serve/apis/api-router.js";
import {
  connectRuntime,
  errorMeta,
  type InMemoryBridge,
  planSpec,
  textOf,
} from "../../../e2e/safety-support.js";
import { closedPort, startUpstream, type Upstream } from "../../../helpers/upstream.js";

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const key = { api_key: { type: "apiKey", in: "header", name: "X-API-Key" } };

/** Two APIs whose operationIds and scheme names clash. */
function erpModel(): BridgeModel {
  return planSpec({
    info: { title: "ERP API", version: "1" },
    servers: [{ url: "https://erp.example.test" }],
    components: { securitySchemes: key },
    security: [{ api_key: [] }],
    paths: {
      "/orders/{id}": {
        get: {
          operationId: "order_query",
          summary: "Get an order of the ERP",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: ok,
        },
        delete: {
          operationId: "order_cancel",
          summary: "Cancel an order",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: ok,
        },
      },
    },
  });
}

function crmModel(): BridgeModel {
  return planSpec({
    info: { title: "CRM API", version: "2" },
    servers: [{ url: "https://crm.example.test" }],
    components: { securitySchemes: key },
    security: [{ api_key: [] }],
    paths: {
      "/customers/{customer}/orders": {
        get: {
          operationId: "order_query",
          summary: "List the orders of a customer",
          parameters: [{ name: "customer", in: "path", required: true, schema: { type: "string" } }],
          responses: ok,
        },
      },
      "/customers/{customer}": {
        get: {
          operationId: "customer_get",
          summary: "Get a customer record",
          parameters: [{ name: "customer", in: "path", required: true, schema: { type: "string" } }],
          responses: ok,
        },
      },
    },
  });
}

let erp: Upstream;
let crm: Upstream;
let bridge: InMemoryBridge | undefined;

beforeAll(async () => {
  erp = await startUpstream();
  crm = await startUpstream();
});

afterAll(async () => {
  await erp.close();
  await crm.close();
});

afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  erp.reset();
  crm.reset();
});

function router(
  options: {
    erp?: BridgeOptions;
    crm?: BridgeOptions;
    mode?: "tools" | "discovery" | "code";
    entries?: AuditEntry[];
  } = {},
): ApiRouter {
  const audit = options.entries
    ? { write: (e: AuditEntry) => options.entries!.push(e), close: async () => {} }
    : undefined;
  return createApiRouter(
    [
      createApiRuntime({
        namespace: "erp",
        model: erpModel(),
        options: {
          baseUrl: erp.url,
          auth: { api_key: "erp-key-1111" },
          headers: { "X-Tenant": "erp-tenant" },
          env: {},
          ...(audit ? { audit } : {}),
          ...options.erp,
        },
      }),
      createApiRuntime({
        namespace: "crm",
        model: crmModel(),
        options: {
          baseUrl: crm.url,
          auth: { api_key: "crm-key-2222" },
          env: {},
          ...(audit ? { audit } : {}),
          ...options.crm,
        },
      }),
    ],
    { mode: options.mode ?? "tools", ...(audit ? { audit } : {}) },
  );
}

function requestsOf(upstream: Upstream) {
  return upstream.requests.map((r) => ({
    path: r.rawPath,
    key: r.header("x-api-key"),
    tenant: r.header("x-tenant"),
  }));
}

describe("a router of two APIs", () => {
  it("lists each API's tools under its namespace", async () => {
    bridge = await connectRuntime(router());
    const { tools } = await bridge.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "erp__order_query",
      "erp__order_cancel",
      "crm__order_query",
      "crm__customer_get",
    ]);
  });

  it("sends each call to its own API with its own credentials and headers only", async () => {
    bridge = await connectRuntime(router());
    const a = await bridge.call("erp__order_query", { id: "7" });
    const b = await bridge.call("crm__order_query", { customer: "c1" });
    const c = await bridge.call("crm__customer_get", { customer: "c2" });
    for (const result of [a, b, c]) expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(requestsOf(erp)).toEqual([{ path: "/orders/7", key: "erp-key-1111", tenant: "erp-tenant" }]);
    expect(requestsOf(crm)).toEqual([
      { path: "/customers/c1/orders", key: "crm-key-2222", tenant: undefined },
      { path: "/customers/c2", key: "crm-key-2222", tenant: undefined },
    ]);
  });

  it("redacts each API's secrets from every result, whichever API echoes them", async () => {
    // The CRM upstream echoes the request: its own key appears in the answer and is redacted.
    bridge = await connectRuntime(router());
    const result = await bridge.call("crm__order_query", { customer: "c1" });
    expect(textOf(result)).not.toContain("crm-key-2222");
    expect(textOf(result)).toContain("[REDACTED]");
  });

  it("redacts one API's secret from another API's answer that echoes it", async () => {
    // The model copied the ERP key into a CRM argument; the CRM upstream echoes the path.
    bridge = await connectRuntime(router());
    const result = await bridge.call("crm__customer_get", { customer: "erp-key-1111" });
    expect(crm.requests.map((r) => r.rawPath)).toEqual(["/customers/erp-key-1111"]);
    expect(JSON.stringify(result)).not.toContain("erp-key-1111");
    expect(textOf(result)).toContain("[REDACTED]");
  });

  it("redacts every API's secrets before a program in code mode sees an answer", async () => {
    bridge = await connectRuntime(router({ mode: "code" }));
    const result = await bridge.call("execute", {
      program:
        'const answer = await api.crm__customer_get({ customer: "erp-key-1111" }); return JSON.stringify(answer).includes("erp-key-1111") ? "seen" : "hidden";',
    });
    expect(crm.requests).toHaveLength(1);
    expect(textOf(result)).toContain("hidden");
  });

  it("refuses an unknown or unprefixed name as an unknown tool, sending nothing", async () => {
    bridge = await connectRuntime(router());
    for (const name of ["order_query", "erp__customer_get", "sales__order_query"]) {
      await expect(bridge.call(name, {})).rejects.toThrow(/Unknown tool/);
    }
    expect(erp.requests).toHaveLength(0);
    expect(crm.requests).toHaveLength(0);
  });

  it("keeps one API's open circuit to itself", async () => {
    const port = await closedPort();
    bridge = await connectRuntime(
      router({
        erp: {
          baseUrl: `http://127.0.0.1:${port}`,
          circuitBreaker: { failureThreshold: 1, cooldownMs: 60_000 },
          retry: { retries: 0 },
        },
      }),
    );
    const first = await bridge.call("erp__order_query", { id: "1" });
    const second = await bridge.call("erp__order_query", { id: "2" });
    expect(errorMeta(first)?.category).toBe("upstream_unavailable");
    expect(textOf(second)).toMatch(/circuit|failing fast|fail fast/i);
    const other = await bridge.call("crm__order_query", { customer: "c1" });
    expect(other.isError ?? false, textOf(other)).toBe(false);
    expect(crm.requests).toHaveLength(1);
  });

  it("applies each API's own tool selection to its tools' own names", async () => {
    bridge = await connectRuntime(
      router({ erp: { access: { includeTools: ["order_*"], destructive: "refuse" } } }),
    );
    const { tools } = await bridge.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["erp__order_query", "crm__order_query", "crm__customer_get"]);
  });

  it("writes each call's audit line with its API", async () => {
    const entries: AuditEntry[] = [];
    bridge = await connectRuntime(router({ entries }));
    await bridge.call("erp__order_query", { id: "7" });
    await bridge.call("crm__customer_get", { customer: "c2" });
    expect(entries.map((e) => [e.api, e.tool, e.outcome])).toEqual([
      ["erp", "erp__order_query", "ok"],
      ["crm", "crm__customer_get", "ok"],
    ]);
  });

  it("replaces one API with withApi and keeps the other's runtime", () => {
    const first = router();
    const crmBefore = first.apis[1]!.runtime;
    const next = first.withApi(
      createApiRuntime({ namespace: "erp", model: crmModel(), options: { baseUrl: erp.url, env: {} } }),
    );
    expect(next.apis[1]!.runtime).toBe(crmBefore);
    expect(next.model.tools.map((t) => t.name)).toEqual([
      "erp__order_query",
      "erp__customer_get",
      "crm__order_query",
      "crm__customer_get",
    ]);
    expect(first.model.tools.map((t) => t.name)).toContain("erp__order_cancel");
  });
});

describe("discovery over two APIs", () => {
  const structured = (result: CallToolResult) => result.structuredContent as { results: { name: string }[] };

  it("searches every API and calls any operation by its namespaced name", async () => {
    const entries: AuditEntry[] = [];
    bridge = await connectRuntime(router({ mode: "discovery", entries }));
    const { tools } = await bridge.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_operations", "describe_operations", "call_operation"]);
    const found = structured(await bridge.call("search_operations", { query: "orders" }));
    const names = found.results.map((r) => r.name);
    expect(names).toContain("erp__order_query");
    expect(names).toContain("crm__order_query");
    const described = await bridge.call("describe_operations", { names: ["crm__order_query"] });
    expect(textOf(described)).toContain("customer");
    const called = await bridge.call("call_operation", {
      name: "crm__order_query",
      arguments: { customer: "c9" },
    });
    expect(called.isError ?? false, textOf(called)).toBe(false);
    expect(requestsOf(crm)).toEqual([
      { path: "/customers/c9/orders", key: "crm-key-2222", tenant: undefined },
    ]);
    expect(erp.requests).toHaveLength(0);
    expect(entries.map((e) => [e.api, e.tool])).toEqual([
      [undefined, "search_operations"],
      [undefined, "describe_operations"],
      ["crm", "crm__order_query"],
    ]);
  });

  it("in code mode, a program calls each API's operations through that API", async () => {
    const entries: AuditEntry[] = [];
    bridge = await connectRuntime(router({ mode: "code", entries }));
    const { tools } = await bridge.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_operations", "describe_operations", "execute"]);
    const described = await bridge.call("describe_operations", {
      names: ["erp__order_query", "crm__customer_get"],
    });
    expect(textOf(described)).toContain("erp__order_query(");
    const result = await bridge.call("execute", {
      program: [
        'const order = await api.erp__order_query({ id: "o-5" });',
        'const customer = await api.crm__customer_get({ customer: "c-5" });',
        "return { erp: order.path, crm: customer.path };",
      ].join("\n"),
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toEqual({ erp: "/orders/o-5", crm: "/customers/c-5" });
    expect(requestsOf(erp)).toEqual([{ path: "/orders/o-5", key: "erp-key-1111", tenant: "erp-tenant" }]);
    expect(requestsOf(crm)).toEqual([{ path: "/customers/c-5", key: "crm-key-2222", tenant: undefined }]);
    expect(entries.map((e) => [e.api, e.tool])).toEqual([
      [undefined, "describe_operations"],
      ["erp", "erp__order_query"],
      ["crm", "crm__customer_get"],
      [undefined, "execute"],
    ]);
  });

  it("says which operations of which API ask the user first", async () => {
    bridge = await connectRuntime(router({ mode: "discovery", erp: { access: { destructive: "confirm" } } }));
    const described = await bridge.call("describe_operations", { names: ["erp__order_cancel"] });
    expect(JSON.stringify(described.structuredContent)).toContain('"needsConfirmation":true');
    const unknown = await bridge.call("call_operation", { name: "order_cancel", arguments: { id: "1" } });
    expect(errorMeta(unknown)?.category).toBe("unknown_tool");
    expect(textOf(unknown)).toContain("erp__order_cancel");
  });
});
