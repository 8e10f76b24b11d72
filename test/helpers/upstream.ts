/**
 * A real HTTP server on 127.0.0.1 that stands in for the REST API behind the bridge. It records
 * every request exactly as it arrived (raw path and query before any decoding, raw header
 * values, body bytes) and answers from a handler the test chooses.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  /** The request target as sent, e.g. `/items/a%2Fb?x=1`. */
  rawUrl: string;
  /** The path part of the target, still percent-encoded. */
  rawPath: string;
  /** The query string without `?`, still percent-encoded; `""` when there is none. */
  rawQuery: string;
  /** True when the target contained a `?` at all. */
  hasQuery: boolean;
  /** Header names lower-cased, values exactly as sent (repeated headers joined by Node). */
  headers: Record<string, string | string[] | undefined>;
  /** Header pairs in order, names as sent. */
  rawHeaders: [string, string][];
  /** The Cookie header, or undefined. */
  cookie: string | undefined;
  body: Buffer;
  /** `name=value` pairs of the Cookie header, split on `; `. */
  cookies(): [string, string][];
  /** The query string decoded as application/x-www-form-urlencoded pairs, in order. */
  queryPairs(): [string, string][];
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON. */
  json(): unknown;
  /** A header's value (name case-insensitive) as one string, or undefined. */
  header(name: string): string | undefined;
}

export type UpstreamHandler = (
  req: RecordedRequest,
  res: ServerResponse,
  incoming: IncomingMessage,
) => void | Promise<void>;

export interface Upstream {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Replace the handler for the following requests. */
  setHandler(handler: UpstreamHandler): void;
  /** Forget the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** A JSON view of a recorded request, what the default handler answers with. */
export function describeRequest(req: RecordedRequest): Record<string, unknown> {
  return {
    method: req.method,
    path: req.rawPath,
    query: req.rawQuery,
    headers: req.headers,
    bodyBase64: req.body.toString("base64"),
  };
}

export const echoHandler: UpstreamHandler = (req, res) => {
  sendJson(res, 200, describeRequest(req));
};

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
}

export function sendBytes(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: Buffer | string,
): void {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  res.writeHead(status, { "content-type": contentType, "content-length": bytes.length });
  res.end(bytes);
}

/** Never answers (until the server closes). */
export const hangHandler: UpstreamHandler = () => {};

function recordRequest(incoming: IncomingMessage, body: Buffer): RecordedRequest {
  const rawUrl = incoming.url ?? "";
  const q = rawUrl.indexOf("?");
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const rawQuery = q === -1 ? "" : rawUrl.slice(q + 1);
  const rawHeaders: [string, string][] = [];
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
    rawHeaders.push([incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!]);
  }
  const headers = { ...incoming.headers };
  const cookie = incoming.headers.cookie;
  return {
    method: incoming.method ?? "",
    rawUrl,
    rawPath,
    rawQuery,
    hasQuery: q !== -1,
    headers,
    rawHeaders,
    cookie,
    body,
    cookies() {
      if (cookie === undefined || cookie === "") return [];
      return cookie.split("; ").map((pair) => {
        const eq = pair.indexOf("=");
        return eq === -1 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
      });
    },
    queryPairs() {
      return [...new URLSearchParams(rawQuery).entries()];
    },
    text() {
      return body.toString("utf8");
    },
    json() {
      return JSON.parse(body.toString("utf8"));
    },
    header(name: string) {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

export async function startUpstream(handler: UpstreamHandler = echoHandler): Promise<Upstream> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const recorded = recordRequest(incoming, Buffer.concat(chunks));
      requests.push(recorded);
      Promise.resolve()
        .then(() => current(recorded, res, incoming))
        .catch((error: unknown) => {
          if (!res.headersSent) sendJson(res, 599, { handlerError: String(error) });
        });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setHandler(next) {
      current = next;
    },
    reset() {
      requests.length = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Parts of a multipart/form-data body, split by the boundary in its Content-Type. */
export interface MultipartPart {
  name: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
  headers: Record<string, string>;
  body: Buffer;
}

export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) throw new Error(`no boundary in content-type ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(delimiter);
  if (start === -1) throw new Error("multipart body has no opening boundary");
  for (;;) {
    let cursor = start + delimiter.length;
    if (body.subarray(cursor, cursor + 2).toString() === "--") break; // closing delimiter
    if (body.subarray(cursor, cursor + 2).toString() !== "\r\n")
      throw new Error("bad multipart delimiter line");
    cursor += 2;
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), cursor);
    if (next === -1) throw new Error("multipart body has no closing boundary");
    const part = body.subarray(cursor, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    const headerText = headerEnd === -1 ? "" : part.subarray(0, headerEnd).toString("utf8");
    const partBody = headerEnd === -1 ? part : part.subarray(headerEnd + 4);
    const headers: Record<string, string> = {};
    for (const line of headerText.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const disposition = headers["content-disposition"] ?? "";
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1],
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
      contentType: headers["content-type"],
      headers,
      body: Buffer.from(partBody),
    });
    start = next + 2;
  }
  return parts;
}

/** The media type of a Content-Type value without parameters, lower-cased. */
export function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0]?.trim().toLowerCase();
}
