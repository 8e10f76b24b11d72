/**
 * A call cancelled while it waits for its OAuth2 access token stops waiting, and the token fetch
 * itself (shared by every call that waits for it) is aborted once no call waits any more.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatcher } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTokenSource, TokenError } from "../../../../src/runtime/auth/oauth.js";
import { createHttpAgent, type HttpOptions } from "../../../../src/runtime/upstream/send.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

/** A token request the upstream holds, and the promise of its connection closing. */
interface Held {
  res: ServerResponse;
  closed: Promise<unknown>;
}

let upstream: Upstream;
let agent: Dispatcher;
let waiters: ((held: Held) => void)[] = [];

function nextHeld(): Promise<Held> {
  return new Promise((resolve) => waiters.push(resolve));
}

beforeAll(async () => {
  upstream = await startUpstream((_req, res, incoming: IncomingMessage) => {
    // Not events.once: a reset socket emits "error" too, which would reject it.
    const closed = new Promise((resolve) => incoming.socket.once("close", resolve));
    waiters.shift()?.({ res, closed });
  });
  agent = await createHttpAgent({ connectTimeoutMs: 5_000 });
});
afterAll(async () => {
  await agent.close();
  await upstream.close();
});
afterEach(() => {
  upstream.reset();
  waiters = [];
});

const HTTP: HttpOptions = { timeoutMs: 120_000, connectTimeoutMs: 5_000, maxResponseBytes: 1_000_000 };

function tokenSource() {
  return createTokenSource({
    schemeName: "oauth",
    scheme: { type: "oauth2", flows: {} } as never,
    config: { clientId: "id", clientSecret: "secret", tokenUrl: `${upstream.url}/token` },
    baseUrl: () => upstream.url,
    getDispatcher: async () => agent,
    http: HTTP,
  });
}

describe("a call cancelled while it waits for an OAuth2 token", () => {
  it("stops waiting, and the fetch is aborted once no call waits for it", async () => {
    const tokens = tokenSource();
    const held = nextHeld();
    const controller = new AbortController();
    const waiting = tokens.getToken(controller.signal);
    const request = await held;
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(TokenError);
    await request.closed;
  });

  it("leaves the fetch running for the calls that still wait", async () => {
    const tokens = tokenSource();
    const held = nextHeld();
    const leaving = new AbortController();
    const first = tokens.getToken(leaving.signal);
    const second = tokens.getToken(new AbortController().signal);
    const request = await held;
    leaving.abort();
    await expect(first).rejects.toBeInstanceOf(TokenError);
    sendJson(request.res, 200, { access_token: "tok-1", token_type: "Bearer", expires_in: 3600 });
    await expect(second).resolves.toBe("tok-1");
    expect(upstream.requests).toHaveLength(1);
  });

  it("is refused at once when already cancelled, and fetches nothing", async () => {
    const tokens = tokenSource();
    const controller = new AbortController();
    controller.abort();
    await expect(tokens.getToken(controller.signal)).rejects.toBeInstanceOf(TokenError);
    expect(upstream.requests).toHaveLength(0);
  });
});
