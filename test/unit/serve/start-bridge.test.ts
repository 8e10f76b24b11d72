/** serve of several APIs refuses namespaces that cannot be told apart before anything starts. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { startBridge } from "../../../src/serve/start-bridge.js";
import { planSpec, TOY_PATHS } from "../../e2e/safety-support.js";

const model = planSpec({ paths: TOY_PATHS });
const START = { name: "test", env: {}, help: "`openapi-mcp-bridge serve --help`" };

async function refusal(namespaces: (string | undefined)[]): Promise<BridgeError> {
  const apis = namespaces.map((namespace) => ({
    model,
    settings: {},
    env: {},
    ...(namespace !== undefined ? { namespace } : {}),
  }));
  try {
    await startBridge(apis, { transport: "http", port: 0 }, START);
  } catch (error) {
    if (error instanceof BridgeError) return error;
    throw error;
  }
  throw new Error("the bridge started");
}

describe("startBridge with several APIs", () => {
  it.each<[string, (string | undefined)[], RegExp]>([
    ["the same namespace in another case", ["erp", "ERP"], /two APIs have the namespace "ERP"/],
    [
      "namespaces that share their variables",
      ["a-b", "a_b"],
      /the namespaces "a-b" and "a_b" share the variables OPENAPI_MCP_A_B__\*/,
    ],
    ["an API without a namespace", ["erp", undefined], /has no namespace, and the bridge serves 2 APIs/],
  ])("refuses %s", async (_label, namespaces, message) => {
    const error = await refusal(namespaces);
    expect(error.diagnostics).toHaveLength(1);
    expect(error.diagnostics[0]).toMatchObject({ code: "OMB_NAMESPACE" });
    expect(error.diagnostics[0]?.message).toMatch(message);
  });
});

describe("startBridge with --watch", () => {
  it("says where calls go when a reload moves them to another origin", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-bridge-"));
    const file = join(dir, "api.json");
    writeFileSync(file, "{}");
    const moved = planSpec({ servers: [{ url: "http://127.0.0.1:2/v1" }], paths: TOY_PATHS });
    const first = planSpec({ servers: [{ url: "http://127.0.0.1:1/v1" }], paths: TOY_PATHS });
    let said = "";
    let heard: (() => void) | undefined;
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      said += String(chunk);
      if (said.includes("(changed by the reload)")) heard?.();
      return true;
    });
    const running = await startBridge(
      [
        {
          model: first,
          settings: {},
          env: {},
          watch: { source: file, intervalMs: 50, maxBytes: 1024, load: async () => moved },
        },
      ],
      { transport: "http", port: 0 },
      START,
    );
    try {
      expect(said).toContain("calls go to http://127.0.0.1:1");
      const changed = new Promise<void>((resolve) => {
        heard = resolve;
      });
      // The watcher takes the file's first fingerprint when it starts, on its own time: edits
      // are made until one is seen as a change (each a new content), not once after a sleep.
      let edits = 0;
      let done = false;
      void changed.then(() => {
        done = true;
      });
      while (!done && edits < 200) {
        writeFileSync(file, JSON.stringify({ edited: ++edits }));
        await Promise.race([changed, new Promise((resolve) => setTimeout(resolve, 100))]);
      }
      await changed;
      expect(said).toMatch(/calls go to http:\/\/127\.0\.0\.1:2[^\n]* \(changed by the reload\)/);
    } finally {
      vi.restoreAllMocks();
      await running.close();
    }
  });
});
