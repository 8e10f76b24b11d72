/** A program's progress reaches a client that asked for it (`_meta.progressToken`), call by call. */
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { connectRuntime, planSpec, TOY_PATHS, textOf } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream((_req, res) => sendJson(res, 200, { ok: true }));
});
afterAll(async () => {
  await upstream.close();
});

describe("execute with a progress token", () => {
  it("notifies the client after each API call the program makes", async () => {
    const runtime = createBridgeRuntime(planSpec({ paths: TOY_PATHS }), {
      env: {},
      baseUrl: upstream.url,
      mode: "code",
    });
    const bridge = await connectRuntime(runtime);
    try {
      const seen: Progress[] = [];
      const result = await bridge.client.callTool(
        {
          name: "execute",
          arguments: { program: 'await api.listPets({}); await api.getPet({ id: "1" }); return 2;' },
        },
        undefined,
        { onprogress: (progress) => seen.push(progress) },
      );
      expect(result.isError ?? false, textOf(result as never)).toBe(false);
      expect(seen.map((p) => p.progress)).toEqual([1, 2]);
      expect(seen[1]?.message).toBe("2 API calls made (last: getPet)");
    } finally {
      await bridge.close();
    }
  });
});
