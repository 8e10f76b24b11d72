/**
 * Several APIs in one bridge, through the built CLI and real SDK Clients: two specs whose
 * operationIds and security scheme names clash (fixtures/apis), each with its own credentials
 * and upstream on 127.0.0.1. Each upstream must receive only its own requests and credentials,
 * over stdio (a config file) and Streamable HTTP (flags and OPENAPI_MCP_<NS>__ variables), in
 * tools and discovery mode; a credential given for the whole bridge is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  connectHttp,
  connectStdio,
  fixture,
  runCli,
  type SpawnedConnected,
  STACK_LINE,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { type RecordedRequest, startUpstream, type Upstream } from "../helpers/upstream.js";

const ERP = fixture("apis", "erp.openapi31.yaml");
const CRM = fixture("apis", "crm.openapi31.yaml");
const ERP_KEY = "erp-key-0123456789";
const CRM_KEY = "crm-key-9876543210";

let erp: Upstream;
let crm: Upstream;
let dir: string;

beforeAll(async () => {
  erp = await startUpstream();
  crm = await startUpstream();
  dir = mkdtempSync(join(tmpdir(), "omb-apis-"));
});

afterAll(async () => {
  await erp.close();
  await crm.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  erp.reset();
  crm.reset();
});

/** What an upstream got: method, path and query, and every header that could carry a credential. */
function seen(upstream: Upstream) {
  return upstream.requests.map((r: RecordedRequest) => ({
    request: `${r.method} ${r.rawUrl}`,
    key: r.header("x-api-key"),
    tenant: r.header("x-tenant"),
  }));
}

/** No request of `upstream` carries the other API's key, anywhere. */
function expectNoneOf(upstream: Upstream, secret: string): void {
  for (const r of upstream.requests) {
    expect(JSON.stringify(r.rawHeaders)).not.toContain(secret);
    expect(r.rawUrl).not.toContain(secret);
    expect(r.text()).not.toContain(secret);
  }
}

function ok(result: CallToolResult): void {
  expect(result.isError ?? false, textOf(result)).toBe(false);
}

describe("two APIs from a config file, over stdio", () => {
  let bridge: SpawnedConnected;
  let audit: string;

  beforeAll(async () => {
    audit = join(dir, "audit.jsonl");
    const config = join(dir, "bridge.yaml");
    writeFileSync(
      config,
      [
        "mode: tools",
        `audit-log: ${audit}`,
        "apis:",
        "  erp:",
        `    spec: ${ERP}`,
        `    base-url: ${erp.url}/v1`,
        "    auth: { api_key: { env: ERP_KEY } }",
        "    header: { X-Tenant: acme }",
        "  crm:",
        `    spec: ${CRM}`,
        `    base-url: ${crm.url}/api`,
        "    auth: { api_key: { env: CRM_KEY } }",
        "    destructive: refuse",
      ].join("\n"),
    );
    bridge = await connectStdio("--config", [config], { ERP_KEY, CRM_KEY });
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("serves both under their namespaces, names clash no more", () => {
    expect(bridge.tools.map((t) => t.name)).toEqual([
      "erp__order_query",
      "erp__order_cancel",
      "erp__order_create",
      "crm__order_query",
      "crm__customer_get",
    ]);
    for (const tool of bridge.tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it("sends each call to its own API, with its own credentials and headers only", async () => {
    ok(await bridge.call("erp__order_query", { id: "o-1" }));
    ok(await bridge.call("crm__order_query", { customer: "c-1", status: "open" }));
    ok(await bridge.call("erp__order_create", { item: "bolt", quantity: 3 }));
    ok(await bridge.call("crm__customer_get", { customer: "c-2" }));
    expect(seen(erp)).toEqual([
      { request: "GET /v1/orders/o-1", key: ERP_KEY, tenant: "acme" },
      { request: "POST /v1/orders", key: ERP_KEY, tenant: "acme" },
    ]);
    expect(seen(crm)).toEqual([
      { request: "GET /api/customers/c-1/orders?status=open", key: CRM_KEY, tenant: undefined },
      { request: "GET /api/customers/c-2", key: CRM_KEY, tenant: undefined },
    ]);
    expectNoneOf(erp, CRM_KEY);
    expectNoneOf(crm, ERP_KEY);
  });

  it("names each API and where its calls go on stderr", () => {
    expect(bridge.stderr()).toContain(`api erp (ERP API 1.0.0): 3 tools; calls go to ${erp.url}`);
    expect(bridge.stderr()).toContain(`api crm (CRM API 2.3.0): 2 tools; calls go to ${crm.url}`);
    expect(bridge.stderr()).toContain("5 tools over stdio (2 APIs: erp, crm)");
  });

  it("writes audit lines that name the API, with no secret", async () => {
    // The audit line of a call is appended as its result goes out: wait for the last one.
    const readLines = () => readFileSync(audit, "utf8").trim().split("\n");
    await vi.waitFor(() => expect(readLines()).toHaveLength(4), { timeout: 5000 });
    const lines = readLines();
    const entries = lines.map((line) => JSON.parse(line) as { api?: string; tool: string });
    expect(entries.map((e) => [e.api, e.tool])).toEqual([
      ["erp", "erp__order_query"],
      ["crm", "crm__order_query"],
      ["erp", "erp__order_create"],
      ["crm", "crm__customer_get"],
    ]);
    expect(lines.join("\n")).not.toContain(ERP_KEY);
    expect(lines.join("\n")).not.toContain(CRM_KEY);
  });
});

describe("two APIs from the command line, over Streamable HTTP", () => {
  it("takes each API's credentials from its own variables, and serves many sessions", async () => {
    const http = await startHttpBridge(ERP, [CRM, "--namespace", "erp,crm", "--mode", "tools"], {
      OPENAPI_MCP_ERP__BASE_URL: erp.url,
      OPENAPI_MCP_ERP__AUTH_API_KEY: ERP_KEY,
      OPENAPI_MCP_CRM__BASE_URL: crm.url,
      OPENAPI_MCP_CRM__AUTH_API_KEY: CRM_KEY,
      OPENAPI_MCP_CRM__TIMEOUT: "5000",
    });
    try {
      const [one, two] = [await connectHttp(http), await connectHttp(http)];
      ok(await one.call("crm__order_query", { customer: "x" }));
      ok(await two.call("erp__order_cancel", { id: "y" }));
      ok(await one.call("erp__order_query", { id: "z" }));
      await one.close();
      await two.close();
      expect(seen(erp)).toEqual([
        { request: "DELETE /orders/y", key: ERP_KEY, tenant: undefined },
        { request: "GET /orders/z", key: ERP_KEY, tenant: undefined },
      ]);
      expect(seen(crm)).toEqual([{ request: "GET /customers/x/orders", key: CRM_KEY, tenant: undefined }]);
      expectNoneOf(erp, CRM_KEY);
      expectNoneOf(crm, ERP_KEY);
    } finally {
      await http.stop();
    }
  });
});

describe("discovery over two APIs, over stdio", () => {
  it("searches both, describes and calls by the namespaced name", async () => {
    const bridge = await connectStdio(ERP, [CRM, "--mode", "discovery"], {
      OPENAPI_MCP_ERP__BASE_URL: erp.url,
      OPENAPI_MCP_ERP__AUTH_API_KEY: ERP_KEY,
      OPENAPI_MCP_CRM__BASE_URL: crm.url,
      OPENAPI_MCP_CRM__AUTH_API_KEY: CRM_KEY,
    });
    try {
      expect(bridge.tools.map((t) => t.name)).toEqual([
        "search_operations",
        "describe_operations",
        "call_operation",
      ]);
      const search = await bridge.call("search_operations", { query: "orders of a customer" });
      const found = (search.structuredContent as { results: { name: string }[] }).results.map((r) => r.name);
      expect(found).toContain("crm__order_query");
      expect(found).toContain("erp__order_query");
      ok(await bridge.call("describe_operations", { names: ["erp__order_create"] }));
      ok(await bridge.call("call_operation", { name: "erp__order_create", arguments: { item: "nut" } }));
      ok(await bridge.call("call_operation", { name: "crm__customer_get", arguments: { customer: "k" } }));
      expect(seen(erp)).toEqual([{ request: "POST /orders", key: ERP_KEY, tenant: undefined }]);
      expect(seen(crm)).toEqual([{ request: "GET /customers/k", key: CRM_KEY, tenant: undefined }]);
      expect(bridge.stderr()).toContain(
        "3 tools (discovery mode, 5 operations) over stdio (2 APIs: erp, crm)",
      );
    } finally {
      await bridge.close();
    }
  });
});

describe("mistakes of a bridge of several APIs", () => {
  it.each([
    [
      "--auth for every API",
      [ERP, CRM, "--auth", "api_key=shared-secret-1"],
      {},
      /OMB_API_OPTION_SHARED --auth is given for all 2 APIs/,
    ],
    [
      "a credential variable for every API",
      [ERP, CRM],
      { OPENAPI_MCP_AUTH_API_KEY: "shared-secret-1" },
      /OMB_API_OPTION_SHARED OPENAPI_MCP_AUTH_API_KEY is given for all 2 APIs[\s\S]*OPENAPI_MCP_ERP__AUTH_API_KEY/,
    ],
    [
      "--base-url for every API",
      [ERP, CRM, "--base-url", "http://127.0.0.1:9"],
      {},
      /OMB_API_OPTION_SHARED --base-url/,
    ],
    [
      "the same spec twice",
      [ERP, ERP],
      {},
      /OMB_NAMESPACE .* would both be served under the namespace "erp" \(from their titles\)/,
    ],
    [
      "a namespace with __",
      [ERP, CRM, "--namespace", "e__rp,crm"],
      {},
      /OMB_NAMESPACE .*"e__rp" is not a namespace/,
    ],
    [
      "more namespaces than specs",
      [ERP, "--namespace", "a,b"],
      {},
      /OMB_NAMESPACE --namespace names 2 namespaces for 1 spec/,
    ],
    [
      "an API's variable for an option of the whole bridge",
      [ERP, CRM],
      { OPENAPI_MCP_ERP__TRANSPORT: "http" },
      /OMB_API_VARIABLE OPENAPI_MCP_ERP__TRANSPORT sets an option of the whole bridge for one API[\s\S]*OPENAPI_MCP_TRANSPORT/,
    ],
    [
      "--watch-interval without --watch",
      [ERP, "--watch-interval", "100"],
      {},
      /OMB_WATCH --watch-interval is given without --watch/,
    ],
  ])("refuses %s, exit code 2", async (_what, args, env, want) => {
    const run = await runCli(["serve", ...args], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(want);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stdout).toBe("");
  });

  it("serves docs/serve.md's bundled config file as written (examples/several-apis)", async () => {
    const bridge = await connectStdio("--config", ["examples/several-apis/bridge.yaml"], {
      ERP_KEY,
      CRM_KEY,
    });
    try {
      // The ERP's include-tools leaves out order_cancel; the CRM's tools are all served.
      expect(bridge.tools.map((t) => t.name).sort()).toEqual([
        "crm__customer_get",
        "crm__order_query",
        "erp__order_create",
        "erp__order_query",
      ]);
      expect(bridge.stderr()).toMatch(/2 APIs: erp, crm/);
      expect(bridge.stderr()).not.toMatch(/OMB_API_VARIABLE/);
      const created = await bridge.call("erp__order_create", {});
      expect(textOf(created)).toMatch(/Invalid arguments for tool erp__order_create/);
    } finally {
      await bridge.close();
    }
  });

  it("warns about a variable whose namespace is not served, and serves", async () => {
    const bridge = await connectStdio(ERP, [CRM], { OPENAPI_MCP_ERPP__TIMEOUT: "5000" });
    try {
      expect(bridge.tools).toHaveLength(5);
      expect(bridge.stderr()).toMatch(
        /warning OMB_API_VARIABLE OPENAPI_MCP_ERPP__TIMEOUT is ignored: no API served here has its namespace/,
      );
    } finally {
      await bridge.close();
    }
  });

  it("refuses a config file with a bad option, naming the key", async () => {
    const config = join(dir, "bad.json");
    writeFileSync(config, JSON.stringify({ apis: { erp: { spec: ERP, timeout: "soon" } } }));
    const run = await runCli(["serve", "--config", config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/OMB_BRIDGE_CONFIG .*bad\.json: apis\.erp\.timeout: expected a whole number/);
  });
});
