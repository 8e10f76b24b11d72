import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { type DeferredCacheWrite, openModelCache } from "../../../src/generator/compile/model-cache.js";
import { resolveCacheDir } from "../../../src/generator/shared/cache-dir.js";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import { buildSearchIndex } from "../../../src/runtime/discovery/search.js";
import { digestToolContract } from "../../../src/runtime/server/contract.js";
import { readSavedDigest, saveContractDigests } from "../../../src/runtime/server/saved-digests.js";

const SPEC = `openapi: 3.0.3
info: { title: Cached, version: "1" }
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { "200": { description: ok } }
`;

let dir: string;
let env: Record<string, string | undefined>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "omb-cache-"));
  env = { OPENAPI_MCP_CACHE_DIR: join(dir, "cache") };
});

describe("model cache", () => {
  it("hands the loader the bytes it hashed, once, and the loader loads them as it would the file", async () => {
    const spec = join(dir, "spec.json");
    const text = JSON.stringify({ openapi: "3.0.3", info: { title: "Café", version: "1" }, paths: {} });
    await writeFile(spec, text);
    const cache = await openModelCache(spec, { validate: true }, env);
    const read = cache!.takeSpecBytes();
    expect(read?.location).toBe(resolve(spec));
    expect(read?.bytes.toString("utf8")).toBe(text);
    expect(cache!.takeSpecBytes()).toBeUndefined();
    expect(await loadSpec(spec, {}, read)).toEqual(await loadSpec(spec));
    expect(read?.bytes.toString("utf8")).toBe(text);
    // The loader's own cap still holds for bytes read before it.
    const again = (await openModelCache(spec, { validate: true }, env))!.takeSpecBytes();
    await expect(loadSpec(spec, { maxSpecBytes: 10 }, again)).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ code: "OMB_SPEC_TOO_LARGE" })],
    });
  });

  it("returns the model a miss planned, for the same bytes and options", async () => {
    const spec = join(dir, "spec.yaml");
    await writeFile(spec, SPEC);
    const cache = await openModelCache(spec, { validate: true }, env);
    expect(await cache!.read()).toEqual({ miss: "absent" });
    const model = await buildModel(spec, { cache: false });
    await cache!.write(model);
    const again = await openModelCache(spec, { validate: true }, env);
    // with the search index discovery reads at the next start
    expect(await again!.read()).toEqual({ model: { ...model, searchIndex: buildSearchIndex(model.tools) } });
    expect(await readdir(join(dir, "cache"))).toHaveLength(1);
  });

  it.each([
    { title: "other options", options: { validate: false }, text: SPEC },
    { title: "changed bytes", options: { validate: true }, text: SPEC.replace("getThing", "fetchThing") },
  ])("misses for $title", async ({ options, text }) => {
    const spec = join(dir, "spec.yaml");
    await writeFile(spec, SPEC);
    await (await openModelCache(spec, { validate: true }, env))!.write(
      await buildModel(spec, { cache: false }),
    );
    await writeFile(spec, text);
    expect(await (await openModelCache(spec, options, env))!.read()).toEqual({ miss: "absent" });
  });

  it.each([
    {
      title: "external refs",
      source: "spec.yaml",
      text: `${SPEC}components:\n  schemas:\n    A: { $ref: "./a.yaml" }\n`,
    },
    { title: "stdin", source: "-", text: SPEC },
    { title: "a URL", source: "https://example.com/spec.yaml", text: SPEC },
  ])("does not cache $title", async ({ source, text }) => {
    const path = source === "spec.yaml" ? join(dir, source) : source;
    if (source === "spec.yaml") await writeFile(path, text);
    expect(await openModelCache(path, {}, env)).toBeUndefined();
  });

  it.each([
    {
      title: "a path ending in /$ref (Graph's)",
      text: `${SPEC}  /groups/{id}/members/$ref:\n    get: { responses: { "200": { description: ok } } }\n`,
    },
    {
      title: "a JSON path ending in /$ref",
      text: JSON.stringify({ paths: { "/members/$ref": { get: {} } } }),
    },
    {
      title: "a property named $ref",
      text: `${SPEC}components:\n  schemas:\n    A: { properties: { $ref: { type: string } } }\n`,
    },
  ])("caches a self-contained spec with $title", async ({ text }) => {
    const spec = join(dir, "spec.yaml");
    await writeFile(spec, text);
    expect(await openModelCache(spec, {}, env)).toBeDefined();
  });

  it("is off with OPENAPI_MCP_CACHE=0 and ignores a damaged entry", async () => {
    const spec = join(dir, "spec.yaml");
    await writeFile(spec, SPEC);
    expect(await openModelCache(spec, {}, { ...env, OPENAPI_MCP_CACHE: "0" })).toBeUndefined();
    const cache = await openModelCache(spec, {}, env);
    await cache!.write(await buildModel(spec, { cache: false }));
    const [entry] = await readdir(join(dir, "cache"));
    await writeFile(join(dir, "cache", entry!), "{ not json");
    expect(await cache!.read()).toMatchObject({
      miss: "unusable",
      why: expect.stringContaining("OMB_MODEL_INVALID"),
    });
  });

  describe("written after the model is returned (serve)", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("returns the planned model before the write, which then saves what a later start reads", async () => {
      vi.stubEnv("OPENAPI_MCP_CACHE_DIR", join(dir, "cache"));
      const spec = join(dir, "spec.yaml");
      await writeFile(spec, SPEC);
      const writes: DeferredCacheWrite[] = [];
      const model = await buildModel(spec, { deferCacheWrite: (write) => writes.push(write) });
      expect(writes).toHaveLength(1);
      await expect(readdir(join(dir, "cache"))).rejects.toThrow(/ENOENT/);
      // the search builds its own index from the tools; the entry keeps one for the next start
      expect(model.searchIndex).toBeUndefined();
      // asked with the contract digests, as serve asks when it lists the operations as tools
      await writes[0]!(undefined, { contractDigests: true });
      expect(await readdir(join(dir, "cache"))).toHaveLength(1);
      const again = await buildModel(spec, { deferCacheWrite: (write) => writes.push(write) });
      expect(writes).toHaveLength(1); // a hit has nothing to write
      // with the contract digests too, which a start from the entry reads instead of computing
      expect(JSON.stringify(again)).toBe(
        JSON.stringify({
          ...model,
          searchIndex: buildSearchIndex(model.tools),
          contractDigests: saveContractDigests(model.tools),
        }),
      );
      for (const tool of again.tools) expect(readSavedDigest(again, tool)).toBe(digestToolContract(tool));
    });

    it("leaves the contract digests out when not asked (discovery and code mode never digest operations)", async () => {
      vi.stubEnv("OPENAPI_MCP_CACHE_DIR", join(dir, "cache"));
      const spec = join(dir, "spec.yaml");
      await writeFile(spec, SPEC);
      const writes: DeferredCacheWrite[] = [];
      const model = await buildModel(spec, { deferCacheWrite: (write) => writes.push(write) });
      await writes[0]!();
      const again = await buildModel(spec, { deferCacheWrite: (write) => writes.push(write) });
      expect(again.contractDigests).toBeUndefined();
      expect(JSON.stringify(again)).toBe(
        JSON.stringify({ ...model, searchIndex: buildSearchIndex(model.tools) }),
      );
    });

    it("hands over no write when caching is off", async () => {
      vi.stubEnv("OPENAPI_MCP_CACHE_DIR", join(dir, "cache"));
      const spec = join(dir, "spec.yaml");
      await writeFile(spec, SPEC);
      const writes: (() => Promise<void>)[] = [];
      await buildModel(spec, { cache: false, deferCacheWrite: (write) => writes.push(write) });
      expect(writes).toHaveLength(0);
    });
  });

  it("lives under XDG_CACHE_HOME unless told otherwise", () => {
    expect(resolveCacheDir({ XDG_CACHE_HOME: "/x" })).toBe(join("/x", "openapi-mcp-bridge"));
    expect(resolveCacheDir({ OPENAPI_MCP_CACHE_DIR: "/y", XDG_CACHE_HOME: "/x" })).toBe("/y");
  });
});
