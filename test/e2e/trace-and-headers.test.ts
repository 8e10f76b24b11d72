/**
 * The 2026-07-28 port's wire details, from the built CLI, with a recording upstream:
 * - W3C trace context from a tools/call's `_meta` reaches the API as `traceparent` /
 *   `tracestate` (each API call of a code-mode program too) and the audit line as `traceId`,
 *   for a v2 client pinned to 2026-07-28 and for the 1.x SDK client; a malformed value never
 *   leaves the bridge, and an operator's `--header traceparent` wins;
 * - header parameters mirrored as `Mcp-Param-*` (the spec's `x-mcp-header`, an override's
 *   `mcpHeaders`, never a credential): the v2 client sends them, and a request whose header
 *   disagrees with its body is refused (400, -32020) before the API is called;
 * - the bridge's `_meta` keys: the reverse-DNS prefix for 2026-07-28 requests, the old keys for
 *   2025-era clients.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ModernClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CLI,
  type Connected,
  connectHttp,
  connectStdio,
  type HttpBridge,
  ROOT,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { type RecordedRequest, startUpstream, type Upstream } from "../helpers/upstream.js";

const MODERN = "2026-07-28";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const TRACESTATE = "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE";
const NEW_CATALOG = "io.github.openapi-mcp-bridge/catalog";
const OLD_CATALOG = "openapi-mcp-bridge/catalog";
const NEW_CONTRACT = "io.github.openapi-mcp-bridge/contract";
const OLD_CONTRACT = "openapi-mcp-bridge/contract";

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Tenants", version: "1" },
  servers: [{ url: "http://127.0.0.1:1" }],
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        parameters: [
          {
            name: "X-Tenant-Id",
            in: "header",
            required: true,
            schema: { type: "string" },
            "x-mcp-header": "Tenant",
          },
          { name: "X-Api-Version", in: "header", schema: { type: "integer" } },
          { name: "X-Session-Token", in: "header", schema: { type: "string" }, "x-mcp-header": "Session" },
          { name: "q", in: "query", schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
  },
};
const OVERRIDES = { listThings: { mcpHeaders: { "X-Api-Version": "Api-Version" } } };

let dir: string;
let specPath: string;
let overridesPath: string;
let upstream: Upstream;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "omb-trace-"));
  specPath = join(dir, "openapi.json");
  overridesPath = join(dir, "overrides.json");
  await writeFile(specPath, JSON.stringify(SPEC));
  await writeFile(overridesPath, JSON.stringify(OVERRIDES));
  upstream = await startUpstream((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
});

afterAll(async () => {
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.reset();
});

function serveArgs(auditLog: string, extra: string[] = []): string[] {
  return ["--base-url", upstream.url, "--overrides", overridesPath, "--audit-log", auditLog, ...extra];
}

function modernClient(): ModernClient {
  return new ModernClient(
    { name: "omb-trace-e2e", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
}

/** The audit lines once there are `count` of them (the log is written as calls end). */
async function auditLines(path: string, count: number): Promise<Record<string, unknown>[]> {
  for (let round = 0; round < 400; round++) {
    const text = await readFile(path, "utf8").catch(() => "");
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    if (lines.length >= count) return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} audit lines in ${path}`);
}

function traceOf(request: RecordedRequest | undefined): { traceparent?: string; tracestate?: string } {
  const traceparent = request?.header("traceparent");
  const tracestate = request?.header("tracestate");
  return {
    ...(traceparent !== undefined ? { traceparent } : {}),
    ...(tracestate !== undefined ? { tracestate } : {}),
  };
}

/** What each era's client is given to call with: `_meta` passed through as the client sends it. */
interface EraClient {
  call(
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<{ isError?: boolean; content: unknown[] }>;
  list(): Promise<{
    tools: { name: string; inputSchema: unknown; _meta?: Record<string, unknown> }[];
    _meta?: Record<string, unknown>;
  }>;
  close(): Promise<void>;
}

function fromModern(client: ModernClient): EraClient {
  return {
    call: async (name, args, meta) =>
      (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as {
        isError?: boolean;
        content: unknown[];
      },
    list: async () => (await client.listTools()) as Awaited<ReturnType<EraClient["list"]>>,
    close: () => client.close(),
  };
}

function fromLegacy(connected: Connected): EraClient {
  return {
    call: async (name, args, meta) =>
      (await connected.client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as {
        isError?: boolean;
        content: unknown[];
      },
    list: async () => (await connected.client.listTools()) as Awaited<ReturnType<EraClient["list"]>>,
    close: () => connected.close(),
  };
}

interface Opened {
  client: EraClient;
  era: "modern" | "legacy";
  audit: string;
  close(): Promise<void>;
}

let opened = 0;
const nextAudit = () => join(dir, `audit-${++opened}.jsonl`);

/** Each era's client over HTTP and stdio, against its own bridge process. */
const SETUPS: [string, (extra?: string[]) => Promise<Opened>][] = [
  [
    "a v2 client pinned to 2026-07-28 over Streamable HTTP",
    async (extra = []) => {
      const audit = nextAudit();
      const bridge = await startHttpBridge(specPath, serveArgs(audit, extra));
      const client = modernClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
      // A client lists before it calls: that is how it learns which arguments to mirror as headers.
      await client.listTools();
      return {
        client: fromModern(client),
        era: "modern",
        audit,
        close: async () => {
          await client.close();
          await bridge.stop();
        },
      };
    },
  ],
  [
    "a v2 client pinned to 2026-07-28 over stdio",
    async (extra = []) => {
      const audit = nextAudit();
      const client = modernClient();
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, "serve", specPath, ...serveArgs(audit, extra)],
          env: { PATH: process.env.PATH ?? "" },
          cwd: ROOT,
          stderr: "ignore",
        }),
      );
      return { client: fromModern(client), era: "modern", audit, close: () => client.close() };
    },
  ],
  [
    "the 1.x SDK client over Streamable HTTP",
    async (extra = []) => {
      const audit = nextAudit();
      const bridge = await startHttpBridge(specPath, serveArgs(audit, extra));
      const connected = await connectHttp(bridge);
      return {
        client: fromLegacy(connected),
        era: "legacy",
        audit,
        close: async () => {
          await connected.close();
          await bridge.stop();
        },
      };
    },
  ],
  [
    "the 1.x SDK client over stdio",
    async (extra = []) => {
      const audit = nextAudit();
      const connected = await connectStdio(specPath, serveArgs(audit, extra));
      return { client: fromLegacy(connected), era: "legacy", audit, close: () => connected.close() };
    },
  ],
];

describe.each(SETUPS)("trace context with %s", (_name, open) => {
  let setup: Opened;

  beforeAll(async () => {
    setup = await open();
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  it("sends the call's traceparent and tracestate upstream and names the trace in the audit line", async () => {
    const result = await setup.client.call(
      "listThings",
      { "X-Tenant-Id": "acme" },
      { traceparent: TRACEPARENT, tracestate: TRACESTATE },
    );
    expect(result.isError ?? false).toBe(false);
    expect(upstream.requests).toHaveLength(1);
    expect(traceOf(upstream.requests[0])).toEqual({ traceparent: TRACEPARENT, tracestate: TRACESTATE });
    const [line] = await auditLines(setup.audit, 1);
    expect(line).toMatchObject({ tool: "listThings", outcome: "ok", traceId: TRACE_ID });
  });

  it("drops a malformed traceparent (and the tracestate with it): nothing of it goes upstream", async () => {
    const malformed = `00-${TRACE_ID}-0000000000000000-01`; // an all-zero parent id is invalid
    const result = await setup.client.call(
      "listThings",
      { "X-Tenant-Id": "acme" },
      { traceparent: malformed, tracestate: TRACESTATE },
    );
    expect(result.isError ?? false).toBe(false);
    expect(upstream.requests).toHaveLength(1);
    expect(traceOf(upstream.requests[0])).toEqual({});
    const lines = await auditLines(setup.audit, 2);
    expect(lines[1]).not.toHaveProperty("traceId");
  });

  it("sends no trace headers for a call that brings none", async () => {
    await setup.client.call("listThings", { "X-Tenant-Id": "acme" });
    expect(traceOf(upstream.requests[0])).toEqual({});
  });

  it("serves the _meta keys of its era", async () => {
    const listed = await setup.client.list();
    const [catalog, contract, absent] =
      setup.era === "modern"
        ? [NEW_CATALOG, NEW_CONTRACT, OLD_CATALOG]
        : [OLD_CATALOG, OLD_CONTRACT, NEW_CATALOG];
    expect(listed._meta?.[catalog]).toEqual({ catalogVersion: "1.0.0" });
    expect(listed._meta).not.toHaveProperty([absent]);
    expect(listed.tools[0]?._meta?.[contract]).toMatchObject({ contractVersion: 1 });
    // A call's error facts: the same rule (an argument that fails the schema).
    const invalid = (await setup.client.call("listThings", {})) as {
      isError?: boolean;
      _meta?: Record<string, unknown>;
    };
    expect(invalid.isError).toBe(true);
    const errorKey =
      setup.era === "modern" ? "io.github.openapi-mcp-bridge/error" : "openapi-mcp-bridge/error";
    expect(invalid._meta?.[errorKey]).toMatchObject({ category: "invalid_argument" });
  });
});

describe("trace context and the operator's configured header", () => {
  it("never replaces a --header traceparent", async () => {
    const audit = nextAudit();
    const operator = `00-${"1".repeat(32)}-${"2".repeat(16)}-01`;
    const connected = await connectStdio(
      specPath,
      serveArgs(audit, ["--header", `traceparent: ${operator}`]),
    );
    try {
      await connected.client.callTool({
        name: "listThings",
        arguments: { "X-Tenant-Id": "acme" },
        _meta: { traceparent: TRACEPARENT, tracestate: TRACESTATE },
      });
      expect(traceOf(upstream.requests[0])).toEqual({ traceparent: operator });
    } finally {
      await connected.close();
    }
  });
});

describe("trace context in code mode", () => {
  it.each(SETUPS.filter(([name]) => name.includes("HTTP")))(
    "reaches every API call of the program, with %s",
    async (_name, open) => {
      const setup = await open(["--mode", "code"]);
      try {
        const result = await setup.client.call(
          "execute",
          {
            program:
              'await api.listThings({ "X-Tenant-Id": "a" });\nawait api.listThings({ "X-Tenant-Id": "b" });\nreturn "done";',
          },
          { traceparent: TRACEPARENT },
        );
        expect(textOf(result as { content: { type: string }[] })).toContain("done");
        expect(upstream.requests.map((request) => request.header("x-tenant-id"))).toEqual(["a", "b"]);
        expect(upstream.requests.map((request) => traceOf(request))).toEqual([
          { traceparent: TRACEPARENT },
          { traceparent: TRACEPARENT },
        ]);
        const lines = await auditLines(setup.audit, 3);
        expect(lines.filter((line) => line.tool === "listThings").map((line) => line.traceId)).toEqual([
          TRACE_ID,
          TRACE_ID,
        ]);
      } finally {
        await setup.close();
      }
    },
    30_000,
  );
});

describe("Mcp-Param-* headers (x-mcp-header)", () => {
  let bridge: HttpBridge;
  let audit: string;

  beforeAll(async () => {
    audit = nextAudit();
    bridge = await startHttpBridge(specPath, serveArgs(audit));
  });

  afterAll(async () => {
    await bridge.stop();
  });

  it("marks the asked-for header arguments, never the credential-looking one", async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
    try {
      const [tool] = (await client.listTools()).tools;
      const properties = tool!.inputSchema.properties as Record<string, Record<string, unknown>>;
      expect(properties["X-Tenant-Id"]?.["x-mcp-header"]).toBe("Tenant");
      expect(properties["X-Api-Version"]?.["x-mcp-header"]).toBe("Api-Version");
      // A credential-looking header is no argument at all (filled or withheld, never the model's);
      // the planner's refusal to mark one is in test/unit/compile/mcp-headers.test.ts.
      expect(properties).not.toHaveProperty("X-Session-Token");
      expect(properties.q).not.toHaveProperty("x-mcp-header");
      // The v2 client mirrors the values; the bridge finds them equal and calls the API.
      const result = await client.callTool({
        name: "listThings",
        arguments: { "X-Tenant-Id": "acme", "X-Api-Version": 3 },
      });
      expect(result.isError ?? false).toBe(false);
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]?.header("x-tenant-id")).toBe("acme");
      expect(upstream.requests[0]?.header("x-api-version")).toBe("3");
    } finally {
      await client.close();
    }
  });

  const envelope = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const post = (args: Record<string, unknown>, headers: Record<string, string>) =>
    fetch(bridge.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "listThings",
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 77,
        method: "tools/call",
        params: { name: "listThings", arguments: args, _meta: envelope },
      }),
    });

  const refusals: { why: string; args: Record<string, unknown>; headers: Record<string, string> }[] = [
    {
      why: "a header that disagrees with the body",
      args: { "X-Tenant-Id": "acme" },
      headers: { "mcp-param-tenant": "other" },
    },
    { why: "a header missing for a value in the body", args: { "X-Tenant-Id": "acme" }, headers: {} },
    {
      why: "an integer header that disagrees",
      args: { "X-Tenant-Id": "acme", "X-Api-Version": 3 },
      headers: { "mcp-param-tenant": "acme", "mcp-param-api-version": "4" },
    },
    {
      why: "a broken Base64 value",
      args: { "X-Tenant-Id": "acme" },
      headers: { "mcp-param-tenant": "=?base64?***?=" },
    },
  ];
  it.each(refusals)(
    "refuses $why with 400 and -32020, echoing the id, before calling the API",
    async ({ args, headers }) => {
      const response = await post(args, headers);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBe(77);
      expect(body.error.code).toBe(-32020);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("accepts a Base64-encoded header equal to the body", async () => {
    const value = " padded ";
    const response = await post(
      { "X-Tenant-Id": value },
      { "mcp-param-tenant": `=?base64?${Buffer.from(value).toString("base64")}?=` },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"ok"');
    expect(upstream.requests).toHaveLength(1);
  });
});
