/**
 * Streamable HTTP hardening: bearer-token protection of the bridge itself (never forwarded
 * upstream), the request body limit, Host/Origin checks, and stateless replicas behind a
 * round-robin proxy serving one client.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BridgeRuntime, createBridgeRuntime } from "../../src/runtime/engine/bridge-runtime.js";
import { type RunningHttpServer, startHttpServer } from "../../src/runtime/transport/streamable-http.js";
import { connectHttp, type HttpBridge, startHttpBridge } from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { planSpec } from "./safety-support.js";

const TOKEN = "bridge-token-0123456789";
let upstream: Upstream;
const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const paths = {
  "/pets/{id}": {
    get: {
      operationId: "getPet",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      responses: ok,
    },
  },
};

beforeAll(async () => {
  upstream = await startUpstream((req, res) =>
    sendJson(res, 200, { path: req.rawPath, authorization: req.header("authorization") ?? null }),
  );
});
afterAll(async () => {
  await upstream.close();
});

function newRuntime(): BridgeRuntime {
  return createBridgeRuntime(planSpec({ servers: [{ url: upstream.url }], paths }), { env: {} });
}

async function sdkClient(url: string, headers?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "safety-http", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined),
  );
  return client;
}

function initialize(url: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body:
      body ??
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
  });
}

/** A raw request with a Host header of our choosing (fetch would not send one). */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { host, "content-type": "application/json" },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end("{}");
  });
}

describe("bearer-token protection and limits (library)", () => {
  let runtime: BridgeRuntime;
  let running: RunningHttpServer;

  beforeAll(async () => {
    runtime = newRuntime();
    running = await startHttpServer(runtime, { port: 0, bearerToken: TOKEN, maxBodyBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await running.close();
    await runtime.close();
  });

  it.each([
    ["no Authorization", {}],
    ["a wrong token", { authorization: "Bearer nope" }],
    ["the token as Basic", { authorization: `Basic ${TOKEN}` }],
    ["a token with a suffix", { authorization: `Bearer ${TOKEN}x` }],
  ])("refuses %s with 401 and a WWW-Authenticate challenge", async (_label, headers) => {
    const response = await initialize(running.url, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="openapi-mcp-bridge"');
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "Unauthorized",
    );
  });

  it("serves a client with the token, and never forwards the token upstream", async () => {
    upstream.reset();
    const client = await sdkClient(running.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const result = (await client.callTool({ name: "getPet", arguments: { id: 3 } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ path: "/pets/3", authorization: null });
      expect(JSON.stringify(upstream.requests.map((r) => r.rawHeaders))).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  });

  it("keeps the health check open", async () => {
    const health = await fetch(running.url.replace(/\/mcp$/, "/healthz"));
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
  });

  it("refuses a body over the limit with 413 and keeps serving", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(100_000) },
    });
    const response = await initialize(running.url, { authorization: `Bearer ${TOKEN}` }, huge);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Request body larger than 65536 bytes",
    );
    const again = await initialize(running.url, { authorization: `Bearer ${TOKEN}` });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it("refuses a body that is not JSON with -32700", async () => {
    const response = await initialize(running.url, { authorization: `Bearer ${TOKEN}` }, "{not json");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("refuses a non-loopback Host (DNS rebinding) and a foreign Origin", async () => {
    expect(await postWithHost(running.url, "evil.example:80")).toBe(403);
    const response = await initialize(running.url, {
      authorization: `Bearer ${TOKEN}`,
      origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    await response.body?.cancel();
  });
});

describe("sessions", () => {
  const ping = (url: string, id: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });

  it("beyond the cap, a new session closes the oldest one that never came back; an ended one frees its place", async () => {
    const runtime = newRuntime();
    const running = await startHttpServer(runtime, { port: 0, maxSessions: 2 });
    try {
      const first = await initialize(running.url);
      const second = await initialize(running.url);
      const alive = await ping(running.url, second.headers.get("mcp-session-id")!);
      expect(alive.status).toBe(200); // the second came back: established
      const third = await initialize(running.url);
      expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
      await Promise.all([first, second, third, alive].map((r) => r.body?.cancel()));
      const gone = await ping(running.url, first.headers.get("mcp-session-id")!);
      expect(gone.status).toBe(404);
      await gone.body?.cancel();
      const ended = await fetch(running.url, {
        method: "DELETE",
        headers: { "mcp-session-id": second.headers.get("mcp-session-id")! },
      });
      expect(ended.status).toBe(200);
      const fourth = await initialize(running.url);
      expect(fourth.status).toBe(200);
      await fourth.body?.cancel();
    } finally {
      await running.close();
      await runtime.close();
    }
  });

  it("a session idle for longer than sessionIdleMs is closed", async () => {
    // The session's clock (Date) and its sweep (setInterval) are the test's.
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const runtime = newRuntime();
    const running = await startHttpServer(runtime, { port: 0, sessionIdleMs: 50 });
    try {
      const first = await initialize(running.url);
      expect(first.status).toBe(200);
      await first.body?.cancel();
      const second = await initialize(running.url);
      await second.body?.cancel();
      // Both sessions opened at the same (stopped) time. Moving the fake timers moves the clock
      // too: the sweep (every idle time / 2) runs at opened + 49, then at opened + 74.
      const opened = Date.now();
      vi.setSystemTime(opened + 24);
      vi.advanceTimersByTime(25);
      expect(Date.now()).toBe(opened + 49);
      const kept = await ping(running.url, second.headers.get("mcp-session-id")!);
      expect(kept.status).toBe(200);
      await kept.body?.cancel();
      vi.advanceTimersByTime(25);
      const gone = await ping(running.url, first.headers.get("mcp-session-id")!);
      expect(gone.status).toBe(404);
      await gone.body?.cancel();
    } finally {
      vi.useRealTimers();
      await running.close();
      await runtime.close();
    }
  });
});

describe("stateless replicas", () => {
  it("two replicas behind a round-robin proxy serve one client without errors", async () => {
    const runtimes = [newRuntime(), newRuntime()];
    const replicas = await Promise.all(runtimes.map((r) => startHttpServer(r, { port: 0, stateless: true })));
    const served = [0, 0];
    let next = 0;
    const proxy: Server = createServer((req, res) => {
      const index = next++ % replicas.length;
      served[index]!++;
      const target = new URL(replicas[index]!.url);
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const { port } = proxy.address() as AddressInfo;
    try {
      const client = await sdkClient(`http://127.0.0.1:${port}/mcp`);
      try {
        for (let i = 0; i < 10; i++) {
          const result = (await client.callTool({ name: "getPet", arguments: { id: i } })) as CallToolResult;
          expect(result.structuredContent).toEqual({ path: `/pets/${i}`, authorization: null });
        }
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["getPet"]);
      } finally {
        await client.close();
      }
      expect(served[0]).toBeGreaterThan(3);
      expect(served[1]).toBeGreaterThan(3);
    } finally {
      await new Promise((resolve) => {
        proxy.close(resolve);
        proxy.closeAllConnections();
      });
      for (const replica of replicas) await replica.close();
      for (const runtime of runtimes) await runtime.close();
    }
  });
});

describe("the CLI", () => {
  let bridge: HttpBridge;
  beforeAll(async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const spec = join(mkdtempSync(join(tmpdir(), "omb-http-")), "api.json");
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "T", version: "1" },
        servers: [{ url: upstream.url }],
        paths,
      }),
    );
    bridge = await startHttpBridge(spec, ["--max-body-bytes", "4000"], { OPENAPI_MCP_HTTP_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await bridge?.stop();
  });

  it("takes the token from OPENAPI_MCP_HTTP_TOKEN and the body limit from --max-body-bytes, and prints neither token", async () => {
    expect((await initialize(bridge.endpoint)).status).toBe(401);
    const client = await connectHttp(bridge, { Authorization: `Bearer ${TOKEN}` });
    try {
      expect((await client.call("getPet", { id: 1 })).structuredContent).toEqual({
        path: "/pets/1",
        authorization: null,
      });
    } finally {
      await client.close();
    }
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(5000) } });
    const response = await initialize(bridge.endpoint, { authorization: `Bearer ${TOKEN}` }, big);
    expect(response.status).toBe(413);
    await response.body?.cancel();
    expect(bridge.stdout() + bridge.stderr()).not.toContain(TOKEN);
  });
});
