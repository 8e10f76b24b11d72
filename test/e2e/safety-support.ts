/**
 * Shared by the safety, access, resilience, oauth and audit tests: models planned straight from
 * a spec object (no file), and real SDK Clients (optionally with the elicitation capability)
 * connected in memory to a bridge runtime.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { type PlanOptions, planModel } from "../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../src/generator/spec/load-spec.js";
import type { BridgeModel } from "../../src/model/types.js";
import type { BridgeOptions } from "../../src/runtime/engine/bridge-options.js";
import { assembleBridgeRuntime, type ToolRuntime } from "../../src/runtime/engine/bridge-runtime.js";
import { ERROR_META_KEY } from "../../src/runtime/results/error-result.js";
import { createBridgeServer } from "../../src/runtime/server/mcp-server.js";
import { readMetaValue } from "../../src/runtime/server/meta-keys.js";
import type { ServedRuntime } from "../../src/runtime/server/served-runtime.js";

/** An OpenAPI 3.1 document → model, without touching the file system. */
export function planSpec(document: Record<string, unknown>, options: PlanOptions = {}): BridgeModel {
  const loaded = {
    document: { openapi: "3.1.0", info: { title: "Test API", version: "1" }, ...document },
    specVersion: "3.1",
    source: "test.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded, options);
}

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const idParam = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

/** A small API: every method, tags, a path parameter and a body. */
export const TOY_PATHS = {
  "/pets": {
    get: { operationId: "listPets", tags: ["pets"], responses: ok },
    post: {
      operationId: "createPet",
      tags: ["pets"],
      requestBody: {
        content: {
          "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } },
        },
      },
      responses: ok,
    },
  },
  "/pets/{id}": {
    parameters: idParam,
    get: { operationId: "getPet", tags: ["pets"], responses: ok },
    put: { operationId: "replacePet", tags: ["pets"], responses: ok },
    patch: { operationId: "updatePet", tags: ["pets"], responses: ok },
    delete: { operationId: "deletePet", tags: ["pets", "admin"], responses: ok },
    head: { operationId: "headPet", tags: ["pets"], responses: { "200": { description: "OK" } } },
  },
  "/store/inventory": {
    get: { operationId: "getInventory", tags: ["store"], responses: ok },
    options: { operationId: "inventoryOptions", tags: ["store"], responses: ok },
  },
  "/admin/users/{id}": {
    parameters: idParam,
    delete: { operationId: "deleteUser", tags: ["admin"], responses: ok },
  },
};

export interface InMemoryBridge {
  client: Client;
  runtime: ToolRuntime | ServedRuntime;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface ClientSetup {
  /** Declare the elicitation capability and answer every elicitation with this. */
  elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
}

/**
 * A real SDK Client connected in memory to a bridge server over `runtime` (or a new one, made
 * without the library's start checks: these tests hold the engine's own defences at call time,
 * which a hostile server URL or a mistaken option must meet even when nothing checked before).
 */
export async function connectRuntime(
  source: BridgeModel | ToolRuntime | ServedRuntime,
  options: BridgeOptions = {},
  setup: ClientSetup = {},
): Promise<InMemoryBridge> {
  const runtime = "kind" in source ? source : assembleBridgeRuntime(source, options);
  const server = createBridgeServer(runtime);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client(
    { name: "safety-tests", version: "1.0.0" },
    setup.elicit ? { capabilities: { elicitation: {} } } : {},
  );
  const { elicit } = setup;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  await client.connect(clientTransport);
  return {
    client,
    runtime,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
      await runtime.close();
    },
  };
}

/** Text of a result from the 1.x client or from the runtime (the v2 SDK's type). */
export function textOf(result: { content: ReadonlyArray<{ type: string }> }): string {
  return result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

export function errorMeta(result: {
  _meta?: Record<string, unknown> | undefined;
}): Record<string, unknown> | undefined {
  // A 2025-era client gets the old key, a runtime's own result the new one (server/meta-keys.ts).
  return readMetaValue(result._meta, ERROR_META_KEY) as Record<string, unknown> | undefined;
}
