/**
 * The circuit breaker against a real loopback API that misbehaves on purpose: application
 * errors (500, 4xx, 503 with Retry-After), one slow endpoint, local argument failures and one
 * HTTP user's failures never stop the next valid call to a healthy endpoint; an API that cannot
 * be reached at all still fails fast, and recovers through one trial call.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { BridgeOptions } from "../../src/runtime/engine/bridge-options.js";
import { textOf as cliTextOf, connectHttp, startHttpBridge } from "../helpers/bridge.js";
import { closedPort, sendBytes, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, errorMeta, type InMemoryBridge, planSpec, textOf } from "./safety-support.js";

const json = {
  "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
};
const spec = {
  servers: [{ url: "https://unused.example.test" }],
  paths: {
    "/healthy": { get: { operationId: "getHealthy", responses: json } },
    "/broken": { get: { operationId: "getBroken", responses: json } },
    "/slow": { get: { operationId: "getSlow", responses: json } },
    "/busy": { get: { operationId: "getBusy", responses: json } },
    "/reset": { get: { operationId: "getReset", responses: json } },
    "/gateway": { get: { operationId: "getGateway", responses: json } },
    "/missing": { get: { operationId: "getMissing", responses: json } },
    "/local": {
      get: {
        operationId: "getLocal",
        // undici refuses to send an Expect header: a request the client cannot build.
        parameters: [{ name: "Expect", in: "header", required: true, schema: { type: "string" } }],
        responses: json,
      },
    },
  },
};
const model = planSpec(spec);

/** Each path misbehaves in its own way; /healthy always answers. */
function misbehave(upstream: Upstream) {
  upstream.setHandler((req, res, incoming) => {
    switch (req.rawPath) {
      case "/broken":
        return sendBytes(res, 500, "text/plain", "boom");
      case "/slow":
        return; // never answers
      case "/busy":
        res.writeHead(503, { "retry-after": "3600", "content-type": "text/plain" }).end("quota");
        return;
      case "/reset":
        incoming.socket.destroy();
        return;
      case "/gateway":
        return sendBytes(res, 504, "text/plain", "gateway timeout");
      case "/missing":
        return sendBytes(res, 404, "application/json", '{"message":"no such thing"}');
      default:
        return sendJson(res, 200, { path: req.rawPath });
    }
  });
}

let upstream: Upstream;
let bridge: InMemoryBridge | undefined;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  upstream.reset();
});

async function connect(options: BridgeOptions = {}): Promise<InMemoryBridge> {
  misbehave(upstream);
  bridge = await connectRuntime(model, {
    baseUrl: upstream.url,
    timeoutMs: 300,
    retry: { retries: 0 },
    circuitBreaker: { failureThreshold: 3, cooldownMs: 60_000 },
    ...options,
  });
  return bridge;
}

const sent = (path: string) => upstream.requests.filter((r) => r.rawPath === path).length;

describe("application errors never open the circuit", () => {
  it.each([
    ["HTTP 500 answers", "getBroken", {}, /^Upstream error: HTTP 500/],
    ["HTTP 404 answers", "getMissing", {}, /^Not found: HTTP 404/],
    ["HTTP 503 with Retry-After (quota)", "getBusy", {}, /^Upstream unavailable: HTTP 503/],
    ["local argument failures", "getLocal", { Expect: "100-continue" }, /^Invalid argument/],
  ])("ten %s in a row: the same tool and a healthy one still go out", async (_what, tool, args, first) => {
    const b = await connect();
    for (let i = 0; i < 10; i++) expect(textOf(await b.call(tool, args))).toMatch(first);
    const healthy = await b.call("getHealthy");
    expect(healthy.isError ?? false).toBe(false);
    expect(healthy.structuredContent).toEqual({ path: "/healthy" });
    expect(sent("/healthy")).toBe(1);
    if (tool !== "getLocal") expect(sent(`/${tool.slice(3).toLowerCase()}`)).toBe(10);
  });

  it("a request the HTTP client refuses to build is an invalid_argument result and nothing is sent", async () => {
    const b = await connect();
    const result = await b.call("getLocal", { Expect: "100-continue" });
    expect(result.isError).toBe(true);
    expect(errorMeta(result)).toMatchObject({ category: "invalid_argument", retryable: false });
    expect(textOf(result)).toContain("expect header not supported");
    expect(textOf(result)).toContain("Nothing was sent");
    expect(textOf(result)).not.toMatch(/connection to the API failed/);
    expect(sent("/local")).toBe(0);
  });

  it("one slow endpoint's timeouts open its own circuit only: every other tool goes out", async () => {
    const b = await connect();
    for (let i = 0; i < 3; i++) expect(textOf(await b.call("getSlow"))).toMatch(/^Timeout/);
    const fast = await b.call("getSlow");
    expect(textOf(fast)).toMatch(
      /GET \/slow did not answer 3 calls in a row \(last: .*\); calls to it fail fast/,
    );
    expect(textOf(fast)).toContain("other tools are not affected");
    expect(sent("/slow")).toBe(3);
    expect((await b.call("getHealthy")).structuredContent).toEqual({ path: "/healthy" });
    expect(textOf(await b.call("getBroken"))).toMatch(/^Upstream error: HTTP 500/);
  });

  it.each([
    ["a reset connection", "getReset"],
    ["a gateway timeout (504)", "getGateway"],
  ])("%s counts against its own operation, not the origin", async (_what, tool) => {
    const b = await connect();
    for (let i = 0; i < 3; i++) await b.call(tool);
    expect(textOf(await b.call(tool))).toContain("fail fast");
    expect((await b.call("getHealthy")).structuredContent).toEqual({ path: "/healthy" });
  });

  it("counts one failure per call, not per retry attempt", async () => {
    const b = await connect({ retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
    // Three attempts each (retried: GET, reset), two calls: under a threshold of 3 calls.
    for (let i = 0; i < 2; i++) expect(textOf(await b.call("getReset"))).toContain("(after 3 attempts)");
    expect(sent("/reset")).toBe(6);
    const third = await b.call("getReset");
    expect(textOf(third)).toContain("(after 3 attempts)");
    expect(sent("/reset")).toBe(9);
    expect(textOf(await b.call("getReset"))).toContain("fail fast");
    expect(sent("/reset")).toBe(9);
  });

  it("after any sequence of application errors, the next valid call to a healthy endpoint goes out", async () => {
    const b = await connect({ circuitBreaker: { failureThreshold: 2, cooldownMs: 60_000 } });
    const steps: Array<[string, Record<string, unknown>]> = [
      ["getBroken", {}],
      ["getSlow", {}],
      ["getMissing", {}],
      ["getBusy", {}],
      ["getLocal", { Expect: "100-continue" }],
      ["getReset", {}],
      ["getGateway", {}],
    ];
    // Every order of every step, repeated: a deterministic walk over many sequences.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 8; i++) {
        const [tool, args] = steps[next() % steps.length]!;
        await b.call(tool, args);
      }
      const before = sent("/healthy");
      const healthy = await b.call("getHealthy");
      expect(healthy.structuredContent).toEqual({ path: "/healthy" });
      expect(sent("/healthy")).toBe(before + 1);
    }
  });
});

describe("an API that cannot be reached", () => {
  it("fails fast for every tool after N calls, then one trial call goes out after the cool-down", async () => {
    const port = await closedPort();
    const b = await connect({
      baseUrl: `http://127.0.0.1:${port}`,
      circuitBreaker: { failureThreshold: 3, cooldownMs: 200 },
    });
    for (let i = 0; i < 3; i++) expect(textOf(await b.call("getHealthy"))).toContain("ECONNREFUSED");
    const fast = await b.call("getBroken");
    expect(textOf(fast)).toMatch(
      /the bridge stopped calling http:\/\/127\.0\.0\.1:\d+ after 3 calls in a row could not connect \(last: could not connect to the API \(ECONNREFUSED\)\); calls fail fast for another 1 s, then one trial call is let through/,
    );
    expect(errorMeta(fast)).toMatchObject({ category: "upstream_unavailable", retryable: true });
  });

  it("recovers through one trial call once the API is back; a failed trial opens it again", async () => {
    const port = await closedPort();
    // The cool-down runs on the test's clock (a fake Date; timers stay real): it passes when the
    // test moves the clock, not by racing a real timer.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const tick = (ms: number) => vi.setSystemTime(Date.now() + ms);
    const b = await connect({
      baseUrl: `http://127.0.0.1:${port}`,
      circuitBreaker: { failureThreshold: 2, cooldownMs: 150 },
    });
    for (let i = 0; i < 2; i++) expect(textOf(await b.call("getHealthy"))).toContain("ECONNREFUSED");
    expect(textOf(await b.call("getHealthy"))).toContain("fail fast");
    tick(149);
    expect(textOf(await b.call("getHealthy"))).toContain("fail fast");
    tick(1);
    // Still down: the trial fails and the circuit opens again at once.
    expect(textOf(await b.call("getHealthy"))).toContain("ECONNREFUSED");
    expect(textOf(await b.call("getHealthy"))).toContain("fail fast");
    // The API comes back on the same port: after the cool-down one trial goes out and closes it.
    let served = 0;
    const back = createServer((req, res) => {
      served++;
      sendJson(res, 200, { path: req.url });
    });
    await new Promise<void>((resolve) => back.listen(port, "127.0.0.1", resolve));
    try {
      // Back, but the circuit is open: nothing goes out until the cool-down has passed.
      expect(textOf(await b.call("getHealthy"))).toContain("fail fast");
      expect(served).toBe(0);
      tick(150);
      expect((await b.call("getHealthy")).structuredContent).toEqual({ path: "/healthy" });
      expect(served).toBe(1);
      expect((await b.call("getBroken")).structuredContent).toEqual({ path: "/broken" });
    } finally {
      back.closeAllConnections();
      await new Promise((resolve) => back.close(resolve));
    }
  });
});

describe("one HTTP user cannot open the circuit for everyone", () => {
  it("a session whose calls time out does not stop another session's calls to the same tool", async () => {
    misbehave(upstream);
    let slow = true;
    upstream.setHandler((req, res) => {
      if (req.rawPath === "/slow" && slow) return;
      sendJson(res, 200, { path: req.rawPath });
    });
    const http = await startHttpBridge(writeSpec(), [
      "--base-url",
      upstream.url,
      "--timeout",
      "300",
      "--retries",
      "0",
      "--circuit-breaker",
      "2",
      "--circuit-cooldown",
      "60000",
    ]);
    try {
      const mallory = await connectHttp(http);
      const alice = await connectHttp(http);
      for (let i = 0; i < 2; i++) expect(cliTextOf(await mallory.call("getSlow"))).toMatch(/^Timeout/);
      expect(cliTextOf(await mallory.call("getSlow"))).toContain("fail fast");
      slow = false;
      const served = await alice.call("getSlow");
      expect(served.isError ?? false).toBe(false);
      expect(served.structuredContent).toEqual({ path: "/slow" });
      await Promise.all([mallory.close(), alice.close()]);
    } finally {
      await http.stop();
    }
  });
});

describe("defaults", () => {
  it("the default cool-down is a few seconds, not half a minute", async () => {
    const { OPTION_TABLE } = await import("../../src/runtime/config/option-table.js");
    expect(OPTION_TABLE.circuitCooldown.default).toBeLessThanOrEqual(10_000);
  });
});

function writeSpec(): string {
  const dir = mkdtempSync(join(tmpdir(), "omb-breaker-"));
  const file = join(dir, "spec.json");
  writeFileSync(
    file,
    JSON.stringify({ openapi: "3.1.0", info: { title: "Breaker", version: "1" }, ...spec }),
  );
  return file;
}
