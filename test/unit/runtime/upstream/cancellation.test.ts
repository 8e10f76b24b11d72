/**
 * A client's cancel stops the work it cancels: the upstream request is aborted (the API sees its
 * connection close), a retry's backoff ends, the concurrency slot is free again, nothing is
 * retried and the circuit breaker counts nothing; through the runtime, the audit line says
 * "cancelled" and a real MCP client's cancel reaches the upstream request.
 */
import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../../src/runtime/audit/audit-log.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import type { OutgoingRequest } from "../../../../src/runtime/request/build-request.js";
import { resolveUpstreamOptions } from "../../../../src/runtime/upstream/client.js";
import { createApiConnection } from "../../../../src/runtime/upstream/connection.js";
import { resolveHttpOptions } from "../../../../src/runtime/upstream/send.js";
import { connectRuntime, planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;
/** Requests the upstream holds unanswered, and the events of their connections closing. */
let held: { incoming: IncomingMessage; closed: Promise<void> }[] = [];
let arrived: (() => void) | undefined;

beforeAll(async () => {
  upstream = await startUpstream((_req, _res, incoming) => {
    const closed = new Promise<void>((resolve) => incoming.socket.once("close", () => resolve()));
    held.push({ incoming, closed });
    arrived?.();
  });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => {
  upstream.reset();
  held = [];
});

/** Resolves once the upstream holds `count` requests. */
function whenHeld(count: number): Promise<void> {
  if (held.length >= count) return Promise.resolve();
  return new Promise((resolve) => {
    arrived = () => {
      if (held.length >= count) resolve();
    };
  });
}

function request(): OutgoingRequest {
  return { method: "GET", origin: upstream.url, path: "/slow", headers: {}, missingCredentials: [] };
}

function connection(maxConcurrency = 1) {
  return createApiConnection({
    http: resolveHttpOptions({ timeoutMs: 60_000 }),
    upstream: resolveUpstreamOptions({ maxConcurrency, retry: { retries: 3 } }),
  });
}

describe("the upstream client, cancelled", () => {
  it("aborts the request in flight: the API sees the connection close, the slot is free", async () => {
    const api = connection();
    try {
      const cancel = new AbortController();
      const outcome = api.upstream.send(request(), { signal: cancel.signal });
      await whenHeld(1);
      expect(api.upstream.limit.active).toBe(1);
      cancel.abort();
      const done = await outcome;
      expect("failure" in done && done.failure.kind).toBe("cancelled");
      await held[0]!.closed;
      expect(api.upstream.limit.active).toBe(0);
      expect(upstream.requests).toHaveLength(1);
      expect(
        api.upstream.breaker.stateOf(
          { origin: upstream.url, operation: "GET /slow", caller: "" },
          "operation",
        ),
      ).toBe("closed");
    } finally {
      await api.close();
    }
  });

  it("leaves the queue for a slot when cancelled while waiting, taking none", async () => {
    const api = connection(1);
    try {
      const first = new AbortController();
      const running = api.upstream.send(request(), { signal: first.signal });
      await whenHeld(1);
      const second = new AbortController();
      const waiting = api.upstream.send(request(), { signal: second.signal });
      expect(api.upstream.limit.waiting).toBe(1);
      second.abort();
      const done = await waiting;
      expect("failure" in done && done.failure.kind).toBe("cancelled");
      expect(done.attempts).toBe(0);
      expect(api.upstream.limit.waiting).toBe(0);
      first.abort();
      await running;
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it("ends a retry's backoff at once, and sends no retry", async () => {
    upstream.setHandler((_req, res) => {
      res.setHeader("retry-after", "30");
      sendJson(res, 503, { busy: true });
      arrived?.();
    });
    const api = connection();
    try {
      const cancel = new AbortController();
      const outcome = api.upstream.send(request(), { signal: cancel.signal });
      await new Promise<void>((resolve) => {
        arrived = () => resolve();
      });
      // The 503 asked for 30 s; the cancel ends the wait (the test would time out otherwise).
      cancel.abort();
      const done = await outcome;
      expect("failure" in done && done.failure.kind).toBe("cancelled");
      expect(upstream.requests).toHaveLength(1);
      expect(api.upstream.limit.active).toBe(0);
    } finally {
      await api.close();
      upstream.setHandler((_req, _res, incoming) => {
        const closed = new Promise<void>((resolve) => incoming.socket.once("close", () => resolve()));
        held.push({ incoming, closed });
        arrived?.();
      });
    }
  });
});

describe("a tool call the MCP client cancels", () => {
  it("aborts the upstream request and is audited as cancelled", async () => {
    const entries: AuditEntry[] = [];
    const model = planSpec({ paths: TOY_PATHS });
    const runtime = createBridgeRuntime(model, {
      env: {},
      baseUrl: upstream.url,
      mode: "tools",
      audit: { write: (entry) => entries.push(entry), close: async () => {} },
    });
    const bridge = await connectRuntime(runtime);
    try {
      const cancel = new AbortController();
      const call = bridge.client.callTool({ name: "getPet", arguments: { id: "7" } }, undefined, {
        signal: cancel.signal,
      });
      await whenHeld(1);
      cancel.abort("the user changed their mind");
      await expect(call).rejects.toThrow();
      await held[0]!.closed;
      // The audit line is written when the call ends on the server.
      while (entries.length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(entries[0]).toMatchObject({ tool: "getPet", outcome: "error", category: "cancelled" });
    } finally {
      await bridge.close();
      await runtime.close();
    }
  });
});
