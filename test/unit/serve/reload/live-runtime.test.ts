/**
 * The live runtime of hot reload, in process with real SDK Clients and a recording upstream:
 * catalog facts in tools/list, an atomic swap (a call in flight finishes on the old tools),
 * list_changed to every session, and "tool changed" for a client that did not list again.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { toLegacyMetaKey } from "../../../../src/runtime/server/meta-keys.js";
import { CATALOG_META_KEY, CONTRACT_META_KEY } from "../../../../src/runtime/server/tool-contracts.js";
import { createLiveRuntime, type LiveRuntime } from "../../../../src/serve/reload/live-runtime.js";
import {
  connectRuntime,
  errorMeta,
  type InMemoryBridge,
  planSpec,
  textOf,
} from "../../../e2e/safety-support.js";
import { echoHandler, startUpstream, type Upstream } from "../../../helpers/upstream.js";

// These clients speak the 2025 era (in memory): tools/list carries the keys under the old prefix.
const LISTED_CATALOG = toLegacyMetaKey(CATALOG_META_KEY);
const LISTED_CONTRACT = toLegacyMetaKey(CONTRACT_META_KEY);

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

interface Operation {
  operationId: string;
  summary: string;
  parameters: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
  responses: unknown;
}
type Paths = Record<string, { get: Operation }>;

/** The API at version 1, and edits of it. */
function spec(edit: (paths: Paths) => void = () => {}): BridgeModel {
  const paths: Paths = {
    "/pets": {
      get: {
        operationId: "listPets",
        summary: "List the pets",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
        responses: ok,
      },
    },
    "/pets/{id}": {
      get: {
        operationId: "getPet",
        summary: "Get a pet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: ok,
      },
    },
  };
  edit(paths);
  return planSpec({ servers: [{ url: "https://api.example.test" }], paths });
}

let upstream: Upstream;
const open: InMemoryBridge[] = [];

beforeAll(async () => {
  upstream = await startUpstream();
});

afterAll(async () => {
  await upstream.close();
});

afterEach(async () => {
  for (const bridge of open.splice(0)) await bridge.close();
  upstream.reset();
  upstream.setHandler(echoHandler);
});

function live(model: BridgeModel): LiveRuntime {
  return createLiveRuntime(runtimeOf(model));
}

function runtimeOf(model: BridgeModel) {
  return createBridgeRuntime(model, { baseUrl: upstream.url, env: {}, mode: "tools" });
}

async function connect(runtime: LiveRuntime): Promise<InMemoryBridge & { changes: () => number }> {
  const bridge = await connectRuntime(runtime);
  open.push(bridge);
  let changes = 0;
  bridge.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  return Object.assign(bridge, { changes: () => changes });
}

const breakGetPet = (paths: Paths) => {
  paths["/pets/{id}"]!.get.parameters[0]!.schema = { type: "integer" };
};
const removeListPets = (paths: Paths) => {
  delete paths["/pets"];
};
const addOptional = (paths: Paths) => {
  paths["/pets/{id}"]!.get.parameters.push({ name: "fields", in: "query", schema: { type: "string" } });
};

function both(...edits: ((paths: Paths) => void)[]): (paths: Paths) => void {
  return (paths) => {
    for (const edit of edits) edit(paths);
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe("tools/list of a live runtime", () => {
  it("carries the catalog version, and each tool its contract version and digest", async () => {
    const bridge = await connect(live(spec()));
    const listed = await bridge.client.listTools();
    expect(listed._meta?.[LISTED_CATALOG]).toEqual({ catalogVersion: "1.0.0" });
    for (const tool of listed.tools) {
      expect(tool._meta?.[LISTED_CONTRACT]).toEqual({
        contractVersion: 1,
        digest: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      });
    }
    const digests = listed.tools.map(
      (t) => (t._meta?.[LISTED_CONTRACT] as { digest?: string } | undefined)?.digest,
    );
    expect(new Set(digests).size).toBe(2);
  });

  it("keeps each page, contract facts included, within the page budget", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) {
      paths[`/things${i}`] = {
        get: { operationId: `getThing${i}`, summary: `Get thing ${i}`, responses: ok },
      };
    }
    const model = planSpec({ servers: [{ url: "https://api.example.test" }], paths });
    const pageBytes = 4_000;
    const runtime = createLiveRuntime(createBridgeRuntime(model, { env: {}, mode: "tools", pageBytes }));
    let cursor: string | undefined;
    let pages = 0;
    let tools = 0;
    do {
      const page = runtime.listTools(cursor);
      expect(Buffer.byteLength(JSON.stringify(page.tools))).toBeLessThanOrEqual(pageBytes);
      tools += page.tools.length;
      pages++;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(tools).toBe(60);
    expect(pages).toBeGreaterThan(2);
  });

  it("gives the discovery tools contract facts too", async () => {
    const runtime = createLiveRuntime(
      createBridgeRuntime(spec(), { baseUrl: upstream.url, env: {}, mode: "discovery" }),
    );
    const bridge = await connect(runtime);
    const listed = await bridge.client.listTools();
    expect(
      listed.tools.map(
        (t) => (t._meta?.[LISTED_CONTRACT] as { contractVersion?: number } | undefined)?.contractVersion,
      ),
    ).toEqual([1, 1, 1]);
  });
});

describe("a swap", () => {
  it("tells every session, bumps the versions and serves the new tools", async () => {
    const runtime = live(spec());
    const one = await connect(runtime);
    const two = await connect(runtime);
    const before = await one.client.listTools();
    const { step } = runtime.swap(runtimeOf(spec(both(breakGetPet, addOptional))));
    expect(step).toMatchObject({
      changed: true,
      previousVersion: "1.0.0",
      catalogVersion: "2.0.0",
      generation: 2,
    });
    expect([...step.broken.keys()]).toEqual(["getPet"]);
    await until(() => one.changes() === 1 && two.changes() === 1);
    const after = await one.client.listTools();
    expect(after._meta?.[LISTED_CATALOG]).toEqual({ catalogVersion: "2.0.0" });
    const contract = (list: typeof after, name: string) =>
      list.tools.find((t) => t.name === name)!._meta?.[LISTED_CONTRACT] as {
        contractVersion: number;
        digest: string;
      };
    expect(contract(after, "getPet").contractVersion).toBe(2);
    expect(contract(after, "getPet").digest).not.toBe(contract(before, "getPet").digest);
    expect(contract(after, "listPets")).toEqual(contract(before, "listPets"));
  });

  it("sends nothing for a spec whose tools did not change", async () => {
    const runtime = live(spec());
    const bridge = await connect(runtime);
    const { step } = runtime.swap(runtimeOf(spec()));
    expect(step.changed).toBe(false);
    expect(step.catalogVersion).toBe("1.0.0");
    // A round trip after the swap: the session's messages arrive in order, so a notification
    // sent for the swap would be here before the answer to the ping.
    await bridge.client.ping();
    expect(bridge.changes()).toBe(0);
    // The same round trip does bring the notification of a swap that changes the tools.
    runtime.swap(runtimeOf(spec(addOptional)));
    await bridge.client.ping();
    expect(bridge.changes()).toBe(1);
  });

  it("lets a call in flight finish on the tools it started on", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    upstream.setHandler(async (req, res) => {
      if (req.rawPath === "/pets/slow") await held;
      echoHandler(req, res, undefined as never);
    });
    const runtime = live(spec());
    const bridge = await connect(runtime);
    const inFlight = bridge.call("getPet", { id: "slow" });
    await until(() => upstream.requests.length === 1);
    // The new spec moves getPet to another path: the call in flight keeps the old one.
    runtime.swap(
      runtimeOf(
        spec((p) => {
          p["/animals/{id}"] = p["/pets/{id}"]!;
          delete p["/pets/{id}"];
        }),
      ),
    );
    release();
    const result = await inFlight;
    expect(result.isError ?? false, textOf(result)).toBe(false);
    await bridge.client.listTools();
    const next = await bridge.call("getPet", { id: "fast" });
    expect(next.isError ?? false, textOf(next)).toBe(false);
    expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pets/slow", "/animals/fast"]);
  });

  it("says when the replaced runtime's calls in flight are done", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    upstream.setHandler(async (req, res) => {
      await held;
      echoHandler(req, res, undefined as never);
    });
    const runtime = live(spec());
    const bridge = await connect(runtime);
    const inFlight = bridge.call("getPet", { id: "1" });
    await until(() => upstream.requests.length === 1);
    let drained = false;
    const swapped = runtime.swap(runtimeOf(spec(addOptional)));
    void swapped.drained.then(() => {
      drained = true;
    });
    // A round trip through the bridge while the call is held upstream: anything already settled
    // (a drained promise resolved at once) has run its callbacks by the time the answer is here.
    await bridge.client.ping();
    expect(upstream.requests).toHaveLength(1);
    expect(drained).toBe(false);
    release();
    await inFlight;
    await swapped.drained;
    expect(drained).toBe(true);
    // With nothing in flight, a runtime is drained at once.
    await runtime.swap(runtimeOf(spec())).drained;
  });

  it("refuses a cursor of the tool list it replaced", async () => {
    const runtime = createLiveRuntime(
      createBridgeRuntime(spec(), { baseUrl: upstream.url, env: {}, mode: "tools", pageBytes: 10 }),
    );
    const bridge = await connect(runtime);
    const first = await bridge.client.listTools();
    expect(first.nextCursor).toBeDefined();
    runtime.swap(
      createBridgeRuntime(spec(addOptional), {
        baseUrl: upstream.url,
        env: {},
        mode: "tools",
        pageBytes: 10,
      }),
    );
    await expect(bridge.client.listTools({ cursor: first.nextCursor! })).rejects.toThrow(/tool list changed/);
    const again = await bridge.client.listTools();
    expect((await bridge.client.listTools({ cursor: again.nextCursor! })).tools).toHaveLength(1);
  });
});

describe("a client that did not list again", () => {
  const category = (result: CallToolResult) => errorMeta(result)?.category;

  it("gets 'tool changed' for a tool the reload broke or removed, and nothing is sent", async () => {
    const runtime = live(spec());
    const bridge = await connect(runtime);
    await bridge.client.listTools();
    runtime.swap(runtimeOf(spec(both(breakGetPet, removeListPets))));
    const broken = await bridge.call("getPet", { id: "5" });
    expect(category(broken)).toBe("tool_changed");
    expect(textOf(broken)).toMatch(/The tool getPet changed since this client listed the tools/);
    expect(textOf(broken)).toMatch(/List the tools again/);
    expect(textOf(broken)).toContain("integer");
    const removed = await bridge.call("listPets", {});
    expect(category(removed)).toBe("tool_changed");
    expect(textOf(removed)).toMatch(/no longer served: it was removed/);
    expect(upstream.requests).toHaveLength(0);
    // Listing again is the cure: the new contract is called, the removed tool is unknown.
    await bridge.client.listTools();
    const fixed = await bridge.call("getPet", { id: 5 });
    expect(fixed.isError ?? false, textOf(fixed)).toBe(false);
    await expect(bridge.call("listPets", {})).rejects.toThrow(/Unknown tool: listPets/);
  });

  it("calls a tool changed only compatibly, with its old arguments", async () => {
    const runtime = live(spec());
    const bridge = await connect(runtime);
    await bridge.client.listTools();
    runtime.swap(runtimeOf(spec(addOptional)));
    const result = await bridge.call("getPet", { id: "5" });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pets/5"]);
  });

  it("is judged by the catalog version its call names, when it sends one", async () => {
    const runtime = live(spec());
    runtime.swap(runtimeOf(spec(breakGetPet)));
    // A new session (as every stateless HTTP request is) knows nothing; the call says 1.0.0.
    const bridge = await connect(runtime);
    const stale = await bridge.client.callTool({
      name: "getPet",
      arguments: { id: "5" },
      _meta: { [CATALOG_META_KEY]: { catalogVersion: "1.0.0" } },
    });
    expect(category(stale as CallToolResult)).toBe("tool_changed");
    const current = await bridge.client.callTool({
      name: "getPet",
      arguments: { id: 5 },
      _meta: { [CATALOG_META_KEY]: { catalogVersion: "2.0.0" } },
    });
    expect((current as CallToolResult).isError ?? false).toBe(false);
  });

  it("in discovery mode, gets 'tool changed' from call_operation until it describes the operation again", async () => {
    const discovery = (model: BridgeModel) =>
      createBridgeRuntime(model, { baseUrl: upstream.url, env: {}, mode: "discovery" });
    const runtime = createLiveRuntime(discovery(spec()));
    const bridge = await connect(runtime);
    await bridge.call("describe_operations", { names: ["getPet"] });
    runtime.swap(discovery(spec(breakGetPet)));
    const stale = await bridge.call("call_operation", { name: "getPet", arguments: { id: "5" } });
    expect(category(stale)).toBe("tool_changed");
    expect(textOf(stale)).toMatch(/The operation getPet changed.*describe_operations/s);
    await bridge.call("describe_operations", { names: ["getPet"] });
    const fresh = await bridge.call("call_operation", { name: "getPet", arguments: { id: 5 } });
    expect(fresh.isError ?? false, textOf(fresh)).toBe(false);
    expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pets/5"]);
  });
});
