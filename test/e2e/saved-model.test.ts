/**
 * A saved model (`model SPEC -o FILE`, the lazy layout of model/lazy-model.ts) served by the
 * built CLI over stdio to a real SDK Client: tools mode lists what serving the spec lists, byte
 * for byte, and discovery mode searches, describes and calls an operation against a recording
 * upstream on 127.0.0.1, sending what serving the spec sends. A damaged model file is refused
 * with a coded line.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLI, connectStdio, fixture, ROOT, runCli, textOf } from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const SPEC = fixture("petstore", "petstore.openapi30.yaml");
let upstream: Upstream;
let dir: string;
let model: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, { id: 7, name: "Rex", path: req.rawUrl }));
  dir = mkdtempSync(join(tmpdir(), "omb-saved-model-"));
  model = join(dir, "petstore.model");
  const saved = await runCli(["model", SPEC, "-o", model]);
  expect(saved.code, saved.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const NO_CACHE = { OPENAPI_MCP_CACHE: "0" };

/** GitHub's spec (1,223 operations: a cache write long enough for a signal to cut), written once. */
function writeGithubSpec(): string {
  const spec = join(dir, "github.json");
  if (!existsSync(spec)) {
    writeFileSync(
      spec,
      gunzipSync(readFileSync(join(ROOT, "test/corpus/specs/octokit/api.github.com.json.gz"))),
    );
  }
  return spec;
}

/** The cache folder holds one entry, written whole (no temporary left). */
function expectOneWholeEntry(cacheDir: string): void {
  expect(readdirSync(cacheDir).filter((name) => name.endsWith(".model.json"))).toHaveLength(1);
  expect(readdirSync(cacheDir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
}

describe("serve a saved model", () => {
  it("writes the lazy layout", () => {
    expect(readFileSync(model, "utf8")).toMatch(/^\{"format":"openapi-mcp-bridge\/lazy-model","version":2,/);
  });

  it("lists in tools mode exactly what the spec lists, and calls the same request", {
    timeout: 60_000,
  }, async () => {
    const args = ["--base-url", upstream.url, "--mode", "tools"];
    const fromSpec = await connectStdio(SPEC, args, NO_CACHE);
    const fromModel = await connectStdio(model, args, NO_CACHE);
    try {
      expect(JSON.stringify(fromModel.tools)).toBe(JSON.stringify(fromSpec.tools));
      upstream.reset();
      const viaSpec = await fromSpec.call("getPetById", { petId: 7 });
      const sentBySpec = upstream.requests.map((r) => `${r.method} ${r.rawUrl}`);
      upstream.reset();
      const viaModel = await fromModel.call("getPetById", { petId: 7 });
      expect(viaModel).toEqual(viaSpec);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(sentBySpec);
      expect(sentBySpec).toEqual(["GET /pet/7"]);
    } finally {
      await fromSpec.close();
      await fromModel.close();
    }
  });

  it("saves the model cache after answering, and the next start serves from it", {
    timeout: 60_000,
  }, async () => {
    // serve answers before it writes the cache (a huge API's write is seconds), then writes it
    // in slices between requests; the next start reads the entry and writes nothing.
    const env = { OPENAPI_MCP_CACHE_DIR: join(dir, "cache") };
    const args = ["--base-url", upstream.url, "--mode", "discovery"];
    const entries = () => {
      try {
        return readdirSync(env.OPENAPI_MCP_CACHE_DIR).filter((name) => name.endsWith(".model.json"));
      } catch {
        return [];
      }
    };
    const query = { query: "find a pet by its id" };
    const first = await connectStdio(SPEC, args, env);
    let found: unknown;
    try {
      found = (await first.call("search_operations", query)).structuredContent;
      await vi.waitFor(() => expect(entries()).toHaveLength(1), { timeout: 30_000, interval: 20 });
    } finally {
      await first.close();
    }
    const entry = join(env.OPENAPI_MCP_CACHE_DIR, entries()[0]!);
    const written = statSync(entry).mtimeMs;
    // Discovery mode never digests operations: the entry does not spend the time on them.
    expect(readFileSync(entry, "utf8")).not.toContain('"contractDigests"');
    const second = await connectStdio(SPEC, args, env);
    try {
      expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
      expect((await second.call("search_operations", query)).structuredContent).toEqual(found);
    } finally {
      await second.close();
    }
    expect(entries()).toHaveLength(1);
    expect(statSync(entry).mtimeMs).toBe(written);
  });

  it("keeps tools mode's contract digests in the entry, and lists the same from it", {
    timeout: 60_000,
  }, async () => {
    const env = { OPENAPI_MCP_CACHE_DIR: join(dir, "cache-tools") };
    const args = ["--base-url", upstream.url, "--mode", "tools"];
    const entries = () => {
      try {
        return readdirSync(env.OPENAPI_MCP_CACHE_DIR).filter((name) => name.endsWith(".model.json"));
      } catch {
        return [];
      }
    };
    const first = await connectStdio(SPEC, args, env);
    try {
      await vi.waitFor(() => expect(entries()).toHaveLength(1), { timeout: 30_000, interval: 20 });
    } finally {
      await first.close();
    }
    expect(readFileSync(join(env.OPENAPI_MCP_CACHE_DIR, entries()[0]!), "utf8")).toContain(
      '"contractDigests":{"version":1',
    );
    const second = await connectStdio(SPEC, args, env);
    try {
      // the same tools, contract digests (_meta) included, byte for byte
      expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    } finally {
      await second.close();
    }
  });

  it("finishes the first start's cache write when the client ends the session with SIGTERM", {
    timeout: 120_000,
  }, async () => {
    // GitHub's 1,223 operations: a write that takes long enough to be cut by a signal sent as
    // soon as the first tools/list is answered, which is what a client closing at once does.
    const spec = writeGithubSpec();
    const cacheDir = join(dir, "cache-sigterm");
    const child = spawn(process.execPath, [CLI, "serve", spec, "--mode", "discovery"], {
      env: { ...process.env, OPENAPI_MCP_CACHE_DIR: cacheDir },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let out = "";
    const listed = new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes('"id":2')) resolve();
      });
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    await listed;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code, signal] = await exited;
    // Ended by the same signal, once the entry was written whole.
    expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
    expectOneWholeEntry(cacheDir);
  });

  it("saves the same file from the start-up cache as from a fresh plan", { timeout: 60_000 }, async () => {
    const fresh = join(dir, "fresh.model");
    const cached = join(dir, "cached.model");
    const env = { OPENAPI_MCP_CACHE_DIR: join(dir, "cache-model-command") };
    expect((await runCli(["model", SPEC, "-o", fresh, "--no-cache"])).code).toBe(0);
    expect((await runCli(["model", SPEC, "-o", cached], { env })).code).toBe(0); // writes the entry
    expect(readdirSync(env.OPENAPI_MCP_CACHE_DIR).filter((n) => n.endsWith(".model.json"))).toHaveLength(1);
    expect((await runCli(["model", SPEC, "-o", cached], { env })).code).toBe(0); // reads it
    // The same model, search index included (the layouts may share subschemas differently).
    const asJson = async (file: string) =>
      (await runCli(["model", file, "-o", "-"], { env: NO_CACHE })).stdout;
    const [fromFresh, fromCached] = await Promise.all([asJson(fresh), asJson(cached)]);
    expect(fromFresh).toContain('"searchIndex":{"version":');
    expect(fromCached).toBe(fromFresh);
  });

  it("finishes the first start's cache write when an HTTP server is stopped with SIGTERM", {
    timeout: 120_000,
  }, async () => {
    // Stopped as soon as it listens, while the write (GitHub's 1,223 operations) has only begun.
    const spec = writeGithubSpec();
    const cacheDir = join(dir, "cache-sigterm-http");
    const child = spawn(
      process.execPath,
      [CLI, "serve", spec, "--mode", "discovery", "--transport", "http", "--port", "0"],
      { env: { ...process.env, OPENAPI_MCP_CACHE_DIR: cacheDir }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let err = "";
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    const listening = new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        err += chunk.toString("utf8");
        if (/ on http:\/\/127\.0\.0\.1:\d+/.test(err)) resolve();
      });
    });
    await listening;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code, signal] = await exited;
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expectOneWholeEntry(cacheDir);
    expect(out).toBe("");
  });

  it("searches, describes and calls an operation in discovery mode", { timeout: 60_000 }, async () => {
    const session = await connectStdio(model, ["--base-url", upstream.url, "--mode", "discovery"], NO_CACHE);
    try {
      const found = await session.call("search_operations", { query: "find a pet by its id" });
      const names = (found.structuredContent as { results: { name: string }[] }).results.map((r) => r.name);
      expect(names[0]).toBe("getPetById");
      const described = await session.call("describe_operations", { names: ["getPetById"] });
      expect(textOf(described)).toContain("petId");
      upstream.reset();
      const called = await session.call("call_operation", { name: "getPetById", arguments: { petId: 7 } });
      expect(called.isError ?? false, textOf(called)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(["GET /pet/7"]);
      // invalid arguments are refused by the schema read from the file, and nothing is sent
      upstream.reset();
      const refused = await session.call("call_operation", { name: "getPetById", arguments: { petId: "x" } });
      expect(refused.isError).toBe(true);
      expect(upstream.requests).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it("refuses a truncated model file with a coded line", { timeout: 60_000 }, async () => {
    const bytes = readFileSync(model);
    const broken = join(dir, "broken.model");
    writeFileSync(broken, bytes.subarray(0, bytes.length - 20));
    const run = await runCli(["serve", broken, "--base-url", upstream.url]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/OMB_MODEL_INVALID.*truncated/);
  });
});
