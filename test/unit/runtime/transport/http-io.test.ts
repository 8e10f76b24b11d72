/**
 * holdHeaderFlush (runtime/transport/http-io.ts): headers asked to be flushed go out with the
 * first body bytes when those come within the hold, and on their own when none come.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { holdHeaderFlush } from "../../../../src/runtime/transport/http-io.js";

let server: Server | undefined;
afterEach(() => server?.close());

/** Milliseconds from the request to its response's headers, for a handler that flushes and then waits `bodyAfterMs`. */
async function timeHeaders(holdMs: number, bodyAfterMs: number): Promise<number> {
  server = createServer((_req, res) => {
    holdHeaderFlush(res, holdMs);
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.flushHeaders();
    setTimeout(() => res.end("data: done\n\n"), bodyAfterMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port }, (res) => {
      resolve(performance.now() - started);
      res.resume();
    })
      .on("error", reject)
      .end();
  });
}

describe("holdHeaderFlush", () => {
  it("flushes the headers on their own when no body comes within the hold", async () => {
    const ms = await timeHeaders(50, 2_000);
    expect(ms).toBeGreaterThanOrEqual(45);
    expect(ms).toBeLessThan(1_500);
  });

  it("sends the headers with the first body bytes when they come within the hold", async () => {
    const ms = await timeHeaders(1_000, 20);
    expect(ms).toBeLessThan(900);
  });
});
