/**
 * Cancellation for 2025-era clients on `--stateless` HTTP. Such a client cancels a call with a
 * `notifications/cancelled` POSTed on its own: without a session, nothing ties it to the server
 * (made for one POST) that runs the call, so the SDK's own handling never sees it. Here the
 * calls in flight are kept by who made them and their request id, and a cancel aborts the one
 * of the same caller with that id.
 *
 * Request ids are the client's choice ("1", "2", ...), so the caller must be told apart from
 * everyone else or one client could cancel another's calls: the caller is the OAuth front
 * door's verified subject when there is one, else the remote address together with a digest
 * of every header that carries a caller's credentials (Authorization, Cookie,
 * Proxy-Authorization and the configured pass-through headers). Clients behind one address
 * with the same credentials are one caller to the bridge anyway (they act as one on the API).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isRecord } from "../../model/records.js";

/** Headers that always identify a caller, besides the configured pass-through ones. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"] as const;

export interface StatelessCalls {
  /**
   * Keeps the request in `body` (one JSON-RPC request with an id) of `caller` until `release`;
   * its signal is aborted by the caller's cancel. Undefined for anything else (a notification,
   * a response, a batch).
   */
  track(caller: string, body: unknown): { signal: AbortSignal; release(): void } | undefined;
  /**
   * When `body` is a `notifications/cancelled`, aborts the call of `caller` it names (if one is
   * in flight) and returns true: the notification is answered here. False for anything else.
   */
  cancel(caller: string, body: unknown): boolean;
}

export function createStatelessCalls(): StatelessCalls {
  // caller + request id → the call's controller; every entry leaves when its answer is out.
  const inFlight = new Map<string, AbortController>();
  return {
    track(caller, body) {
      if (!isRecord(body) || typeof body["method"] !== "string" || !isRequestId(body["id"])) return undefined;
      const key = keyOf(caller, body["id"]);
      const controller = new AbortController();
      // A reused id replaces the earlier entry: a cancel names the newest call with it.
      inFlight.set(key, controller);
      return {
        signal: controller.signal,
        release: () => {
          if (inFlight.get(key) === controller) inFlight.delete(key);
        },
      };
    },
    cancel(caller, body) {
      if (!isRecord(body) || body["method"] !== "notifications/cancelled") return false;
      const params = body["params"];
      if (isRecord(params) && isRequestId(params["requestId"])) {
        const reason = typeof params["reason"] === "string" ? params["reason"] : "cancelled by the client";
        inFlight.get(keyOf(caller, params["requestId"]))?.abort(reason);
      }
      return true;
    },
  };
}

/**
 * Who sent `req` when no OAuth subject says it, as the cancels of a stateless bridge tell
 * callers apart (see the file's comment).
 */
export function identifyCaller(req: IncomingMessage, passThroughHeaders: readonly string[]): string {
  const hash = createHash("sha256");
  for (const name of [...CREDENTIAL_HEADERS, ...passThroughHeaders.map((h) => h.toLowerCase())]) {
    const value = req.headers[name];
    hash.update(`${name}\u0000${Array.isArray(value) ? value.join("\u0000") : (value ?? "")}\u0001`);
  }
  return `${req.socket.remoteAddress ?? ""} ${hash.digest("base64url")}`;
}

function isRequestId(id: unknown): id is string | number {
  return typeof id === "string" || typeof id === "number";
}

function keyOf(caller: string, id: string | number): string {
  // JSON keeps the id 1 and the id "1" apart, as JSON-RPC does.
  return `${caller}\u0000${JSON.stringify(id)}`;
}
