/**
 * Transport and limits: a flood of `initialize` requests cannot lock real clients out; a deeply
 * nested upstream answer still gets exactly one answer over stdio and HTTP; a stdio message over
 * the limit is refused with an error for its request and the bridge keeps serving; any loopback
 * address keeps the Host check; a non-loopback --host without --http-token warns loudly; the
 * confirmation prompt shows bidi and control characters as escapes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { neutralise } from "../../src/runtime/access/confirm.js";
import { type BridgeRuntime, createBridgeRuntime } from "../../src/runtime/engine/bridge-runtime.js";
import { isLoopbackAddress } from "../../src/runtime/transport/guards.js";
import { startHttpServer } from "../../src/runtime/transport/streamable-http.js";
import { connectHttp, connectStdio, startHttpBridge, textOf } from "../helpers/bridge.js";
import { sendBytes, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, textOf as memoryTextOf, planSpec, TOY_PATHS } from "./safety-support.js";

const DEPTH = 6000;
const deep = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
const objectSchema = { type: "object", properties: { id: { type: "string" } } };
const paths = {
  "/deep": {
    get: {
      operationId: "getDeep",
      responses: { "200": { description: "OK", content: { "application/json": {} } } },
    },
  },
  "/deep-typed": {
    get: {
      operationId: "getDeepTyped",
      responses: { "200": { description: "OK", content: { "application/json": { schema: objectSchema } } } },
    },
  },
  "/deep-error": {
    get: {
      operationId: "getDeepError",
      responses: { "200": { description: "OK", content: { "application/json": {} } } },
    },
  },
  "/upload": {
    post: {
      operationId: "upload",
      requestBody: {
        content: {
          "application/json": { schema: { type: "object", properties: { data: { type: "string" } } } },
        },
      },
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
  },
};

let upstream: Upstream;
let specFile: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.rawPath === "/deep" || req.rawPath === "/deep-typed")
      return sendBytes(res, 200, "application/json", deep);
    if (req.rawPath === "/deep-error") return sendBytes(res, 500, "application/json", deep);
    sendJson(res, 200, { received: req.body.length });
  });
  const dir = mkdtempSync(join(tmpdir(), "omb-limits-"));
  specFile = join(dir, "spec.json");
  writeFileSync(
    specFile,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Limits", version: "1" },
      servers: [{ url: upstream.url }],
      paths,
    }),
  );
});
afterAll(async () => {
  await upstream.close();
});

function initialize(url: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "flood", version: "1" },
      },
    }),
  });
}

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: "real", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("sessions", () => {
  const newRuntime = (): BridgeRuntime =>
    createBridgeRuntime(planSpec({ servers: [{ url: upstream.url }], paths }), { env: {} });

  it("a flood of initialize requests that never come back cannot lock a real client out", async () => {
    const runtime = newRuntime();
    const running = await startHttpServer(runtime, { port: 0, maxSessions: 20 });
    try {
      const flood = await Promise.all(Array.from({ length: 60 }, () => initialize(running.url)));
      await Promise.all(flood.map((r) => r.body?.cancel()));
      expect(flood.every((r) => r.status === 200)).toBe(true);
      const client = await sdkClient(running.url);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("getDeep");
      await client.close();
    } finally {
      await running.close();
      await runtime.close();
    }
  });

  it("sessions in use are never closed for a new one: only then is it refused with 503", async () => {
    const runtime = newRuntime();
    const running = await startHttpServer(runtime, { port: 0, maxSessions: 2 });
    try {
      const alice = await sdkClient(running.url);
      const bob = await sdkClient(running.url);
      const third = await initialize(running.url);
      expect(third.status).toBe(503);
      expect(await third.text()).toContain("Too many open sessions (2, all in use)");
      expect((await alice.listTools()).tools.length).toBeGreaterThan(0);
      expect((await bob.listTools()).tools.length).toBeGreaterThan(0);
      await Promise.all([alice.close(), bob.close()]);
    } finally {
      await running.close();
      await runtime.close();
    }
  });

  it("a session that sends nothing after initialize is closed early; an established one stays", async () => {
    // The sessions' clock (Date) and their sweep (setInterval) are the test's: one sweep past
    // both handshake times closes the one and keeps the other, with nothing raced.
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const runtime = newRuntime();
    const running = await startHttpServer(runtime, {
      port: 0,
      sessionIdleMs: 60_000,
      sessionHandshakeMs: 100,
    });
    try {
      const abandoned = await initialize(running.url);
      await abandoned.body?.cancel();
      const id = abandoned.headers.get("mcp-session-id")!;
      const client = await sdkClient(running.url);
      vi.setSystemTime(Date.now() + 100);
      vi.advanceTimersByTime(50); // the sweep (every handshake time / 2)
      const ping = await fetch(running.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": id,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
      });
      expect(ping.status).toBe(404);
      await ping.body?.cancel();
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      vi.useRealTimers();
      await running.close();
      await runtime.close();
    }
  });

  it("serve takes --max-sessions and --session-idle-timeout", async () => {
    const bridge = await startHttpBridge(specFile, [
      "--max-sessions",
      "1",
      "--session-idle-timeout",
      "600000",
    ]);
    try {
      const client = await sdkClient(bridge.endpoint);
      const refused = await initialize(bridge.endpoint);
      expect(refused.status).toBe(503);
      expect(await refused.text()).toContain("Too many open sessions (1, all in use)");
      await client.close();
    } finally {
      await bridge.stop();
    }
  });
});

describe("a deeply nested upstream answer gets exactly one answer", () => {
  it("over stdio: as text, and as an error where the tool promises structured output", async () => {
    const bridge = await connectStdio(specFile);
    try {
      const plain = await bridge.call("getDeep");
      expect(plain.isError ?? false).toBe(false);
      expect(textOf(plain)).toContain("nests deeper than 100 levels");
      expect(textOf(plain)).toContain("[[[[[[[[");
      expect(plain.structuredContent).toBeUndefined();
      const failed = await bridge.call("getDeepError");
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/^Upstream error: HTTP 500/);
      expect((await bridge.call("upload", { data: "x" })).structuredContent).toEqual({ received: 12 });
    } finally {
      await bridge.close();
    }
  });

  it("over Streamable HTTP, a tool with an output schema included", async () => {
    const http = await startHttpBridge(specFile, ["--output-schemas"], {});
    try {
      const client = await connectHttp(http);
      const typed = await client.call("getDeepTyped");
      expect(typed.isError).toBe(true);
      expect(textOf(typed)).toContain("nests deeper than 100 levels");
      const plain = await client.call("getDeep");
      expect(textOf(plain)).toContain("nests deeper than 100 levels");
      await client.close();
    } finally {
      await http.stop();
    }
  });
});

describe("a stdio message over the limit", () => {
  it("is refused with an error for its request, said on stderr, and the bridge keeps serving", async () => {
    const bridge = await connectStdio(specFile, ["--max-message-bytes", "100000"]);
    try {
      await expect(bridge.call("upload", { data: "x".repeat(200_000) })).rejects.toThrow(
        /Request too large: \d+ bytes is over the bridge's limit of 100000 bytes/,
      );
      // stderr is a pipe of its own: its line may arrive a moment after the answer.
      const line =
        /error OMB_MESSAGE_TOO_LARGE refused a message of \d+ bytes over stdio \(request \d+\): the limit is 100000 bytes; still serving/;
      for (let i = 0; i < 100 && !line.test(bridge.stderr()); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(bridge.stderr()).toMatch(line);
      expect((await bridge.call("upload", { data: "x".repeat(1000) })).structuredContent).toEqual({
        received: 1011,
      });
    } finally {
      await bridge.close();
    }
  });

  it("the default limit is 10 MiB: an 11 MB upload is refused, a 5 MB one goes through", async () => {
    const bridge = await connectStdio(specFile);
    try {
      await expect(bridge.call("upload", { data: "y".repeat(11 * 1024 * 1024) })).rejects.toThrow(
        /Request too large: .* limit of 10485760 bytes/,
      );
      expect((await bridge.call("upload", { data: "y".repeat(5 * 1024 * 1024) })).structuredContent).toEqual({
        received: 5 * 1024 * 1024 + 11,
      });
    } finally {
      await bridge.close();
    }
  }, 60_000);
});

describe("loopback and exposure", () => {
  it.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["127.0.0.2", true],
    ["127.255.0.9", true],
    ["127.1", true],
    ["::1", true],
    ["[::1]", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.1", true],
    ["api.localhost", true],
    ["0.0.0.0", false],
    ["::", false],
    ["10.0.0.1", false],
    ["localhost.evil.example", false],
    ["128.0.0.1", false],
  ])("%s is loopback: %s", (host, expected) => {
    expect(isLoopbackAddress(host)).toBe(expected);
  });

  /** A raw request with a Host header of our choosing. */
  const postWithHost = (url: string, host: string) =>
    new Promise<number>((resolve, reject) => {
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

  it("bound to 127.0.0.2, the Host header must still be a loopback name (DNS rebinding)", async () => {
    const runtime = createBridgeRuntime(planSpec({ servers: [{ url: upstream.url }], paths }), { env: {} });
    const running = await startHttpServer(runtime, { port: 0, host: "127.0.0.2" });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
      expect(await postWithHost(running.url, "rebind.evil.example")).toBe(403);
      expect(await postWithHost(running.url, `127.0.0.2:${running.port}`)).not.toBe(403);
      expect(await postWithHost(running.url, `localhost:${running.port}`)).not.toBe(403);
    } finally {
      await running.close();
      await runtime.close();
    }
  });

  it("a non-loopback --host without --http-token warns loudly; with a token it does not", async () => {
    const open = await startHttpBridge(specFile, ["--host", "0.0.0.0"]);
    try {
      expect(open.stderr()).toMatch(
        /warning OMB_HTTP_EXPOSED the bridge listens on 0\.0\.0\.0 without --http-token: ANYONE WHO CAN REACH THIS PORT CAN CALL EVERY TOOL/,
      );
      expect(open.stderr()).toContain("hint: set OPENAPI_MCP_HTTP_TOKEN");
    } finally {
      await open.stop();
    }
    const guarded = await startHttpBridge(specFile, ["--host", "0.0.0.0"], {
      OPENAPI_MCP_HTTP_TOKEN: "t0ken-1234",
    });
    try {
      expect(guarded.stderr()).not.toContain("OMB_HTTP_EXPOSED");
    } finally {
      await guarded.stop();
    }
  });
});

describe("the confirmation prompt", () => {
  it.each([
    ["a right-to-left override", "invoice-\u202Efdp.exe", "invoice-\\u202Efdp.exe"],
    ["bidi isolates", "a\u2066b\u2069c", "a\\u2066b\\u2069c"],
    ["a zero-width space", "del\u200Bete", "del\\u200Bete"],
    ["a C1 control", "x\u0085y", "x\\u0085y"],
    ["a line separator", "x\u2028y", "x\\u2028y"],
    ["plain text with accents", "café ünïcode", "café ünïcode"],
  ])("shows %s as escapes", (_what, text, shown) => {
    expect(neutralise(text)).toBe(shown);
  });

  it("the user reads the escapes, never the raw characters the model chose", async () => {
    const messages: string[] = [];
    const bridge = await connectRuntime(
      planSpec({ servers: [{ url: upstream.url }], paths: TOY_PATHS }),
      { env: {}, access: { destructive: "confirm" } },
      {
        elicit: (message) => {
          messages.push(message);
          return { action: "decline" };
        },
      },
    );
    try {
      const result = await bridge.call("deletePet", { id: "7\u202E\u2066 (harmless)" });
      expect(memoryTextOf(result)).toContain("did not allow");
      expect(messages).toHaveLength(1);
      expect(messages[0]).toContain("7\\u202E\\u2066 (harmless)");
      expect(messages[0]).not.toMatch(/[\u202E\u2066]/);
    } finally {
      await bridge.close();
    }
  });
});
