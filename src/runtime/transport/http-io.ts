/** Reading an MCP request body within a size limit, and answering with a JSON-RPC error. */
import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyRead = { value: unknown } | { error: string; status: number; code: number };

export async function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Stop reading at the limit without destroying the socket, so the 413 still reaches the client.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      return { error: `Request body larger than ${limit} bytes`, status: 413, code: -32600 };
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: "Parse error: the request body is not JSON", status: 400, code: -32700 };
  }
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
