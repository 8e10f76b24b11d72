/**
 * Both protocol eras from one built CLI: a v2 SDK client pinned to 2026-07-28 (no initialize:
 * `server/discover`, the per-request `_meta` envelope, the Mcp-Method/Mcp-Name headers on HTTP)
 * and the 1.x SDK client (a 2025-era client nobody rewrote) against the same process, over stdio
 * and Streamable HTTP (sessionful and --stateless): the same tools in the same order, calls,
 * errors, and discovery mode.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toLegacyListing } from "../../src/runtime/server/meta-keys.js";
import {
  CLI,
  type Connected,
  connectHttp,
  connectStdio,
  fixture,
  type HttpBridge,
  listAllTools,
  ROOT,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";
import { WIRE_SPECS, wireResponder } from "./wire-cases.js";

const SPEC = fixture(WIRE_SPECS["3.1"]);
const MODERN = "2026-07-28";

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream(wireResponder);
});

afterAll(async () => {
  await upstream.close();
});

function modernClient(): Client {
  return new Client(
    { name: "omb-eras-e2e", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
}

function env(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function modernStdio(args: string[]): Promise<Client> {
  const client = modernClient();
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", SPEC, "--base-url", `${upstream.url}/base`, ...args],
      env: env(),
      cwd: ROOT,
      stderr: "ignore",
    }),
  );
  return client;
}

async function modernHttp(endpoint: string): Promise<Client> {
  const client = modernClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
}

interface Pair {
  modern: Client;
  legacy: Connected;
  close(): Promise<void>;
}

const transports: [string, (args: string[]) => Promise<Pair>][] = [
  [
    "stdio",
    async (args) => {
      const modern = await modernStdio(args);
      const legacy = await connectStdio(SPEC, ["--base-url", `${upstream.url}/base`, ...args]);
      return {
        modern,
        legacy,
        close: async () => {
          await modern.close();
          await legacy.close();
        },
      };
    },
  ],
  ...(["sessionful", "stateless"] as const).map((mode): [string, (args: string[]) => Promise<Pair>] => [
    `Streamable HTTP, ${mode}`,
    async (args) => {
      const server: HttpBridge = await startHttpBridge(SPEC, [
        "--base-url",
        `${upstream.url}/base`,
        ...(mode === "stateless" ? ["--stateless"] : []),
        ...args,
      ]);
      const modern = await modernHttp(server.endpoint);
      const legacy = await connectHttp(server);
      return {
        modern,
        legacy,
        close: async () => {
          await modern.close();
          await legacy.close();
          await server.stop();
        },
      };
    },
  ]),
];

describe.each(transports)("both eras over %s", (_name, open) => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await open([]);
  }, 30_000);

  afterAll(async () => {
    await pair?.close();
  });

  it("negotiates 2026-07-28 without initialize, and serves the 2025 client next to it", async () => {
    expect(pair.modern.getProtocolEra()).toBe("modern");
    expect(pair.modern.getServerVersion()?.name).toBe("openapi-mcp-bridge");
    expect(pair.modern.getServerCapabilities()?.tools).toBeDefined();
    expect(pair.legacy.tools.length).toBeGreaterThan(0);
  });

  it("lists the same tools, in the same order, in both eras", async () => {
    const modern = (await pair.modern.listTools()).tools;
    expect(modern.map((tool) => tool.name)).toEqual(pair.legacy.tools.map((tool) => tool.name));
    // The bridge's _meta keys differ by era: the old prefix for 2025 clients (server/meta-keys.ts).
    const asLegacy = toLegacyListing({ tools: modern as { _meta?: Record<string, unknown> }[] }).tools;
    expect(JSON.parse(JSON.stringify(asLegacy))).toEqual(JSON.parse(JSON.stringify(pair.legacy.tools)));
    expect(JSON.stringify(modern)).toContain('"io.github.openapi-mcp-bridge/contract"');
    expect(await listAllTools(pair.legacy.client)).toEqual(pair.legacy.tools);
  });

  it("calls a tool in the 2026 era", async () => {
    const result = await pair.modern.callTool({ name: "getPet", arguments: { petId: 9 } });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ id: 9, name: "Rex" });
    const legacy = await pair.legacy.call("getPet", { petId: 9 });
    expect(legacy.structuredContent).toEqual(result.structuredContent);
  });

  it("answers an invalid argument with a tool error and an unknown tool with -32602", async () => {
    const invalid = await pair.modern.callTool({ name: "getPet", arguments: { petId: "not a number" } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).not.toBe("");
    const unknown = await pair.modern.callTool({ name: "noSuchTool", arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).code).toBe(-32602);
  });
});

describe.each(transports)("discovery mode in the 2026 era over %s", (_name, open) => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await open(["--mode", "discovery"]);
  }, 30_000);

  afterAll(async () => {
    await pair?.close();
  });

  it("lists the three discovery tools and calls an operation through them", async () => {
    const names = (await pair.modern.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(pair.legacy.tools.map((tool) => tool.name));
    expect(names).toEqual(["search_operations", "describe_operations", "call_operation"]);
    const found = await pair.modern.callTool({ name: "search_operations", arguments: { query: "pet" } });
    expect(textOf(found)).toContain("getPet");
    const called = await pair.modern.callTool({
      name: "call_operation",
      arguments: { name: "getPet", arguments: { petId: 9 } },
    });
    expect(called.isError ?? false).toBe(false);
    expect(textOf(called)).toContain("Rex");
  });
});

describe("the 2026-07-28 wire over HTTP, raw", () => {
  let server: HttpBridge;

  beforeAll(async () => {
    server = await startHttpBridge(SPEC, ["--base-url", `${upstream.url}/base`]);
  });

  afterAll(async () => {
    await server.stop();
  });

  const envelope = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };

  function post(method: string, params: Record<string, unknown>, headers: Record<string, string>) {
    return fetch(server.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 41, method, params: { ...params, _meta: envelope } }),
    });
  }

  it("answers server/discover with the supported versions and the server's identity", async () => {
    const response = await post("server/discover", {}, { "mcp-method": "server/discover" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: unknown; result: Record<string, unknown> };
    expect(body.id).toBe(41);
    expect(body.result["supportedVersions"]).toContain(MODERN);
    expect(JSON.stringify(body.result)).toContain("openapi-mcp-bridge");
  });

  it("refuses a request whose Mcp-Name header disagrees with its body, echoing the request id", async () => {
    const response = await post(
      "tools/call",
      { name: "getPet", arguments: { petId: 9 } },
      { "mcp-method": "tools/call", "mcp-name": "listPets" },
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { id: unknown; error: { code: number } };
    expect(body.id).toBe(41);
    expect(body.error.code).toBe(-32020);
  });

  it("still guards the endpoint: a foreign Origin is refused before either era's code", async () => {
    const response = await post(
      "server/discover",
      {},
      { "mcp-method": "server/discover", origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
  });
});
