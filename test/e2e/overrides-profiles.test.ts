/**
 * Overrides and client profiles end to end: the built CLI over stdio with a real MCP client,
 * calling the recording upstream. An override file renames, hides and re-annotates tools; the
 * openai profile's null for an optional argument never reaches the API; a model saved with
 * both serves the same without the override file.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, connectStdio, fixture, ROOT, type SpawnedConnected } from "../helpers/bridge.js";
import { specOfGets } from "../helpers/many-operations.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const run = promisify(execFile);
const SPEC = fixture("overrides", "pets.openapi30.yaml");
const MAP = fixture("overrides", "map.overrides.yaml");

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, { method: req.method, path: req.rawPath }));
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

async function withBridge(spec: string, args: string[], test: (bridge: SpawnedConnected) => Promise<void>) {
  const bridge = await connectStdio(spec, ["--base-url", upstream.url, "--no-cache", ...args]);
  try {
    await test(bridge);
  } finally {
    await bridge.close();
  }
}

function sent() {
  return upstream.requests.map((r) => ({
    line: `${r.method} ${r.rawPath}${r.hasQuery ? `?${r.rawQuery}` : ""}`,
    body: r.body.length > 0 ? r.json() : undefined,
  }));
}

describe("override file and x-mcp", () => {
  it("renames, hides and re-annotates tools for a real client, and calls go to the right operation", async () => {
    await withBridge(SPEC, ["--overrides", MAP], async (bridge) => {
      const byName = new Map(bridge.tools.map((t) => [t.name, t]));
      // in document order; /owners asks for find_pets too and gets the route's hash
      expect([...byName.keys()]).toEqual([
        "find_pets",
        "add_pet",
        "getPet",
        "replacePet",
        "find_pets_7c9332",
      ]);
      expect(byName.has("deletePet")).toBe(false);
      expect(byName.get("find_pets")!.description).toBe("Find pets, newest first.");
      expect(byName.get("getPet")!.description).toBe("Fetch one pet by its id.");
      expect(byName.get("getPet")!.annotations).toMatchObject({ title: "Pet by id", openWorldHint: false });
      expect(byName.get("add_pet")!.annotations).toMatchObject({
        idempotentHint: true,
        destructiveHint: false,
      });
      // The spec's x-mcp says destructiveHint: false; a spec cannot make a PUT non-destructive.
      expect(byName.get("replacePet")!.annotations).toMatchObject({
        title: "Replace the whole pet",
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });

      const result = await bridge.call("find_pets", { limit: 2 });
      expect(result.isError ?? false).toBe(false);
      const error = await bridge.call("deletePet", { petId: "1" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect(sent()).toEqual([{ line: "GET /pets?limit=2", body: undefined }]);
    });
  });

  it("an overlay file works the same way", async () => {
    await withBridge(SPEC, ["--overrides", fixture("overrides", "pets.overlay.yaml")], async (bridge) => {
      expect(bridge.tools.map((t) => t.name)).toEqual(["find_pets", "register_pet", "getPet", "replacePet"]);
      await bridge.call("register_pet", { name: "rex" });
      expect(sent()).toEqual([{ line: "POST /pets", body: { name: "rex" } }]);
    });
  });
});

describe("cursor profile", () => {
  it("auto serves discovery past Cursor's 40 tools, and says why on stderr", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-cursor-"));
    const spec = join(dir, "many.json");
    writeFileSync(spec, JSON.stringify(specOfGets(41, "Many", upstream.url)));
    await withBridge(spec, ["--profile", "cursor"], async (bridge) => {
      expect(bridge.tools.map((t) => t.name)).toEqual([
        "search_operations",
        "describe_operations",
        "call_operation",
      ]);
      expect(bridge.stderr()).toContain("more than the 40 tools of the cursor profile");
    });
    await withBridge(spec, [], async (bridge) => {
      expect(bridge.tools).toHaveLength(41);
    });
  });
});

describe("openai profile", () => {
  it("lists strict schemas and never sends null for an argument the spec left optional", async () => {
    await withBridge(SPEC, ["--profile", "openai"], async (bridge) => {
      const find = bridge.tools.find((t) => t.name === "find_pets")!;
      expect(find.inputSchema.required).toEqual(["limit", "status"]);
      expect(find.inputSchema.additionalProperties).toBe(false);

      const listed = await bridge.call("find_pets", { limit: null, status: null });
      expect(listed.isError ?? false).toBe(false);
      const created = await bridge.call("createPet", {
        name: "rex",
        tag: null,
        owner: { email: null, phone: "555" },
      });
      expect(created.isError ?? false).toBe(false);
      await bridge.call("find_pets", { limit: 5, status: "sold" });
      expect(sent()).toEqual([
        { line: "GET /pets", body: undefined },
        { line: "POST /pets", body: { name: "rex", owner: { phone: "555" } } },
        { line: "GET /pets?limit=5&status=sold", body: undefined },
      ]);
    });
  });

  it("without the profile, null for the same argument is refused and nothing is sent", async () => {
    await withBridge(SPEC, [], async (bridge) => {
      const result = await bridge.call("createPet", { name: "rex", tag: null });
      expect(result.isError).toBe(true);
      expect(sent()).toEqual([]);
    });
  });
});

describe("a saved model", () => {
  it("carries overrides and profile: serve model.json needs no override file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-override-model-"));
    const file = join(dir, "pets.model.json");
    await run(
      process.execPath,
      [CLI, "model", SPEC, "-o", file, "--overrides", MAP, "--profile", "openai", "--no-cache"],
      { cwd: ROOT },
    );
    await withBridge(file, [], async (bridge) => {
      expect(bridge.tools.map((t) => t.name)).toContain("add_pet");
      expect(bridge.tools.map((t) => t.name)).not.toContain("deletePet");
      await bridge.call("add_pet", { name: "rex", tag: null, owner: null });
      expect(sent()).toEqual([{ line: "POST /pets", body: { name: "rex" } }]);
    });
    const refused = await run(process.execPath, [CLI, "tools", file, "--overrides", MAP], { cwd: ROOT }).then(
      () => undefined,
      (e: { stderr: string }) => e.stderr,
    );
    expect(refused).toContain("OMB_OVERRIDES_MODEL");
  });
});
