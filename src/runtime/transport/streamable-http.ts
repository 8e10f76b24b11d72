/**
 * Streamable HTTP serving of a bridge runtime, both protocol eras on one endpoint:
 * - 2025-era requests (no per-request `_meta` envelope: `initialize`, then requests of its
 *   session) are served as before, sessionful (one MCP session per client) or stateless (any
 *   replica answers any request);
 * - 2026-07-28 requests (the envelope in `_meta`) go to the SDK's per-request handler
 *   (createMcpHandler): `server/discover`, the `Mcp-Method`/`Mcp-Name` header checks,
 *   `subscriptions/listen`, errors that echo the request id. The era is told per request by the
 *   SDK's own classifier (isLegacyRequest), so `--stateless` changes the 2025 side only.
 * Binds 127.0.0.1 by default, checks `Origin` and `Host` (guards.ts) and limits request bodies
 * before either era's code sees a request.
 */

import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest, type Server } from "@modelcontextprotocol/server";
import { failWith } from "../../model/diagnostics.js";
import { openTokenStore } from "../auth/user-login/open-store.js";
import { checkHttpServerOptions } from "../config/check-bridge-options.js";
import type { ToolRuntime } from "../engine/bridge-runtime.js";
import { createConfirmStates } from "../server/confirm-state.js";
import { createBridgeServer, type ServerSetup } from "../server/mcp-server.js";
import { findParamHeaderMismatch, HEADER_MISMATCH_CODE } from "../server/param-headers.js";
import { type ServedRuntime, toServedRuntime } from "../server/served-runtime.js";
import { watchSessions } from "../telemetry/telemetry-hooks.js";
import { toClassifiedRequest } from "./era-request.js";
import { digest, forgetAuthorization, isLoopbackAddress, passGuards, type RequestGuards } from "./guards.js";
import { holdHeaderFlush, readBody, sendJsonError } from "./http-io.js";
import { serveLoginCallback, serveSignOut } from "./login-callback.js";
import type { FrontDoor } from "./oauth/front-door.js";
import type { VerifiedToken } from "./oauth/token-verifier.js";
import { createSessionStore, type SessionStore } from "./sessions.js";
import { createStatelessCalls, identifyCaller, type StatelessCalls } from "./stateless-cancel.js";
import { type HttpServerOptions, resolveHttpServerOptions } from "./transport-options.js";

export interface RunningHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export type { HttpServerOptions } from "./transport-options.js";

export async function startHttpServer(
  source: ToolRuntime | ServedRuntime,
  given: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  // A program's options meet the rules serve's flags do (serve's were checked already: a no-op).
  checkHttpServerOptions(given);
  // Every session lists one tool set with one record of contracts.
  const runtime = toServedRuntime(source);
  const options = resolveHttpServerOptions(given);
  const { host, path: endpoint, maxBodyBytes } = options;
  const guards: RequestGuards = {
    endpoint,
    allowedOrigins: new Set(options.allowedOrigins),
    loopbackOnly: isLoopbackAddress(host),
    ...(options.bearerToken ? { tokenDigest: digest(options.bearerToken) } : {}),
  };
  if (options.oauth !== undefined && options.bearerToken !== undefined) {
    failWith(
      "OMB_OAUTH_RESOURCE_CONFLICT",
      "--http-token and --auth-issuer both guard the HTTP endpoint: give one of them",
      {
        hint: "--http-token is one shared token for simple setups; --auth-issuer checks each user's OAuth access token",
      },
    );
  }
  // The OAuth front door, made once the address is known (its resource defaults to it); jose
  // is loaded only for a bridge that has one.
  const frontDoorModule = options.oauth !== undefined ? await import("./oauth/front-door.js") : undefined;
  let frontDoor: FrontDoor | undefined;
  const callers = {
    callerOf: (authInfo: Parameters<FrontDoor["callers"]["callerOf"]>[0]) =>
      frontDoor?.callers.callerOf(authInfo),
  };
  // One signer for every server of this endpoint: a confirmation asked by one request is
  // answered by another (and, with a shared --confirm-key, by another replica).
  const setup: ServerSetup = {
    confirmStates: createConfirmStates({
      ...(options.confirmKey !== undefined ? { key: options.confirmKey } : {}),
      ...(options.markStore !== undefined ? { marks: openTokenStore(options.markStore) } : {}),
    }),
    ...(options.listCache !== undefined ? { listCache: options.listCache } : {}),
    ...(options.oauth !== undefined ? { callers } : {}),
  };
  const sessions = createSessionStore({
    idleMs: options.sessionIdleMs,
    max: options.maxSessions,
    ...(options.sessionHandshakeMs !== undefined ? { handshakeMs: options.sessionHandshakeMs } : {}),
  });
  // The active-sessions gauge (telemetry/) reads the store's size while it serves.
  const unwatchSessions = watchSessions(() => sessions.size);

  // One server per session or request, each with the list answers' cache hint.
  const newServer = () => createBridgeServer(runtime, {}, setup);
  // --stateless, 2025 era: a cancel comes as a POST of its own (stateless-cancel.ts).
  const statelessCalls = options.stateless ? createStatelessCalls() : undefined;
  // 2026-07-28: a server per request from this factory; the bridge's guards run first.
  const modern = createMcpHandler(newServer, {
    legacy: "reject",
    maxRequestBodySize: maxBodyBytes,
  });
  const serveModern = toNodeHandler(modern);
  // A reload that changes the tools tells the modern clients listening (subscriptions/listen).
  const unsubscribe = runtime.onToolsChanged?.(() => modern.notify.toolsChanged());

  // A request for the endpoint exactly as it is spelled needs no URL parse to know its path.
  const endpointIsCanonical = new URL(endpoint, "http://localhost").pathname === endpoint;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url =
      endpointIsCanonical && req.url === endpoint ? undefined : new URL(req.url ?? "/", "http://localhost");
    const pathname = url === undefined ? endpoint : url.pathname;
    if (pathname === "/healthz" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (frontDoor?.serveMetadata(req, res, pathname)) return;
    // Only a bridge with user logins has their pages (two awaits fewer per call without).
    if (runtime.logins !== undefined) {
      const full = url ?? new URL(req.url ?? "/", "http://localhost");
      if (await serveLoginCallback(runtime.logins, req, res, full)) return;
      if (await serveSignOut(runtime.logins, frontDoor, req, res, full)) return;
    }
    if (!passGuards(req, res, pathname, guards)) return;
    // Read before the front door takes the Authorization header away.
    const credentialDigest =
      statelessCalls !== undefined ? identifyCaller(req, options.passThroughHeaders ?? []) : "";
    let token: VerifiedToken | undefined;
    if (frontDoor !== undefined) {
      token = await frontDoor.authenticate(req, res);
      if (token === undefined) return;
      // Checked: the MCP token goes no further (never upstream); the SDK hands req.auth to the servers.
      forgetAuthorization(req);
      (req as IncomingMessage & { auth?: VerifiedToken }).auth = token;
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
      // An operation the token's scopes do not cover: 403 with the scopes to step up to.
      if (frontDoor !== undefined && token !== undefined && (await frontDoor.refuseScope(body, token, res)))
        return;
    }
    if (!(await isLegacyRequest(toClassifiedRequest(req), body, { maxRequestBodySize: maxBodyBytes }))) {
      // Mcp-Param-* headers that disagree with the body: refused before the call (param-headers.ts).
      const mismatch =
        runtime.mode.mode === "tools" ? findParamHeaderMismatch(runtime.model, body, req.headers) : undefined;
      if (mismatch !== undefined) {
        sendJsonError(res, 400, HEADER_MISMATCH_CODE, mismatch.message, mismatch);
        return;
      }
      await serveModern(req, res, body);
      return;
    }
    if (statelessCalls !== undefined) {
      const owner = ownerOf(token);
      const caller = owner !== undefined ? `subject ${owner}` : credentialDigest;
      await handleStateless(newServer, req, res, body, { calls: statelessCalls, caller, setup, runtime });
    } else await handleSessionful(newServer, sessions, req, res, body, ownerOf(token));
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
  const shownHost = host.includes(":") ? `[${host}]` : host;
  let port = 0;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, host, () => {
      port = (httpServer.address() as AddressInfo).port;
      // Before the first request can arrive: this runs as the server starts listening.
      if (frontDoorModule !== undefined && options.oauth !== undefined) {
        const { createFrontDoor, resolveOAuthResourceOptions } = frontDoorModule;
        const resolved = resolveOAuthResourceOptions(options.oauth, `http://${shownHost}:${port}${endpoint}`);
        try {
          frontDoor = createFrontDoor(resolved, runtime, endpoint);
        } catch (error) {
          httpServer.close();
          reject(error);
          return;
        }
      }
      resolve();
    });
  });
  return {
    url: `http://${shownHost}:${port}${endpoint}`,
    port,
    close: async () => {
      unsubscribe?.();
      unwatchSessions();
      await modern.close();
      await sessions.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

/** What a stateless 2025-era request needs to be cancellable by a POST of its own. */
interface StatelessCancel {
  calls: StatelessCalls;
  caller: string;
  setup: ServerSetup;
  runtime: ServedRuntime;
}

/**
 * Stateless: a server and transport for this one POST, gone when its answer is. A
 * `notifications/cancelled` aborts the call it names (of the same caller) and is answered 202.
 */
async function handleStateless(
  newServer: () => Server,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  cancel: StatelessCancel,
): Promise<void> {
  if (req.method !== "POST") {
    sendJsonError(res, 405, -32000, "This bridge is stateless: only POST is served");
    return;
  }
  if (cancel.calls.cancel(cancel.caller, body)) {
    res.writeHead(202).end();
    return;
  }
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const tracked = cancel.calls.track(cancel.caller, body);
  const server =
    tracked === undefined
      ? newServer()
      : createBridgeServer(cancel.runtime, {}, { ...cancel.setup, cancelSignal: tracked.signal });
  res.on("close", () => {
    tracked?.release();
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** Who a verified token is, as a session's owner: the same subject of the same issuer. */
function ownerOf(token: VerifiedToken | undefined): string | undefined {
  const facts = token?.extra.facts;
  return facts === undefined ? undefined : `${facts.issuer} ${facts.subject}`;
}

/**
 * Sessionful: a request of a known session goes to it; an initialize opens a new one. With the
 * OAuth front door a session is its opener's: another user's token does not reach it (a
 * session id seen elsewhere is not a way in), and the answer does not say it exists.
 */
async function handleSessionful(
  newServer: () => Server,
  sessions: SessionStore,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  owner: string | undefined,
): Promise<void> {
  const sessionId = req.headers["mcp-session-id"];
  if (typeof sessionId === "string") {
    const transport = sessions.ownerOf(sessionId) === owner ? sessions.touch(sessionId) : undefined;
    if (!transport) {
      sendJsonError(res, 404, -32001, "Session not found: start a new session with initialize");
      return;
    }
    // A session with a request or stream open (a GET stream lasts) is never closed as idle.
    res.on("close", sessions.hold(sessionId));
    // A call's SSE answer: its headers go with its event when that comes soon (http-io.ts).
    if (req.method === "POST") holdHeaderFlush(res);
    await transport.handleRequest(req, res, body);
    return;
  }
  if (req.method !== "POST") {
    sendJsonError(res, 400, -32000, "Missing mcp-session-id header: start with an initialize request");
    return;
  }
  if (!sessions.makeRoom()) {
    sendJsonError(res, 503, -32000, `Too many open sessions (${sessions.max}, all in use); try again later`);
    return;
  }
  const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.add(id, transport, owner),
    onsessionclosed: (id) => sessions.remove(id),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.remove(transport.sessionId);
  };
  const server = newServer();
  await server.connect(transport);
  holdHeaderFlush(res);
  await transport.handleRequest(req, res, body);
}
