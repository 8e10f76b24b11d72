/**
 * Cancels on `--stateless` HTTP (2025 era): a `notifications/cancelled` aborts only the call of
 * the same caller with the same request id, and callers are told apart by their credentials
 * and address (a client cannot cancel another's calls by guessing ids).
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createStatelessCalls, identifyCaller } from "../../../../src/runtime/transport/stateless-cancel.js";

const call = (id: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow" } });
const cancelOf = (requestId: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId, reason: "not needed" },
});

describe("stateless calls", () => {
  it.each([
    ["the same caller and id", "alice", 1, "alice", 1, true],
    ["another caller with the same id", "alice", 1, "mallory", 1, false],
    ["the same caller, another id", "alice", 1, "alice", 2, false],
    ["the id 1 named as the string '1'", "alice", 1, "alice", "1", false],
    ["a string id", "alice", "a-7", "alice", "a-7", true],
  ])("a cancel from %s aborts: %s", (_what, caller, id, canceller, cancelled, aborts) => {
    const calls = createStatelessCalls();
    const tracked = calls.track(caller, call(id));
    expect(calls.cancel(canceller, cancelOf(cancelled))).toBe(true);
    expect(tracked?.signal.aborted).toBe(aborts);
    if (aborts) expect(tracked?.signal.reason).toBe("not needed");
  });

  it("forgets a call once its answer is out", () => {
    const calls = createStatelessCalls();
    const tracked = calls.track("alice", call(1));
    tracked?.release();
    calls.cancel("alice", cancelOf(1));
    expect(tracked?.signal.aborted).toBe(false);
  });

  it.each([
    ["a notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
    ["a batch", [call(1)]],
    ["a request without an id", { jsonrpc: "2.0", method: "tools/list" }],
    ["an id that is an object", call({ n: 1 })],
  ])("tracks nothing for %s", (_what, body) => {
    expect(createStatelessCalls().track("alice", body)).toBeUndefined();
  });

  it.each([
    ["a request", call(1)],
    ["another notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
  ])("is not a cancel: %s", (_what, body) => {
    expect(createStatelessCalls().cancel("alice", body)).toBe(false);
  });

  it("answers a cancel of nothing in flight (no error, nothing aborted)", () => {
    expect(createStatelessCalls().cancel("alice", cancelOf(99))).toBe(true);
    expect(
      createStatelessCalls().cancel("alice", { jsonrpc: "2.0", method: "notifications/cancelled" }),
    ).toBe(true);
  });
});

function request(headers: Record<string, string>, remoteAddress = "127.0.0.1"): IncomingMessage {
  return { headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

describe("identifyCaller", () => {
  const base = request({ authorization: "Bearer a", "x-api-key": "k1", "user-agent": "x" });
  it.each([
    ["another Authorization", request({ authorization: "Bearer b", "x-api-key": "k1" }), false],
    ["another cookie", request({ authorization: "Bearer a", "x-api-key": "k1", cookie: "s=1" }), false],
    ["another pass-through credential", request({ authorization: "Bearer a", "x-api-key": "k2" }), false],
    ["another address", request({ authorization: "Bearer a", "x-api-key": "k1" }, "10.0.0.2"), false],
    [
      "another user agent only",
      request({ authorization: "Bearer a", "x-api-key": "k1", "user-agent": "y" }),
      true,
    ],
    [
      "a pass-through header named in other case",
      request({ authorization: "Bearer a", "x-api-key": "k1" }),
      true,
    ],
  ])("a request with %s is the same caller: %s", (_what, other, same) => {
    expect(identifyCaller(other, ["X-Api-Key"]) === identifyCaller(base, ["X-Api-Key"])).toBe(same);
  });

  it("never holds a credential in the clear", () => {
    expect(identifyCaller(base, ["x-api-key"])).not.toMatch(/Bearer|k1/);
  });
});
