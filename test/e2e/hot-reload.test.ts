/**
 * `serve --watch` through real SDK Clients, over stdio and Streamable HTTP, with a recording
 * upstream on 127.0.0.1: an edit of the spec file reaches every session as
 * notifications/tools/list_changed and a new tools/list; a broken edit keeps the old tools; a
 * call in flight during the swap completes; a call of a tool the reload removed or broke, from
 * a client that did not list again, gets the "tool changed" result and sends nothing; saving
 * the old spec rolls back; a spec URL is polled with If-None-Match; several APIs are each
 * watched; the audit log has a line per reload.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  connectHttp,
  connectStdio,
  type HttpBridge,
  listAllTools,
  type SpawnedConnected,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { echoHandler, startUpstream, type Upstream } from "../helpers/upstream.js";

const CATALOG = "openapi-mcp-bridge/catalog";
const CONTRACT = "openapi-mcp-bridge/contract";
const ERROR = "openapi-mcp-bridge/error";

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const id = (type: string) => [{ name: "id", in: "path", required: true, schema: { type } }];

/** Version 1 of the pet API: list, get (id a string), delete. */
function petsV1(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    servers: [{ url: "https://pets.example.test" }],
    paths: {
      "/pets": { get: { operationId: "listPets", summary: "List the pets", responses: ok } },
      "/pets/{id}": {
        get: { operationId: "getPet", summary: "Get a pet", parameters: id("string"), responses: ok },
        delete: {
          operationId: "deletePet",
          summary: "Delete a pet",
          parameters: id("string"),
          responses: ok,
        },
      },
    },
  };
}

/** Version 2: deletePet removed, getPet's id an integer, listToys new. */
function petsV2(): Record<string, unknown> {
  const spec = petsV1() as { paths: Record<string, Record<string, unknown>> };
  delete spec.paths["/pets/{id}"]!.delete;
  (spec.paths["/pets/{id}"]!.get as { parameters: unknown }).parameters = id("integer");
  spec.paths["/toys"] = { get: { operationId: "listToys", summary: "List the toys", responses: ok } };
  return spec;
}

let dir: string;
let upstream: Upstream;
/** Requests the upstream holds until `release` (a call in flight). */
let release: () => void = () => {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "omb-reload-"));
  upstream = await startUpstream();
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  upstream.reset();
  upstream.setHandler(echoHandler);
});

function writeSpec(file: string, spec: Record<string, unknown> | string): void {
  writeFileSync(file, typeof spec === "string" ? spec : JSON.stringify(spec, null, 2));
}

/** Holds requests to `/pets/slow` until `release()`. */
function holdSlowCalls(): void {
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  upstream.setHandler(async (req, res) => {
    if (req.rawPath.endsWith("/slow")) await held;
    echoHandler(req, res, undefined as never);
  });
}

/**
 * A call of getPet held upstream while `change` makes the bridge reload (list_changed comes),
 * then let go: it must complete, on the tools it started on.
 */
async function swapDuringCall(
  bridge: { call(name: string, args: Record<string, unknown>): Promise<CallToolResult> },
  changed: { next(): Promise<void> },
  change: () => void,
): Promise<void> {
  holdSlowCalls();
  const inFlight = bridge.call("getPet", { id: "slow" });
  await until("the call in flight upstream", () => upstream.requests.length === 1);
  const notified = changed.next();
  change();
  await notified;
  release();
  const finished = await inFlight;
  expect(finished.isError ?? false, textOf(finished)).toBe(false);
}

/** Counts the list_changed notifications a client gets. */
function countListChanged(client: Client): { count(): number; next(): Promise<void> } {
  let count = 0;
  let waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    for (const wake of waiters) wake();
    waiters = [];
  });
  return {
    count: () => count,
    next: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error("no notifications/tools/list_changed within 10 s")),
          10_000,
        );
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function catalogVersion(client: Client): Promise<unknown> {
  return ((await client.listTools())._meta?.[CATALOG] as { catalogVersion?: unknown } | undefined)
    ?.catalogVersion;
}

const names = (tools: { name: string }[]) => tools.map((t) => t.name).sort();
const category = (result: CallToolResult) =>
  (result._meta?.[ERROR] as { category?: string } | undefined)?.category;

describe("serve --watch over stdio", () => {
  let file: string;
  let audit: string;
  let bridge: SpawnedConnected;
  let changed: ReturnType<typeof countListChanged>;

  beforeAll(async () => {
    file = join(dir, "stdio-pets.json");
    audit = join(dir, "stdio-audit.jsonl");
    writeSpec(file, petsV1());
    bridge = await connectStdio(file, [
      "--watch",
      "--base-url",
      upstream.url,
      "--mode",
      "tools",
      "--audit-log",
      audit,
    ]);
    changed = countListChanged(bridge.client);
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("lists the spec's tools, with the catalog version and each tool's contract", async () => {
    expect(names(bridge.tools)).toEqual(["deletePet", "getPet", "listPets"]);
    expect(await catalogVersion(bridge.client)).toBe("1.0.0");
    for (const tool of bridge.tools) {
      expect(tool._meta?.[CONTRACT]).toMatchObject({
        contractVersion: 1,
        digest: expect.stringMatching(/^sha256:/),
      });
    }
  });

  it("keeps serving the old tools when an edit breaks the spec, and says why on stderr", async () => {
    writeSpec(file, '{ "openapi": "3.1.0", "info": { "title": "Pets" ');
    await until("the reload failure on stderr", () => bridge.stderr().includes("OMB_RELOAD_FAILED"));
    expect(bridge.stderr()).toMatch(
      /the changed spec .*stdio-pets\.json is not served \(still serving catalog 1\.0\.0\)/,
    );
    expect(bridge.stderr()).toMatch(/OMB_SPEC_PARSE/);
    expect(changed.count()).toBe(0);
    expect(names(await listAllTools(bridge.client))).toEqual(["deletePet", "getPet", "listPets"]);
    const result = await bridge.call("getPet", { id: "a" });
    expect(result.isError ?? false, textOf(result)).toBe(false);
  });

  it("swaps to the edited spec: list_changed, a call in flight completes, a removed tool says it changed", async () => {
    await swapDuringCall(bridge, changed, () => writeSpec(file, petsV2()));
    expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pets/slow"]);
    // This client has not listed again: the tools it holds that the reload broke say so.
    const removed = await bridge.call("deletePet", { id: "a" });
    expect(removed.isError).toBe(true);
    expect(category(removed)).toBe("tool_changed");
    expect(textOf(removed)).toMatch(/The tool deletePet changed since this client listed the tools/);
    expect(textOf(removed)).toMatch(/List the tools again/);
    const broken = await bridge.call("getPet", { id: "a" });
    expect(category(broken)).toBe("tool_changed");
    expect(upstream.requests).toHaveLength(1);
    // Listing again shows the new tools, which are called as they are now.
    const tools = await listAllTools(bridge.client);
    expect(names(tools)).toEqual(["getPet", "listPets", "listToys"]);
    expect(tools.find((t) => t.name === "getPet")?._meta?.[CONTRACT]).toMatchObject({ contractVersion: 2 });
    expect(await catalogVersion(bridge.client)).toBe("2.0.0");
    const fresh = await bridge.call("getPet", { id: 7 });
    expect(fresh.isError ?? false, textOf(fresh)).toBe(false);
    await expect(bridge.call("deletePet", { id: "a" })).rejects.toThrow(/Unknown tool: deletePet/);
    expect(bridge.stderr()).toMatch(
      /reloaded .*stdio-pets\.json in \d+ ms: catalog 1\.0\.0 → 2\.0\.0 \(\d+ breaking/,
    );
    expect(bridge.stderr()).toMatch(/breaking tool-removed deletePet/);
  });

  it("rolls back when the old spec is saved again", async () => {
    const notified = changed.next();
    writeSpec(file, petsV1());
    await notified;
    expect(names(await listAllTools(bridge.client))).toEqual(["deletePet", "getPet", "listPets"]);
    expect(await catalogVersion(bridge.client)).toBe("3.0.0");
    const result = await bridge.call("deletePet", { id: "a" });
    expect(result.isError ?? false, textOf(result)).toBe(false);
  });

  it("writes each reload, and the refused call, to the audit log", () => {
    const lines = readFileSync(audit, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const events = lines.filter((l) => l.event !== undefined);
    expect(events.map((e) => [e.event, e.catalogVersion])).toEqual([
      ["reload_failed", "1.0.0"],
      ["reload", "2.0.0"],
      ["reload", "3.0.0"],
    ]);
    expect(events[1]).toMatchObject({ previousVersion: "1.0.0", broken: ["deletePet", "getPet"] });
    expect(lines.some((l) => l.tool === "deletePet" && l.category === "tool_changed")).toBe(true);
  });

  it("writes nothing but MCP messages to stdout (the client read them all)", () => {
    expect(bridge.stderr()).not.toMatch(/^\{"jsonrpc"/m);
  });
});

describe("serve --watch over Streamable HTTP", () => {
  let file: string;
  let http: HttpBridge;

  beforeAll(async () => {
    file = join(dir, "http-pets.json");
    writeSpec(file, petsV1());
    http = await startHttpBridge(file, ["--watch", "--base-url", upstream.url, "--mode", "tools"]);
  });

  afterAll(async () => {
    await http?.stop();
  });

  it("tells every session; each is judged by what it listed", async () => {
    const listing = await connectHttp(http);
    const stale = await connectHttp(http);
    const changes = [countListChanged(listing.client), countListChanged(stale.client)];
    try {
      const notified = Promise.all(changes.map((c) => c.next()));
      writeSpec(file, petsV2());
      await notified;
      // One session lists again and calls the new contract; the other did not and is told.
      expect(names(await listAllTools(listing.client))).toEqual(["getPet", "listPets", "listToys"]);
      const fresh = await listing.call("getPet", { id: 3 });
      expect(fresh.isError ?? false, textOf(fresh)).toBe(false);
      const old = await stale.call("getPet", { id: "3" });
      expect(category(old)).toBe("tool_changed");
      const removed = await stale.call("deletePet", { id: "3" });
      expect(category(removed)).toBe("tool_changed");
      // An unchanged tool works for both.
      const list = await stale.call("listPets", {});
      expect(list.isError ?? false, textOf(list)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(["GET /pets/3", "GET /pets"]);
    } finally {
      await listing.close();
      await stale.close();
    }
  });

  it("completes a call in flight during the swap, and keeps the old tools on a broken edit", async () => {
    writeSpec(file, petsV1());
    const client = await connectHttp(http);
    const changed = countListChanged(client.client);
    try {
      await until("the rollback to v1", () => http.stderr().includes("catalog 2.0.0 → 3.0.0"));
      expect(names(await listAllTools(client.client))).toEqual(["deletePet", "getPet", "listPets"]);
      await swapDuringCall(client, changed, () => writeSpec(file, petsV2()));
      writeSpec(file, "openapi: [");
      await until("the reload failure", () => http.stderr().includes("OMB_RELOAD_FAILED"));
      expect(names(await listAllTools(client.client))).toEqual(["getPet", "listPets", "listToys"]);
    } finally {
      await client.close();
    }
  });
});

describe("serve --watch of a spec URL", () => {
  let server: Server;
  let specText = JSON.stringify(petsV1());
  const polls: { ifNoneMatch: string | undefined; status: number }[] = [];
  let bridge: SpawnedConnected;

  beforeAll(async () => {
    // A spec host with ETags: 304 when the client already has this version.
    server = createServer((req, res) => {
      const etag = `"${Buffer.from(specText).toString("base64url").slice(-16)}"`;
      const ifNoneMatch = req.headers["if-none-match"];
      const status = ifNoneMatch === etag ? 304 : 200;
      polls.push({ ifNoneMatch, status });
      res.writeHead(status, { etag, "content-type": "application/json" });
      res.end(status === 304 ? undefined : specText);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as AddressInfo;
    bridge = await connectStdio(`http://127.0.0.1:${port}/openapi.json`, [
      "--watch",
      "--watch-interval",
      "100",
      "--base-url",
      upstream.url,
      "--mode",
      "tools",
    ]);
  });

  afterAll(async () => {
    await bridge?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("asks with If-None-Match, and reloads when the spec changes", async () => {
    await until("a few polls", () => polls.filter((p) => p.status === 304).length >= 2);
    expect(polls.filter((p) => p.status === 304).every((p) => p.ifNoneMatch !== undefined)).toBe(true);
    const changed = countListChanged(bridge.client);
    const notified = changed.next();
    specText = JSON.stringify(petsV2());
    await notified;
    expect(names(await listAllTools(bridge.client))).toEqual(["getPet", "listPets", "listToys"]);
  });
});

/** The tools of two APIs after the shop's spec went to version 2 and the pets' stayed at 1. */
const PETS_V1_SHOP_V2 = [
  "pets__deletePet",
  "pets__getPet",
  "pets__listPets",
  "shop__getPet",
  "shop__listPets",
  "shop__listToys",
];

describe("serve --watch of several APIs", () => {
  it("reloads the API whose spec changed, and leaves the other as it was", async () => {
    const pets = join(dir, "multi-pets.json");
    const shop = join(dir, "multi-shop.json");
    writeSpec(pets, petsV1());
    writeSpec(shop, { ...petsV1(), info: { title: "Shop", version: "1" } });
    const bridge = await connectStdio(
      pets,
      [shop, "--namespace", "pets,shop", "--watch", "--mode", "tools"],
      {
        OPENAPI_MCP_PETS__BASE_URL: `${upstream.url}/pets-api`,
        OPENAPI_MCP_SHOP__BASE_URL: `${upstream.url}/shop-api`,
      },
    );
    try {
      const changed = countListChanged(bridge.client);
      const notified = changed.next();
      writeSpec(shop, { ...petsV2(), info: { title: "Shop", version: "2" } });
      await notified;
      expect(names(await listAllTools(bridge.client))).toEqual(PETS_V1_SHOP_V2);
      // stderr is another pipe than the notification's: its line may come a moment later.
      await vi.waitFor(() => expect(bridge.stderr()).toMatch(/reloaded api shop from .*multi-shop\.json/), {
        timeout: 5000,
      });
      const a = await bridge.call("pets__deletePet", { id: "a" });
      const b = await bridge.call("shop__listToys", {});
      for (const result of [a, b]) expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual([
        "DELETE /pets-api/pets/a",
        "GET /shop-api/toys",
      ]);
    } finally {
      await bridge.close();
    }
  });

  it("watches only the APIs a config file says to", async () => {
    const pets = join(dir, "config-pets.json");
    const shop = join(dir, "config-shop.json");
    writeSpec(pets, petsV1());
    writeSpec(shop, { ...petsV1(), info: { title: "Shop", version: "1" } });
    const config = join(dir, "watch.yaml");
    writeFileSync(
      config,
      [
        "mode: tools",
        "watch: true",
        "watch-interval: 200",
        "apis:",
        `  pets: { spec: ${pets}, base-url: "${upstream.url}/pets-api", watch: false }`,
        `  shop: { spec: ${shop}, base-url: "${upstream.url}/shop-api" }`,
      ].join("\n"),
    );
    const bridge = await connectStdio("--config", [config]);
    try {
      const initial = names(await listAllTools(bridge.client));
      const changed = countListChanged(bridge.client);
      // The pets spec is not watched: its edit is not served...
      writeSpec(pets, petsV2());
      // ...while the shop's, watched, is.
      const notified = changed.next();
      writeSpec(shop, { ...petsV2(), info: { title: "Shop", version: "2" } });
      await notified;
      expect(names(await listAllTools(bridge.client))).toEqual(PETS_V1_SHOP_V2);
      // No wait for nothing to happen: a second shop edit, written after the pets edit and the
      // first reload, is awaited instead. A watch on the pets spec would have reloaded before
      // it (its edit came first, the same debounce), on the same stdout and stderr pipes.
      const again = changed.next();
      writeSpec(shop, { ...petsV1(), info: { title: "Shop", version: "3" } });
      await again;
      expect(changed.count()).toBe(2);
      expect(names(await listAllTools(bridge.client))).toEqual(initial);
      const shopReloads = () => bridge.stderr().match(/reloaded api shop from .*config-shop\.json/g) ?? [];
      await vi.waitFor(() => expect(shopReloads()).toHaveLength(2), { timeout: 5000 });
      expect(bridge.stderr()).not.toMatch(/config-pets\.json/);
    } finally {
      await bridge.close();
    }
  });
});
