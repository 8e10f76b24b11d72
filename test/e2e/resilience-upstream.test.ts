/**
 * Upstream resilience against a real loopback API that misbehaves on purpose: hangs, resets
 * the connection, answers byte by byte, 500 with HTML, 429/503 with Retry-After, a 100 MB body,
 * invalid JSON, a TLS port that never handshakes; retries only where safe, the concurrency
 * limit and the response size limit (the circuit breaker: resilience-breaker.test.ts).
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BridgeOptions } from "../../src/runtime/engine/bridge-options.js";
import { closedPort, sendBytes, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, errorMeta, type InMemoryBridge, planSpec, textOf } from "./safety-support.js";

const json = (schema: Record<string, unknown>) => ({
  "200": { description: "OK", content: { "application/json": { schema } } },
});
const spec = {
  servers: [{ url: "https://unused.example.test" }],
  paths: {
    "/items/{id}": {
      get: {
        operationId: "getItem",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: json({ type: "object", properties: { id: { type: "string" } } }),
      },
    },
    "/items": {
      post: {
        operationId: "createItem",
        requestBody: {
          content: {
            "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } },
          },
        },
        responses: json({ type: "object" }),
      },
    },
    "/text": {
      get: {
        operationId: "getText",
        responses: { "200": { description: "OK", content: { "text/plain": {} } } },
      },
    },
    "/blob": {
      get: {
        operationId: "getBlob",
        responses: { "200": { description: "OK", content: { "application/json": {} } } },
      },
    },
  },
};
const model = planSpec(spec);
const withOutputSchemas = planSpec(spec, { outputSchemas: true });

let upstream: Upstream;
let bridge: InMemoryBridge | undefined;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  upstream.reset();
});

/** Fast retries so the tests do not wait on backoff. */
async function connect(options: BridgeOptions = {}, planned = model): Promise<InMemoryBridge> {
  bridge = await connectRuntime(planned, {
    baseUrl: upstream.url,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 50 },
    ...options,
  });
  return bridge;
}

describe("timeouts", () => {
  it("a hanging API is a timeout result naming the limit, and is not retried", async () => {
    upstream.setHandler(() => {});
    const b = await connect({ timeoutMs: 300 });
    const result = await b.call("getItem", { id: "1" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Timeout: GET \/items\/\{id\} at http:\/\/127\.0\.0\.1:\d+: the API did not answer within 300 ms/,
    );
    expect(errorMeta(result)).toMatchObject({ category: "timeout", retryable: true });
    expect(upstream.requests).toHaveLength(1);
  });

  it("an answer trickling byte by byte past the total timeout is a timeout", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), 20);
      res.on("close", () => clearInterval(timer));
    });
    const b = await connect({ timeoutMs: 300 });
    const result = await b.call("getItem", { id: "1" });
    expect(textOf(result)).toContain("the API did not answer within 300 ms");
  });

  it("a slow answer within the timeout arrives whole", async () => {
    const body = '{"id":"slowly"}';
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      let i = 0;
      const timer = setInterval(() => {
        res.write(body[i++]!);
        if (i === body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 5);
    });
    const b = await connect({ timeoutMs: 10_000 });
    const result = await b.call("getItem", { id: "1" });
    expect(result.structuredContent).toEqual({ id: "slowly" });
  });

  it("a TLS port that accepts but never handshakes is a connect timeout", async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      const b = await connect({
        baseUrl: `https://127.0.0.1:${port}`,
        connectTimeoutMs: 100,
        timeoutMs: 10_000,
        retry: { retries: 0 },
      });
      const result = await b.call("createItem", { name: "x" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("could not connect to the API (UND_ERR_CONNECT_TIMEOUT)");
      expect(sockets.size).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("retries only where safe", () => {
  it("a reset connection is retried for GET and fails after retries+1 attempts", async () => {
    upstream.setHandler((_req, _res, incoming) => {
      incoming.socket.destroy();
    });
    const b = await connect();
    const result = await b.call("getItem", { id: "1" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Upstream unavailable: .*the connection to the API failed .*\(after 3 attempts\)/,
    );
    expect(upstream.requests).toHaveLength(3);
  });

  it("a reset connection is not retried for POST, which may have taken effect", async () => {
    upstream.setHandler((_req, _res, incoming) => {
      incoming.socket.destroy();
    });
    const b = await connect();
    const result = await b.call("createItem", { name: "x" });
    expect(textOf(result)).toContain("This operation is not idempotent");
    expect(upstream.requests).toHaveLength(1);
  });

  it("a refused connection is retried for POST too (nothing was sent)", async () => {
    const b = await connect({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const result = await b.call("createItem", { name: "x" });
    expect(textOf(result)).toContain("could not connect to the API (ECONNREFUSED) (after 3 attempts)");
    // Nothing reached the API: the model is told it may simply retry, not to check for an effect.
    expect(textOf(result)).toContain("Next step: Retry later.");
    expect(textOf(result)).not.toContain("may or may not have taken effect");
  });

  it("a GET that meets a 503 once then succeeds gives the success", async () => {
    let n = 0;
    upstream.setHandler((req, res) =>
      n++ === 0 ? sendBytes(res, 503, "text/plain", "busy") : sendJson(res, 200, { id: req.rawPath }),
    );
    const b = await connect();
    const result = await b.call("getItem", { id: "1" });
    expect(result.structuredContent).toEqual({ id: "/items/1" });
    expect(upstream.requests).toHaveLength(2);
  });

  it("a POST is retried after 429 only with Retry-After, which says the API did not act", async () => {
    let n = 0;
    upstream.setHandler((_req, res) => {
      if (n++ === 0) {
        res.writeHead(429, { "retry-after": "0", "content-type": "text/plain" }).end("slow down");
      } else sendJson(res, 201, { ok: true });
    });
    const b = await connect();
    expect((await b.call("createItem", { name: "x" })).structuredContent).toEqual({ ok: true });
    expect(upstream.requests).toHaveLength(2);

    upstream.reset();
    upstream.setHandler((_req, res) => sendBytes(res, 429, "text/plain", "slow down"));
    const result = await b.call("createItem", { name: "x" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Rate limited: HTTP 429/);
    expect(upstream.requests).toHaveLength(1);
  });

  it("a Retry-After longer than the cap is not waited for: the model is told to wait", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(503, { "retry-after": "3600" }).end();
    });
    const b = await connect();
    const result = await b.call("getItem", { id: "1" });
    expect(textOf(result)).toContain("The API asks to wait 3600 s (Retry-After).");
    expect(errorMeta(result)).toMatchObject({ category: "upstream_unavailable", retryAfterSeconds: 3600 });
    expect(upstream.requests).toHaveLength(1);
  });

  it("a 500 with an HTML page is not retried and its text reaches the model", async () => {
    upstream.setHandler((_req, res) =>
      sendBytes(
        res,
        500,
        "text/html",
        "<html><head><style>p{}</style></head><body><h1>Oops</h1><p>db down</p></body></html>",
      ),
    );
    const b = await connect();
    const result = await b.call("getItem", { id: "1" });
    expect(textOf(result)).toMatch(/^Upstream error: HTTP 500/);
    expect(textOf(result)).toContain("Oops db down");
    expect(textOf(result)).not.toContain("<h1>");
    expect(upstream.requests).toHaveLength(1);
  });

  it("retries that run out of time give back the API's last answer, not a timeout", async () => {
    upstream.setHandler((_req, res) => sendBytes(res, 503, "text/plain", "still busy"));
    const b = await connect({ timeoutMs: 300, retry: { retries: 50, baseDelayMs: 20, maxDelayMs: 40 } });
    const result = await b.call("getItem", { id: "1" });
    expect(textOf(result)).toMatch(/^Upstream unavailable: HTTP 503/);
    expect(textOf(result)).toContain("still busy");
    expect(upstream.requests.length).toBeGreaterThan(1);
  });

  it("--retries 0 sends exactly one attempt", async () => {
    upstream.setHandler((_req, res) => sendBytes(res, 503, "text/plain", "busy"));
    const b = await connect({ retry: { retries: 0 } });
    await b.call("getItem", { id: "1" });
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("bad bodies", () => {
  it("invalid JSON under a JSON content type is an isError result with the text when the tool promises structured output, else the text", async () => {
    upstream.setHandler((_req, res) => sendBytes(res, 200, "application/json", '{"id": "1", oops'));
    const structured = await connect({}, withOutputSchemas);
    const result = await structured.call("getItem", { id: "1" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('{"id": "1", oops');
    const plain = await structured.call("getBlob");
    expect(plain.isError ?? false).toBe(false);
    await structured.close();
    const b = await connect();
    const text = await b.call("getItem", { id: "1" });
    expect(text.isError ?? false).toBe(false);
    expect(text.structuredContent).toBeUndefined();
    expect(textOf(text)).toContain('{"id": "1", oops');
  });

  it.each([
    ["getText", "text/plain"],
    ["getBlob", "application/json"],
  ])(
    "a 100 MB answer (%s) is read only up to the limit, and the result says so",
    async (tool, contentType) => {
      const total = 100 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, contentType === "text/plain" ? "a" : " ");
      let written = 0;
      let closed!: Promise<void>;
      upstream.setHandler((_req, res) => {
        closed = new Promise((resolve) => res.on("close", () => resolve()));
        res.writeHead(200, { "content-type": contentType, "content-length": total });
        const pump = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        pump();
      });
      const b = await connect({ maxResponseBytes: 1024 * 1024 });
      const result = await b.call(tool);
      await closed;
      expect(textOf(result)).toContain(
        "larger than the bridge reads; only the first 1048576 bytes were kept",
      );
      expect(written).toBeLessThan(total / 4);
    },
  );
});

describe("concurrency limit", () => {
  it("never has more than --max-concurrency calls at the API; the rest wait and succeed", async () => {
    let inFlight = 0;
    let most = 0;
    upstream.setHandler((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        sendJson(res, 200, { id: req.rawPath });
      }, 10);
    });
    const b = await connect({ maxConcurrency: 2 });
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => b.call("getItem", { id: String(i) })),
    );
    expect(results.map((r) => r.structuredContent)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({ id: `/items/${i}` })),
    );
    expect(most).toBeLessThanOrEqual(2);
    expect(upstream.requests).toHaveLength(8);
  });
});
