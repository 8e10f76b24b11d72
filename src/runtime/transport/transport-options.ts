/**
 * The transports' options and their defaults, apart from the transports themselves (which load
 * the MCP SDK): the option table cites these defaults at every start, before the settings are
 * known to be good and anything heavy is loaded.
 */

/** The transport when none is asked for (`--transport` cites it): what desktop clients start. */
export const DEFAULT_TRANSPORT = "stdio";

/** Bytes of one MCP message over stdio (`--max-message-bytes` cites it). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

import type { ListCacheHint } from "../server/cache-hints.js";
import type { OAuthResourceOptions } from "./oauth/resource-options.js";

export interface HttpServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** MCP endpoint path (default `/mcp`). */
  path?: string;
  stateless?: boolean;
  /**
   * The headers that carry a caller's own credentials to the API (pass-through headers): with
   * `stateless`, a 2025-era cancel reaches only calls sent with the same ones
   * (stateless-cancel.ts).
   */
  passThroughHeaders?: readonly string[];
  /** Origins allowed besides loopback ones, e.g. `https://app.example.com`. `*` allows any. */
  allowedOrigins?: string[];
  /** Largest accepted request body in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * When set, every MCP request must carry `Authorization: Bearer <token>` (the health check
   * does not). The header is the bridge's own: it is never forwarded upstream.
   */
  bearerToken?: string;
  /**
   * The bridge as an OAuth 2.1 protected resource (transport/oauth/): every MCP request needs
   * an access token of one of these issuers for this resource. Not with `bearerToken`.
   */
  oauth?: OAuthResourceOptions;
  /**
   * A session without requests for this long is closed (default 30 minutes); one that sent
   * nothing after initialize is closed after 30 s (sessions.ts).
   */
  sessionIdleMs?: number;
  /** A session that sent nothing after initialize for this long is closed (default 30 s). */
  sessionHandshakeMs?: number;
  /**
   * Sessions open at once (default 1,000). A new one beyond this closes an abandoned or
   * long-idle session, and is refused with 503 only when all are in use.
   */
  maxSessions?: number;
  /** The list answers' cache hint (server/cache-hints.ts); without it, createBridgeServer's. */
  listCache?: ListCacheHint;
  /**
   * The key that signs a destructive call's confirmation between the rounds of a 2026-07-28
   * tools/call (at least MIN_CONFIRM_KEY_BYTES bytes, server/confirm-state.ts). Replicas behind a load balancer need the
   * same one; default: random, for this process only.
   */
  confirmKey?: string;
  /**
   * Where an answered confirmation's one-time number is marked used (`--token-store`: `memory`,
   * or the `redis://` URL replicas share, so a replayed answer is refused on every replica);
   * default: this process's memory.
   */
  markStore?: string;
}

const MIB = 1024 * 1024;

/** The HTTP server's defaults (`--host`, `--port`, `--path`, `--max-body-bytes`, `--max-sessions`, `--session-idle-timeout` cite them). */
export const DEFAULT_HTTP_SERVER = {
  host: "127.0.0.1",
  port: 3000,
  path: "/mcp",
  maxBodyBytes: 4 * MIB,
  sessionIdleMs: 30 * 60_000,
  maxSessions: 1000,
} as const;

export type ResolvedHttpServerOptions = Omit<
  HttpServerOptions,
  keyof typeof DEFAULT_HTTP_SERVER | "allowedOrigins"
> & {
  host: string;
  port: number;
  path: string;
  maxBodyBytes: number;
  sessionIdleMs: number;
  maxSessions: number;
  allowedOrigins: string[];
};

/** The one place the HTTP server's defaults are applied. */
export function resolveHttpServerOptions(options: HttpServerOptions): ResolvedHttpServerOptions {
  return {
    ...options,
    host: options.host ?? DEFAULT_HTTP_SERVER.host,
    port: options.port ?? DEFAULT_HTTP_SERVER.port,
    path: options.path ?? DEFAULT_HTTP_SERVER.path,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_HTTP_SERVER.maxBodyBytes,
    sessionIdleMs: options.sessionIdleMs ?? DEFAULT_HTTP_SERVER.sessionIdleMs,
    maxSessions: options.maxSessions ?? DEFAULT_HTTP_SERVER.maxSessions,
    allowedOrigins: options.allowedOrigins ?? [],
  };
}
