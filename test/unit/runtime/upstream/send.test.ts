/**
 * One attempt on the bridge's own agent (undici's dispatch with the attempt as its handler) reads
 * the same answers and fails the same ways as one through a dispatcher's `request()`, the way a
 * dispatcher a library user passes in is asked.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutgoingRequest } from "../../../../src/runtime/request/build-request.js";
import {
  createHttpAgent,
  type HttpOptions,
  sendRequest,
  UpstreamFailure,
} from "../../../../src/runtime/upstream/send.js";

let server: Server;
let origin: string;
let own: Dispatcher;
/** The same agent behind only its `request()`: the path a user's dispatcher takes. */
let viaRequest: Dispatcher;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/repeat") {
      res.writeHead(201, "Made It", [
        ["X-Two", "a"],
        ["x-two", "b"],
        ["Set-Cookie", "c=1"],
        ["set-cookie", "d=2"],
        ["Content-Type", "application/json"],
        ["X-Latin", Buffer.from("café", "latin1").toString("latin1")],
      ]);
      res.end('{"ok":true}');
    } else if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("x".repeat(3000));
      setTimeout(() => res.end("y".repeat(3000)), 5);
    } else if (req.url === "/hang") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
    } else if (req.url === "/silent") {
      // No answer at all.
    } else {
      res.writeHead(204);
      res.end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  own = await createHttpAgent({ connectTimeoutMs: 1000 });
  viaRequest = {
    request: (options: Dispatcher.RequestOptions) => own.request(options),
  } as unknown as Dispatcher;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await own.close();
});

const OPTIONS: HttpOptions = { timeoutMs: 300, connectTimeoutMs: 1000, maxResponseBytes: 4000 };

function get(path: string): OutgoingRequest {
  return { method: "GET", origin, path, headers: { accept: "*/*" }, missingCredentials: [] };
}

/** The answer without its duration, or the failure's kind, code and message. */
async function attempt(agent: Dispatcher, path: string, cancel?: AbortSignal) {
  try {
    const { durationMs: _, ...answer } = await sendRequest(
      agent,
      get(path),
      OPTIONS,
      OPTIONS.timeoutMs,
      cancel,
    );
    // The server's clock is no part of the comparison.
    const { date: _date, ...headers } = answer.headers;
    return { ...answer, headers, body: answer.body.toString("latin1") };
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    return { kind: error.kind, code: error.code, message: error.message };
  }
}

describe("sendRequest on the bridge's own agent", () => {
  it.each(["/repeat", "/big", "/hang", "/silent", "/empty"])("answers %s as request() does", async (path) => {
    const [ours, theirs] = [await attempt(own, path), await attempt(viaRequest, path)];
    expect(ours).toEqual(theirs);
  });

  it("reads repeated headers joined, lower-cased, latin1, with the status text", async () => {
    const answer = await attempt(own, "/repeat");
    expect(answer).toMatchObject({
      status: 201,
      statusText: "Made It",
      headers: { "x-two": "a, b", "set-cookie": "c=1, d=2", "x-latin": "café" },
      body: '{"ok":true}',
      truncated: false,
    });
  });

  it("keeps the first maxResponseBytes of a longer answer and says it was cut", async () => {
    const answer = await attempt(own, "/big");
    expect(answer).toMatchObject({ truncated: true, body: "x".repeat(3000) + "y".repeat(1000) });
  });

  it("a cancel ends the attempt at once as a cancelled failure, on both paths", async () => {
    for (const agent of [own, viaRequest]) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const started = performance.now();
      expect(await attempt(agent, "/silent", controller.signal)).toMatchObject({ kind: "cancelled" });
      expect(performance.now() - started).toBeLessThan(250);
    }
  });
});

describe("a 204 that claims a body (Prism's, for a spec giving its 204 a JSON example)", () => {
  it("is the bodiless answer it is, on both paths, not a failed connection", async () => {
    const { createServer: createRawServer } = await import("node:net");
    const raw = createRawServer((socket) => {
      socket.once("data", () => {
        socket.write(
          "HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\n",
        );
      });
      socket.on("error", () => {});
    });
    raw.listen(0, "127.0.0.1");
    await once(raw, "listening");
    const rawOrigin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    try {
      for (const agent of [own, viaRequest]) {
        const answer = await sendRequest(agent, { ...get("/transitions"), origin: rawOrigin }, OPTIONS);
        expect(answer.status).toBe(204);
        expect(answer.body.length).toBe(0);
        expect(answer.truncated).toBe(false);
      }
    } finally {
      raw.close();
    }
  });
});
