/**
 * What every MCP HTTP request must pass before it reaches a session: the endpoint path, an
 * allowed `Origin`, a loopback `Host` while bound to loopback (DNS rebinding), and the bridge's
 * own bearer token when one is set (compared in constant time).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJsonError } from "./http-io.js";

export const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export interface RequestGuards {
  endpoint: string;
  allowedOrigins: Set<string>;
  /** Bound to a loopback address: the Host header must name one too. */
  loopbackOnly: boolean;
  /** SHA-256 of the bearer token MCP clients must send, when one is set. */
  tokenDigest?: Buffer;
}

/** Answers the request itself and returns false when it may not go on; true otherwise. */
export function passGuards(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  guards: RequestGuards,
): boolean {
  if (pathname !== guards.endpoint) {
    sendJsonError(res, 404, -32601, `Not found: the MCP endpoint is ${guards.endpoint}`);
    return false;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isOriginAllowed(origin, guards.allowedOrigins)) {
    sendJsonError(
      res,
      403,
      -32600,
      `Origin ${origin} is not allowed; start the bridge with --allow-origin ${origin}`,
    );
    return false;
  }
  if (guards.loopbackOnly && !isLoopbackHostHeader(req.headers.host)) {
    sendJsonError(res, 403, -32600, "Host header is not a loopback name (DNS rebinding protection)");
    return false;
  }
  if (guards.tokenDigest && !hasBearerToken(req.headers.authorization, guards.tokenDigest)) {
    res.setHeader("www-authenticate", 'Bearer realm="openapi-mcp-bridge"');
    sendJsonError(res, 401, -32001, "Unauthorized: this bridge needs Authorization: Bearer <token>");
    req.resume();
    return false;
  }
  return true;
}

export function digest(text: string): Buffer {
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
