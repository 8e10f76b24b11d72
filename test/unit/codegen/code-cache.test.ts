/**
 * Loading CommonJS files with V8's code cache (what the printer does for the TypeScript compiler): the modules work
 * as with `require`, the cache is written once and then used, and OPENAPI_MCP_CACHE=0 turns it off.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_CODE_ENTRIES, preloadWithCodeCache } from "../../../src/generator/codegen/print/code-cache.js";
import { pruneOldestFiles } from "../../../src/generator/shared/prune-cache.js";

const root = mkdtempSync(join(tmpdir(), "omb-code-cache-"));
const require = createRequire(import.meta.url);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Two modules, the second requiring the first, in a fresh folder. */
function makeModules(name: string): { a: string; b: string } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const a = join(dir, "a.cjs");
  const b = join(dir, "b.cjs");
  writeFileSync(a, "exports.double = (n) => n * 2; exports.file = __filename;");
  writeFileSync(
    b,
    'const a = require("./a.cjs"); module.exports = { quadruple: (n) => a.double(a.double(n)), a };',
  );
  return { a, b };
}

function forget(...files: string[]): void {
  for (const file of files) delete require.cache[file];
}

describe("preloadWithCodeCache", () => {
  it("loads modules that require each other, writes the cache once, then uses it", () => {
    const { a, b } = makeModules("use");
    const env = { OPENAPI_MCP_CACHE_DIR: join(root, "cache") };
    const save = preloadWithCodeCache([a, b], env);
    const loaded = require(b) as { quadruple(n: number): number; a: { file: string } };
    expect(loaded.quadruple(3)).toBe(12);
    expect(loaded.a.file).toBe(a);
    expect(require(a)).toBe(loaded.a);
    save();
    const codeDir = join(root, "cache", "code");
    const written = readdirSync(codeDir).sort();
    expect(written).toHaveLength(2);
    const times = written.map((f) => statSync(join(codeDir, f)).mtimeMs);

    forget(a, b);
    const again = preloadWithCodeCache([a, b], env);
    expect((require(b) as { quadruple(n: number): number }).quadruple(1)).toBe(4);
    again();
    // Accepted by V8: nothing to write again.
    expect(
      readdirSync(codeDir)
        .sort()
        .map((f) => statSync(join(codeDir, f)).mtimeMs),
    ).toEqual(times);
    forget(a, b);
  });

  it("never runs code cached for other content of the same length", () => {
    const dir = join(root, "changed");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "v.cjs");
    const env = { OPENAPI_MCP_CACHE_DIR: join(root, "changed-cache") };
    writeFileSync(file, "exports.v = () => 1;");
    preloadWithCodeCache([file], env)();
    expect((require(file) as { v(): number }).v()).toBe(1);
    forget(file);
    writeFileSync(file, "exports.v = () => 2;");
    preloadWithCodeCache([file], env)();
    expect((require(file) as { v(): number }).v()).toBe(2);
    expect(readdirSync(join(root, "changed-cache", "code"))).toHaveLength(2);
    forget(file);
  });

  it("does nothing with OPENAPI_MCP_CACHE=0 or for a module already loaded", () => {
    const { a, b } = makeModules("off");
    const cacheDir = join(root, "off-cache");
    preloadWithCodeCache([a, b], { OPENAPI_MCP_CACHE: "0", OPENAPI_MCP_CACHE_DIR: cacheDir })();
    expect(require.cache[a]).toBeUndefined();
    require(a);
    preloadWithCodeCache([a, b], { OPENAPI_MCP_CACHE_DIR: cacheDir })();
    expect(require.cache[b]).toBeUndefined();
    expect(() => readdirSync(cacheDir)).toThrow();
    forget(a, b);
  });

  it(`keeps at most ${MAX_CODE_ENTRIES} entries, dropping the oldest written`, () => {
    const env = { OPENAPI_MCP_CACHE_DIR: join(root, "bounded-cache") };
    const codeDir = join(root, "bounded-cache", "code");
    const files: string[] = [];
    for (let i = 0; i < MAX_CODE_ENTRIES + 3; i++) {
      const dir = join(root, `bounded-${i}`);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, "m.cjs");
      writeFileSync(file, `exports.n = () => ${i};`);
      preloadWithCodeCache([file], env)();
      expect((require(file) as { n(): number }).n()).toBe(i);
      forget(file);
      files.push(file);
    }
    expect(readdirSync(codeDir)).toHaveLength(MAX_CODE_ENTRIES);
    // The newest entry is still there: loading that file again is a hit, nothing is written.
    const before = readdirSync(codeDir).map((f) => statSync(join(codeDir, f)).mtimeMs);
    const last = files[files.length - 1]!;
    preloadWithCodeCache([last], env)();
    forget(last);
    expect(readdirSync(codeDir).map((f) => statSync(join(codeDir, f)).mtimeMs)).toEqual(before);
  });
});

describe("pruneOldestFiles", () => {
  const cases: { given: string; times: Record<string, number>; keep: number; removed: string[] }[] = [
    { given: "fewer than kept", times: { "a.bin": 1, "b.bin": 2 }, keep: 3, removed: [] },
    { given: "as many as kept", times: { "a.bin": 1, "b.bin": 2 }, keep: 2, removed: [] },
    {
      given: "more than kept",
      times: { "new.bin": 30, "old.bin": 10, "mid.bin": 20, "older.bin": 5 },
      keep: 2,
      removed: ["older.bin", "old.bin"],
    },
    {
      given: "other files beside the entries",
      times: { "a.bin": 1, "b.bin": 2, "notes.txt": 0, "c.bin.tmp": 0 },
      keep: 1,
      removed: ["a.bin"],
    },
  ];
  it.each(cases)("$given", ({ given, times, keep, removed }) => {
    const dir = join(root, `prune-${given.replace(/\W+/g, "-")}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, time] of Object.entries(times)) {
      writeFileSync(join(dir, name), name);
      utimesSync(join(dir, name), time, time);
    }
    expect(pruneOldestFiles(dir, ".bin", keep)).toEqual(removed);
    for (const name of Object.keys(times)) expect(existsSync(join(dir, name))).toBe(!removed.includes(name));
  });

  it("ignores a folder that does not exist", () => {
    expect(pruneOldestFiles(join(root, "no-such-folder"), ".bin", 1)).toEqual([]);
  });
});
