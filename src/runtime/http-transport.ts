/**
 * Streamable HTTP serving of a bridge runtime: sessionful (one MCP session per client) or
 * stateless (any replica answers any request). Binds 127.0.0.1 by default, checks `Origin`
 * and `Host`, and limits request bodies.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type BridgeRuntime, createBridgeServer } from "./server.js";

export interface HttpServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** MCP endpoint path (default `/mcp`). */
  path?: string;
  stateless?: boolean;
  /** Origins allowed besides loopback ones, e.g. `https://app.example.com`. `*` allows any. */
  allowedOrigins?: string[];
  /** Largest accepted request body in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * When set, every MCP request must carry `Authorization: Bearer <token>` (the health check
   * does not). The header is the bridge's own: it is never forwarded upstream.
   */
  bearerToken?: string;
  /** A session without requests for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /** Sessions open at once; a new one beyond this is refused with 503 (default 1,000). */
  maxSessions?: number;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export async function startHttpServer(
  runtime: BridgeRuntime,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const endpoint = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  // Clients often vanish without ending their session: idle ones are closed, and their number capped.
  const lastSeen = new Map<string, number>();
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - sessionIdleMs;
      for (const [id, seen] of lastSeen) {
        if (seen < cutoff) {
          lastSeen.delete(id);
          const idle = sessions.get(id);
          sessions.delete(id);
          void idle?.close();
        }
      }
    },
    Math.max(10, Math.min(sessionIdleMs, 60_000)),
  );
  sweeper.unref();
  const loopbackOnly = LOOPBACK_HOSTS.has(host);
  const tokenDigest = options.bearerToken ? digest(options.bearerToken) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/healthz" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (url.pathname !== endpoint) {
      sendJsonError(res, 404, -32601, `Not found: the MCP endpoint is ${endpoint}`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !isOriginAllowed(origin, allowedOrigins)) {
      sendJsonError(
        res,
        403,
        -32600,
        `Origin ${origin} is not allowed; start the bridge with --allow-origin ${origin}`,
      );
      return;
    }
    if (loopbackOnly && !isLoopbackHostHeader(req.headers.host)) {
      sendJsonError(res, 403, -32600, "Host header is not a loopback name (DNS rebinding protection)");
      return;
    }
    if (tokenDigest && !hasBearerToken(req.headers.authorization, tokenDigest)) {
      res.setHeader("www-authenticate", 'Bearer realm="openapi-mcp-bridge"');
      sendJsonError(res, 401, -32001, "Unauthorized: this bridge needs Authorization: Bearer <token>");
      req.resume();
      return;
    }
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBodyBytes);
      if ("error" in read) {
        if (read.status === 413) {
          // The rest of the body is never read: close the connection once the answer is out.
          res.setHeader("connection", "close");
          res.on("finish", () => req.destroy());
        }
        sendJsonError(res, read.status, read.code, read.error);
        return;
      }
      body = read.value;
    }
    if (options.stateless) {
      if (req.method !== "POST") {
        sendJsonError(res, 405, -32000, "This bridge is stateless: only POST is served");
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const server = createBridgeServer(runtime);
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (!transport) {
        sendJsonError(res, 404, -32001, "Session not found: start a new session with initialize");
        return;
      }
      lastSeen.set(sessionId, Date.now());
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST") {
      sendJsonError(res, 400, -32000, "Missing mcp-session-id header: start with an initialize request");
      return;
    }
    if (sessions.size >= maxSessions) {
      sendJsonError(res, 503, -32000, `Too many open sessions (${maxSessions}); try again later`);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        lastSeen.set(id, Date.now());
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        lastSeen.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
        lastSeen.delete(transport.sessionId);
      }
    };
    const server = createBridgeServer(runtime);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const httpServer: NodeServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJsonError(res, 500, -32603, `Internal error: ${(error as Error).message}`);
      else res.end();
    });
  });
  // Idle keep-alive connections outlive the clients' own keep-alive (undici: 4 s, proxies: 60 s),
  // so a client never sends a request on a socket the bridge is closing at that moment.
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${endpoint}`,
    port,
    close: async () => {
      clearInterval(sweeper);
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Compares digests in constant time, so the answer time says nothing about the token. */
function hasBearerToken(header: string | undefined, expected: Buffer): boolean {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), expected);
}

function isOriginAllowed(origin: string, allowed: Set<string>): boolean {
  if (allowed.has("*") || allowed.has(origin)) return true;
  try {
    const url = new URL(origin);
    return LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  if (hostHeader === undefined) return true;
  try {
    return LOOPBACK_HOSTS.has(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return false;
  }
}

async function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ value: unknown } | { error: string; status: number; code: number }> {
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

function sendJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
