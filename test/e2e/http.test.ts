/**
 * The built CLI as a Streamable HTTP server (`serve SPEC --transport http --port N`), sessionful
 * and `--stateless`, with a real SDK Client; foreign Origins are refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toLegacyListing } from "../../src/runtime/server/meta-keys.js";
import {
  connectHttp,
  fixture,
  type HttpBridge,
  type HttpConnected,
  runCli,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";
import { WIRE_SPECS, wireResponder } from "./wire-cases.js";

const SPEC = fixture(WIRE_SPECS["3.1"]);

function initializeBody(): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
}

function postInitialize(endpoint: string, origin?: string): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (origin !== undefined) headers["origin"] = origin;
  return fetch(endpoint, { method: "POST", headers, body: initializeBody() });
}

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream(wireResponder);
});

afterAll(async () => {
  await upstream.close();
});

describe.each([
  ["sessionful", [] as string[]],
  ["stateless", ["--stateless"]],
])("serve over Streamable HTTP, %s", (mode, extraArgs) => {
  let server: HttpBridge;
  let bridge: HttpConnected;

  beforeAll(async () => {
    server = await startHttpBridge(
      SPEC,
      ["--base-url", `${upstream.url}/base`, "--auth", "bearerAuth=tok-http-1", ...extraArgs],
      { OPENAPI_MCP_AUTH_APIKEYQUERY: "qk-http-2" },
    );
    bridge = await connectHttp(server);
  });

  afterAll(async () => {
    await bridge?.close();
    await server?.stop();
  });

  beforeEach(() => {
    upstream.reset();
  });

  it(mode === "sessionful" ? "hands out a session id" : "hands out no session id", () => {
    if (mode === "sessionful") {
      expect(typeof bridge.transport.sessionId).toBe("string");
      expect(bridge.transport.sessionId?.length).toBeGreaterThan(0);
    } else {
      expect(bridge.transport.sessionId).toBeUndefined();
    }
  });

  it("lists the same tools as `tools --json`", async () => {
    const run = await runCli(["tools", SPEC, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { tools?: unknown[] } | unknown[];
    // `tools --json` prints the runtime's listing (the new _meta keys); the 2025-era client gets the old ones.
    const printedTools = (Array.isArray(printed) ? printed : printed.tools) as {
      _meta?: Record<string, unknown>;
    }[];
    expect(toLegacyListing({ tools: printedTools }).tools).toEqual(JSON.parse(JSON.stringify(bridge.tools)));
  });

  it("serialises a deepObject query parameter", async () => {
    const result = await bridge.call("queryDeep", { color: { R: 100, G: 200, B: 150 } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual([
      "/base/query/deep?color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150",
    ]);
  });

  it("sends a form-urlencoded body", async () => {
    const result = await bridge.call("login", { username: "bob", password: "a b", scopes: ["x"] });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const req = upstream.requests[0]!;
    expect([...new URLSearchParams(req.text()).entries()]).toEqual([
      ["username", "bob"],
      ["password", "a b"],
      ["scopes", "x"],
    ]);
  });

  it("returns structuredContent", async () => {
    const result = await bridge.call("getPet", { petId: 9 });
    expect(result.structuredContent).toEqual({ id: 9, name: "Rex" });
  });

  it("sends credentials from --auth and env only where security asks", async () => {
    await bridge.call("secureBearer");
    await bridge.call("secureQueryKey", { q: "z" });
    await bridge.call("getPet", { petId: 1 });
    expect(upstream.requests.map((r) => [r.rawUrl, r.header("authorization") ?? null])).toEqual([
      ["/base/secure/bearer", "Bearer tok-http-1"],
      [expect.stringMatching(/^\/base\/secure\/query-key\?/), null],
      ["/base/pets/1", null],
    ]);
    expect(upstream.requests[1]!.queryPairs().sort()).toEqual([
      ["api_key", "qk-http-2"],
      ["q", "z"],
    ]);
  });

  it("serves two clients at once", async () => {
    const second = await connectHttp(server);
    try {
      const [a, b] = await Promise.all([
        bridge.call("getPet", { petId: 1 }),
        second.call("getPet", { petId: 2 }),
      ]);
      expect(a.structuredContent).toEqual({ id: 1, name: "Rex" });
      expect(b.structuredContent).toEqual({ id: 2, name: "Rex" });
    } finally {
      await second.close();
    }
  });

  it("never forwards the MCP connection's own Authorization header upstream", async () => {
    const client = await connectHttp(server, { Authorization: "Bearer mcp-client-token" });
    try {
      upstream.reset();
      await client.call("getPet", { petId: 1 });
      await client.call("secureBearer");
      expect(upstream.requests.map((r) => r.header("authorization") ?? null)).toEqual([
        null,
        "Bearer tok-http-1",
      ]);
    } finally {
      await client.close();
    }
  });

  it("refuses a request from a foreign Origin with 403", async () => {
    const response = await postInitialize(server.endpoint, "https://evil.example");
    expect(response.status).toBe(403);
    await response.body?.cancel();
  });

  it("accepts a request from its own loopback Origin", async () => {
    const response = await postInitialize(server.endpoint, `http://127.0.0.1:${server.port}`);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it("never prints a secret", () => {
    for (const secret of ["tok-http-1", "qk-http-2"]) {
      expect(server.stdout()).not.toContain(secret);
      expect(server.stderr()).not.toContain(secret);
    }
  });
});
