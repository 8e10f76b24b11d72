/**
 * Tool hooks in the runtime (what generated projects fill in): `beforeCall` changes what is
 * sent, `afterCall` changes what comes back, failures are error results, secrets are redacted
 * after the hooks, and a call that fails validation never reaches them. A real SDK Client in
 * memory against a recording upstream.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildModel, createBridgeServer, type ToolHooks } from "../../../src/index.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { fixture, textOf } from "../../helpers/bridge.js";
import { startUpstream, type Upstream } from "../../helpers/upstream.js";

let upstream: Upstream;
let model: BridgeModel;

beforeAll(async () => {
  upstream = await startUpstream();
  model = await buildModel(fixture("petstore", "petstore.openapi30.yaml"));
});

afterAll(async () => {
  await upstream.close();
});

beforeEach(() => {
  upstream.reset();
});

async function callWith(
  hooks: Record<string, ToolHooks<object>>,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const server = createBridgeServer(model, {
    baseUrl: upstream.url,
    hooks,
    auth: { api_key: "secret-key-123" },
    env: {},
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "hooks-test", version: "1.0.0" });
  await client.connect(clientTransport);
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
    await server.close();
  }
}

interface PetArgs {
  petId: number;
}

describe("tool hooks", () => {
  it("beforeCall gets the validated, coerced arguments and decides what is sent", async () => {
    const seen: unknown[] = [];
    const hooks: ToolHooks<PetArgs> = {
      beforeCall(args) {
        seen.push(args);
        return { ...args, petId: args.petId + 1 };
      },
    };
    const result = await callWith({ getPetById: hooks }, "getPetById", { petId: "41" });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(seen).toEqual([{ petId: 41 }]);
    expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pet/42"]);
  });

  it("afterCall gets the result and the arguments sent, and its result is returned", async () => {
    const hooks: ToolHooks<PetArgs> = {
      async afterCall(result, args) {
        return { content: [{ type: "text", text: `pet ${args.petId}: ${result.isError ? "error" : "ok"}` }] };
      },
    };
    const result = await callWith({ getPetById: hooks }, "getPetById", { petId: 7 });
    expect(result.content).toEqual([{ type: "text", text: "pet 7: ok" }]);
  });

  it("afterCall also sees upstream errors", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" }).end('{"message":"no such pet"}');
    });
    try {
      const statuses: boolean[] = [];
      const hooks: ToolHooks<PetArgs> = {
        afterCall(result) {
          statuses.push(result.isError === true);
          return result;
        },
      };
      const result = await callWith({ getPetById: hooks }, "getPetById", { petId: 1 });
      expect(result.isError).toBe(true);
      expect(statuses).toEqual([true]);
    } finally {
      upstream.setHandler((req, res) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ path: req.rawPath }));
      });
    }
  });

  it.each<[string, ToolHooks<PetArgs>, RegExp]>([
    [
      "beforeCall throws",
      {
        beforeCall() {
          throw new Error("not today");
        },
      },
      /beforeCall hook of getPetById failed: not today/,
    ],
    [
      "beforeCall returns no object",
      { beforeCall: () => null as unknown as PetArgs },
      /beforeCall hook of getPetById failed: it must return the arguments object/,
    ],
    [
      "afterCall rejects",
      { afterCall: () => Promise.reject(new Error("broken")) },
      /afterCall hook of getPetById failed: broken/,
    ],
  ])("%s: an error result, nothing else", async (_name, hooks, message) => {
    const result = await callWith({ getPetById: hooks }, "getPetById", { petId: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(result._meta?.["openapi-mcp-bridge/error"]).toMatchObject({ category: "hook" });
  });

  it("redacts secrets after afterCall", async () => {
    const hooks: ToolHooks<PetArgs> = {
      afterCall: () => ({ content: [{ type: "text", text: "the key is secret-key-123" }] }),
    };
    const result = await callWith({ getPetById: hooks }, "getPetById", { petId: 1 });
    expect(textOf(result)).toBe("the key is [REDACTED]");
  });

  it("never runs hooks for a call that fails validation", async () => {
    let called = false;
    const hooks: ToolHooks<PetArgs> = {
      beforeCall(args) {
        called = true;
        return args;
      },
    };
    const result = await callWith({ getPetById: hooks }, "getPetById", { petId: "not a number" });
    expect(result.isError).toBe(true);
    expect(called).toBe(false);
    expect(upstream.requests).toEqual([]);
  });

  it("only runs a tool's own hooks (inherited properties are not hooks)", async () => {
    const hooks = Object.create({ getPetById: { beforeCall: () => ({ petId: 999 }) } }) as Record<
      string,
      ToolHooks<object>
    >;
    const result = await callWith(hooks, "getPetById", { petId: 5 });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pet/5"]);
  });
});
