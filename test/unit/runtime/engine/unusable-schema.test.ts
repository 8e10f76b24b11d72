/**
 * An operation whose input schema cannot be compiled (a spec with slips served with
 * --no-validate) is unavailable, said so with the reason, in every mode; nothing is sent and
 * nothing a client or a program does with it can end the bridge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { errorMeta, planSpec, TOY_PATHS, textOf } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream((_req, res) => sendJson(res, 200, { ok: true }));
});
afterAll(async () => {
  await upstream.close();
});

/** The toy API with getPet's input schema broken as a spec slip breaks it. */
function brokenModel(): BridgeModel {
  const planned = planSpec({ paths: TOY_PATHS });
  return {
    ...planned,
    tools: planned.tools.map((tool) =>
      tool.name === "getPet"
        ? {
            ...tool,
            inputSchema: {
              ...tool.inputSchema,
              properties: {
                ...(tool.inputSchema.properties as Record<string, unknown>),
                limit: { type: "integer", maximum: "50" },
              },
            },
          }
        : tool,
    ),
  };
}

describe("an operation whose input schema does not compile", () => {
  it.each<["tools" | "discovery", string, Record<string, unknown>]>([
    ["tools", "getPet", { id: "1" }],
    ["discovery", "call_operation", { name: "getPet", arguments: { id: "1" } }],
  ])("is an operation_unavailable result in %s mode, and nothing is sent", async (mode, name, args) => {
    const runtime = createBridgeRuntime(brokenModel(), { env: {}, baseUrl: upstream.url, mode });
    try {
      upstream.reset();
      const result = await runtime.callTool(name, args);
      expect(result.isError).toBe(true);
      expect(errorMeta(result)?.category).toBe("operation_unavailable");
      expect(textOf(result)).toMatch(/^The operation getPet cannot be called through this bridge: .*maximum/);
      expect(upstream.requests).toHaveLength(0);
      // The other operations still work.
      const other = await runtime.callTool(
        mode === "tools" ? "listPets" : "call_operation",
        mode === "tools" ? {} : { name: "listPets", arguments: {} },
      );
      expect(other.isError ?? false, textOf(other)).toBe(false);
    } finally {
      await runtime.close();
    }
  });

  it("is a failed api call in code mode: the program goes on, the bridge stays up", async () => {
    const runtime = createBridgeRuntime(brokenModel(), { env: {}, baseUrl: upstream.url, mode: "code" });
    try {
      upstream.reset();
      const result = await runtime.callTool("execute", {
        program:
          'let failed = ""; try { await api.getPet({ id: "1" }); } catch (error) { failed = error.category; } const pets = await api.listPets({}); return { failed, listed: pets !== undefined };',
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toContain("operation_unavailable");
      expect(upstream.requests.map((r) => r.rawPath)).toEqual(["/pets"]);
    } finally {
      await runtime.close();
    }
  });
});
