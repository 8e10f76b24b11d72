/**
 * The command as the build leaves it (scripts/bundle-cli.mjs): dist/cli/main.js, a stub that
 * requires main.cjs, and its CommonJS chunks. Every compiled module is in exactly one chunk (one copy of the SDK, zod and every module
 * state per process), a stdio start never reaches the HTTP side statically, and each module
 * that finds files beside itself through `import.meta.url` still gets its compiled file's
 * address. The other e2e tests run this bundle through real clients.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/bridge.js";
import { readStaticClosure } from "../helpers/static-imports.js";

const CLI = join(ROOT, "dist", "cli");
const STUB = join(CLI, "main.js");
const ENTRY = join(CLI, "main.cjs");
const chunks = readdirSync(CLI)
  .filter((name) => name.startsWith("chunk-"))
  .map((name) => join(CLI, name));
const bundle = [ENTRY, ...chunks];

/** The compiled modules a chunk holds, by the `// dist/...` line before each. */
function modulesOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^\/\/ (dist\/\S+\.js)$/gm)].map((m) => m[1]!);
}

describe("the bundled command", () => {
  it("is chunks beside main.js holding each compiled module once", () => {
    const stub = readFileSync(STUB, "utf8");
    expect(stub.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(stub).toContain('createRequire(import.meta.url)("./main.cjs")');
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((file) => file.endsWith(".cjs"))).toBe(true);
    // Strict, as the ES modules they hold were.
    for (const file of bundle) expect(readFileSync(file, "utf8"), file).toMatch(/^"use strict";$/m);
    const modules = bundle.flatMap(modulesOf);
    const counts = new Map<string, number>();
    for (const module of modules) counts.set(module, (counts.get(module) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    for (const module of [
      "dist/cli/program.js",
      "dist/runtime/start-server.js",
      "dist/runtime/transport/streamable-http.js",
    ]) {
      expect(counts.get(module), module).toBe(1);
    }
    // The SDK's vendored chunks come in whole, once: zod's core is in one of them.
    const vendored = modules.filter((module) => module.startsWith("dist/vendor/mcp-sdk/"));
    expect(vendored.length).toBeGreaterThan(0);
    const zodHolders = bundle.filter((file) => readFileSync(file, "utf8").includes("$ZodType"));
    expect(zodHolders).toHaveLength(1);
  });

  it("starts over stdio without loading the HTTP side", () => {
    // main.cjs loads the program lazily (after the compile cache is on): every command loads
    // what the program's chunk requires.
    const program = chunks.filter((file) => modulesOf(file).includes("dist/cli/program.js"));
    expect(program).toHaveLength(1);
    const stdio = readStaticClosure(program[0]!);
    expect(stdio.has(ENTRY)).toBe(true);
    const httpChunk = chunks.filter((file) =>
      modulesOf(file).includes("dist/runtime/transport/streamable-http.js"),
    );
    expect(httpChunk).toHaveLength(1);
    expect(stdio.has(httpChunk[0]!)).toBe(false);
    const stdioModules = [...stdio].flatMap(modulesOf);
    expect(stdioModules).not.toContain("dist/vendor/mcp-sdk/node.js");
    expect(stdioModules).not.toContain("dist/runtime/transport/oauth/front-door.js");
    // The spec loader and planner load on a model cache miss only: a start from the cache or a
    // saved model does without them.
    expect(stdioModules).not.toContain("dist/generator/compile/plan-model.js");
    expect(stdioModules).not.toContain("dist/generator/spec/load-spec.js");
  });

  it("gives each module its compiled file's import.meta.url", () => {
    // import.meta.url as CommonJS has it: the chunk's own address, pinned to the compiled file's.
    const pinned = /new URL\("([^"]+)", require\("url"\)\.pathToFileURL\(__filename\)\.href\)\.href/g;
    let seen = 0;
    for (const file of bundle) {
      const text = readFileSync(file, "utf8").replaceAll(pinned, "");
      expect(text.includes("import.meta"), file).toBe(false);
      expect(text.includes("pathToFileURL(__filename)"), file).toBe(false);
    }
    for (const file of bundle) {
      const text = readFileSync(file, "utf8");
      for (const [, path] of text.matchAll(pinned)) {
        seen += 1;
        expect(readdirSync(dirname(resolve(CLI, path!))), path).toContain(path!.split("/").at(-1));
      }
    }
    // The sandbox pool finds its worker beside its compiled file.
    expect(seen).toBeGreaterThan(0);
    expect(
      bundle.some((file) => readFileSync(file, "utf8").includes('"../runtime/code/sandbox/pool.js"')),
    ).toBe(true);
  });
});
