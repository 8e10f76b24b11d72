/** The upstream client with a fake dispatcher: queueing within the timeout, attempts counted. */
import type { Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import type { OutgoingRequest } from "../../../../src/runtime/request/build-request.js";
import { createUpstreamClient, resolveUpstreamOptions } from "../../../../src/runtime/upstream/client.js";

const request: OutgoingRequest = {
  method: "GET",
  origin: "http://api.test",
  path: "/x",
  headers: {},
  missingCredentials: [],
};

/** A dispatcher whose answers the test releases by hand (it ignores abort signals). */
function manualDispatcher() {
  const pending: Array<() => void> = [];
  const dispatcher = {
    request: () =>
      new Promise((resolve) => {
        pending.push(() =>
          resolve({
            statusCode: 200,
            statusText: "OK",
            headers: { "content-type": "text/plain" },
            body: (async function* () {
              yield Buffer.from("ok");
            })(),
          }),
        );
      }),
  } as unknown as Dispatcher;
  return { dispatcher, pending };
}

describe("createUpstreamClient", () => {
  it("a call that gets no slot within its timeout fails as a queue timeout without being sent", async () => {
    const { dispatcher, pending } = manualDispatcher();
    const client = createUpstreamClient({
      http: { timeoutMs: 100, connectTimeoutMs: 100, maxResponseBytes: 1000 },
      ...resolveUpstreamOptions({ maxConcurrency: 1 }),
      getDispatcher: async () => dispatcher,
    });
    const first = client.send(request);
    const second = await client.send(request);
    expect(second.attempts).toBe(0);
    expect("failure" in second && second.failure.message).toBe(
      "no upstream call slot was free within 100 ms (the bridge runs at most 1 calls at once)",
    );
    expect(pending).toHaveLength(1);
    pending[0]!();
    const done = await first;
    expect("response" in done && done.response.body.toString()).toBe("ok");
    expect(client.limit.active).toBe(0);
  });
});
