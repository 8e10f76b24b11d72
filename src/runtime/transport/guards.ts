/**
 * What every MCP HTTP request must pass before it reaches a session: the endpoint path, an
 * allowed `Origin`, a loopback `Host` while bound to loopback (DNS rebinding), and the bridge's
 * own bearer token when one is set (compared in constant time, then removed from the request).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJsonError } from "./http-io.js";

/**
 * True for a loopback address or name, in any spelling: `localhost` and `*.localhost`
 * (RFC 6761), all of 127.0.0.0/8 (`127.0.0.2`, `127.1`), `::1` with or without brackets, and
 * IPv4-mapped `::ffff:127.x.y.z`. A short list of spellings would turn the Host check off for
 * `--host 127.0.0.2`.
 */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/\.$/, "");
  const literal = bare.includes(":") && !bare.startsWith("[") ? `[${bare}]` : bare;
  let hostname: string;
  try {
    hostname = new URL(`http://${literal}/`).hostname; // canonical: 127.1 → 127.0.0.1, [0::1] → [::1]
  } catch {
    return false;
  }
  if (hostname === "localhost" || hostname.endsWith(".localhost")) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(hostname)) return true;
  return hostname === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname);
}

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
  if (guards.tokenDigest) {
    if (!hasBearerToken(req.headers.authorization, guards.tokenDigest)) {
      res.setHeader("www-authenticate", 'Bearer realm="openapi-mcp-bridge"');
      sendJsonError(res, 401, -32001, "Unauthorized: this bridge needs Authorization: Bearer <token>");
      req.resume();
      return false;
    }
    forgetAuthorization(req);
  }
  return true;
}

/**
 * The bridge's own token has done its job once checked: the request goes on without it, so no
 * part of the bridge (a pass-through header mapping `Authorization`) can send it upstream. The
 * SDK reads `rawHeaders`, Node's parsed `headers` are read by the rest.
 */
export function forgetAuthorization(req: IncomingMessage): void {
  delete req.headers.authorization;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === "authorization") raw.splice(i, 2);
  }
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
    return isLoopbackAddress(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * Verdicts on the Host headers seen lately: a client sends the same one with every request, and
 * parsing it twice per request (URL, then isLoopbackAddress) was a measurable share of a call.
 * Bounded: anyone may send any Host, so the table is emptied when full.
 */
const hostVerdicts = new Map<string, boolean>();
const MAX_HOST_VERDICTS = 64;

function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  if (hostHeader === undefined) return true;
  const known = hostVerdicts.get(hostHeader);
  if (known !== undefined) return known;
  let verdict: boolean;
  try {
    verdict = isLoopbackAddress(new URL(`http://${hostHeader}`).hostname);
  } catch {
    verdict = false;
  }
  if (hostVerdicts.size >= MAX_HOST_VERDICTS) hostVerdicts.clear();
  hostVerdicts.set(hostHeader, verdict);
  return verdict;
}
