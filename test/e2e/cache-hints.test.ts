/**
 * The cache hints of list answers (`ttlMs`, `cacheScope`: 2026-07-28 only) read by a v2 client
 * pinned to 2026-07-28, in the two configurations that differ: a fixed spec (minutes, public)
 * and `serve --watch` with pass-through credentials over HTTP (seconds, private). A 2025-era
 * client's tools/list carries neither field. After a reload, a call made from a list cached
 * before it (the client says which catalog it holds) is told the tool changed, not served
 * against a contract the client never saw.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ERROR_META_KEY } from "../../src/runtime/results/error-result.js";
import { DEFAULT_LIST_TTL_MS, RELOADING_LIST_TTL_MS } from "../../src/runtime/server/cache-hints.js";
import { CATALOG_META_KEY } from "../../src/runtime/server/tool-contracts.js";
import { CLI, type HttpBridge, ROOT, startHttpBridge, textOf } from "../helpers/bridge.js";
import { echoHandler, startUpstream, type Upstream } from "../helpers/upstream.js";

const MODERN = "2026-07-28";
// Every client here speaks 2026-07-28: the reverse-DNS keys (meta-keys.ts).
const CATALOG = CATALOG_META_KEY;
const ERROR = ERROR_META_KEY;

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

/** A pet API whose calls need an API key; `idType` is getPet's id type (a reload changes it). */
function petsSpec(idType: "string" | "integer", version: string): string {
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Pets", version },
    servers: [{ url: "https://pets.example.test" }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" } } },
    security: [{ apiKey: [] }],
    paths: {
      "/pets": { get: { operationId: "listPets", responses: ok } },
      "/pets/{id}": {
        get: {
          operationId: "getPet",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: idType } }],
          responses: ok,
        },
      },
    },
  });
}

let upstream: Upstream;
let dir: string;

beforeAll(async () => {
  upstream = await startUpstream(echoHandler);
  dir = mkdtempSync(join(tmpdir(), "omb-cache-hints-"));
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function modernClient(): Client {
  return new Client(
    { name: "omb-cache-e2e", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
}

function childEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

describe("a fixed spec over stdio", () => {
  let spec: string;

  beforeAll(() => {
    spec = join(dir, "fixed.json");
    writeFileSync(spec, petsSpec("string", "1"));
  });

  it("tells a 2026-07-28 client to reuse tools/list for minutes, in any cache", async () => {
    const client = modernClient();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", spec, "--base-url", upstream.url],
        env: childEnv(),
        cwd: ROOT,
        stderr: "ignore",
      }),
    );
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(["listPets", "getPet"]);
      expect({ ttlMs: listed.ttlMs, cacheScope: listed.cacheScope }).toEqual({
        ttlMs: DEFAULT_LIST_TTL_MS,
        cacheScope: "public",
      });
    } finally {
      await client.close();
    }
  });

  it("sends a 2025-era client's tools/list without either field", async () => {
    const answers = await exchangeOverStdio(
      [CLI, "serve", spec, "--base-url", upstream.url],
      [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
      ],
      2,
    );
    const line = answers.find((text) => (JSON.parse(text) as { id?: unknown }).id === 2)!;
    expect((JSON.parse(line) as { result: { tools: unknown[] } }).result.tools).toHaveLength(2);
    expect(line).not.toMatch(/"ttlMs"|"cacheScope"|"resultType"/);
  });
});

describe("serve --watch with pass-through credentials over HTTP", () => {
  let spec: string;
  let server: HttpBridge;
  let client: Client;

  beforeAll(async () => {
    spec = join(dir, "watched.json");
    writeFileSync(spec, petsSpec("string", "1"));
    server = await startHttpBridge(spec, [
      "--watch",
      "--base-url",
      upstream.url,
      "--pass-through-header",
      "x-user-key=apiKey",
    ]);
    client = modernClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.endpoint), {
        requestInit: { headers: { "x-user-key": "user-1-key" } },
      }),
    );
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("tells the client to reuse tools/list for seconds, in its own cache only", async () => {
    const listed = await client.listTools();
    expect({ ttlMs: listed.ttlMs, cacheScope: listed.cacheScope }).toEqual({
      ttlMs: RELOADING_LIST_TTL_MS,
      cacheScope: "private",
    });
  });

  it("gives server/discover the same hint", async () => {
    const response = await fetch(server.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "server/discover",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "server/discover",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect({ ttlMs: body.result["ttlMs"], cacheScope: body.result["cacheScope"] }).toEqual({
      ttlMs: RELOADING_LIST_TTL_MS,
      cacheScope: "private",
    });
  });

  it("after a reload, refuses a call made from the list cached before it", async () => {
    const before = await client.listTools();
    const held = (before._meta?.[CATALOG] as { catalogVersion?: string } | undefined)?.catalogVersion;
    expect(held).toBe("1.0.0");
    writeFileSync(spec, petsSpec("integer", "2"));
    await vi.waitFor(
      async () => {
        const now = await client.listTools();
        const version = (now._meta?.[CATALOG] as { catalogVersion?: string } | undefined)?.catalogVersion;
        expect(version).toBe("2.0.0");
      },
      { timeout: 15_000, interval: 50 },
    );
    const stale = await client.callTool({
      name: "getPet",
      arguments: { id: "a" },
      _meta: { [CATALOG]: { catalogVersion: held } },
    });
    expect(stale.isError).toBe(true);
    expect((stale._meta?.[ERROR] as { category?: string } | undefined)?.category, textOf(stale)).toBe(
      "tool_changed",
    );
    const sent = upstream.requests.length;
    const fresh = await client.callTool({ name: "getPet", arguments: { id: 5 } });
    expect(fresh.isError ?? false, textOf(fresh)).toBe(false);
    // The caller's own key went upstream, and only for the call made against the current list.
    expect(upstream.requests).toHaveLength(sent + 1);
    expect(upstream.requests.at(-1)?.headers["x-api-key"]).toBe("user-1-key");
  });
});

describe("serve --watch over stdio", () => {
  it("caps the TTL, and a listening 2026-07-28 client hears of a reload at once", async () => {
    const spec = join(dir, "watched-stdio.json");
    writeFileSync(spec, petsSpec("string", "1"));
    const client = modernClient();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", spec, "--watch", "--base-url", upstream.url],
        env: childEnv(),
        cwd: ROOT,
        stderr: "ignore",
      }),
    );
    try {
      const listed = await client.listTools();
      expect({ ttlMs: listed.ttlMs, cacheScope: listed.cacheScope }).toEqual({
        ttlMs: RELOADING_LIST_TTL_MS,
        cacheScope: "public",
      });
      const changed = new Promise<void>((resolveChanged) =>
        client.setNotificationHandler("notifications/tools/list_changed", () => resolveChanged()),
      );
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter.toolsListChanged).toBe(true);
      writeFileSync(spec, petsSpec("integer", "2"));
      await changed;
      const relisted = await client.listTools();
      expect((relisted._meta?.[CATALOG] as { catalogVersion?: string } | undefined)?.catalogVersion).toBe(
        "2.0.0",
      );
      await subscription.close();
    } finally {
      await client.close();
    }
  }, 30_000);
});

/** Writes `messages` to a spawned bridge's stdin, one per line; resolves with `answers` stdout lines. */
async function exchangeOverStdio(args: string[], messages: unknown[], answers: number): Promise<string[]> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, args, { cwd: ROOT, env: childEnv() });
  const lines: string[] = [];
  let buffered = "";
  try {
    return await new Promise<string[]>((resolve, reject) => {
      child.once("exit", (code) =>
        reject(new Error(`the bridge exited with ${code} after ${lines.length} lines`)),
      );
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("utf8");
        for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
          lines.push(buffered.slice(0, end));
          buffered = buffered.slice(end + 1);
        }
        if (lines.length >= answers) resolve(lines);
      });
      for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  } finally {
    child.kill();
  }
}
