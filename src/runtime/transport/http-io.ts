/** Reading an MCP request body within a size limit, and answering with a JSON-RPC error. */
import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyRead = { value: unknown } | { error: string; status: number; code: number };

export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  // Plain 'data' events: an async iterator per request cost more than the read itself.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading at the limit without destroying the socket, so the 413 still reaches the client.
        stop();
        req.pause();
        resolve({ error: `Request body larger than ${limit} bytes`, status: 413, code: -32600 });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      const text = chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8");
      try {
        resolve({ value: JSON.parse(text) });
      } catch {
        resolve({ error: "Parse error: the request body is not JSON", status: 400, code: -32700 });
      }
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * How long an SSE answer's headers wait for its first event. The SDK's Node adapter flushes the
 * headers of a stream on their own, one socket write, before the event and the end follow in a
 * second; a call answered within this time goes out in one write instead (on loopback a write
 * also costs the receiving side's TCP work, so a fast call paid for two). A slower call's
 * headers leave when this expires, as before but this much later. 250 ms covers the calls of a
 * bridge at saturation, whose answers wait their turn (64 clients at 2,000 calls/s: about 30 ms
 * each; at 20 ms, the first value, a profile at saturation still had 1.5% of its samples in
 * flushing headers on their own); a client waits for headers for minutes, not milliseconds.
 */
export const SSE_HEADERS_HOLD_MS = 250;

/**
 * Lets the headers of `res` travel with its first body bytes when those come within `holdMs`
 * of the flush asked for; otherwise flushes them then. Nothing else about the answer changes.
 */
export function holdHeaderFlush(res: ServerResponse, holdMs: number = SSE_HEADERS_HOLD_MS): void {
  let timer: NodeJS.Timeout | undefined;
  res.flushHeaders = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      // Node's own flag: the headers went out with an earlier write (nothing left to flush).
      if (res.writableEnded || (res as ServerResponse & { _headerSent?: boolean })._headerSent) return;
      // node:http is not imported for this: the file loads with every start, stdio ones too.
      process.getBuiltinModule("node:http").ServerResponse.prototype.flushHeaders.call(res);
    }, holdMs);
  };
  res.once("close", () => clearTimeout(timer));
}

export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  echo: { id: string | number | null; data?: unknown } = { id: null },
): void {
  const error = echo.data === undefined ? { code, message } : { code, message, data: echo.data };
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error, id: echo.id }));
}
