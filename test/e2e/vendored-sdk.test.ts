/**
 * The vendored SDK in dist/vendor/mcp-sdk (scripts/bundle-sdk.mjs), as the build left it: one
 * copy of Ajv, zod and the SDK's core across every entry (the server package's own inlined Ajv
 * is not among them), and the modules a stdio server loads statically never reach the HTTP side
 * (the node adapter, hono, createMcpHandler).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/bridge.js";
import { readStaticClosure } from "../helpers/static-imports.js";

const VENDOR = join(ROOT, "dist", "vendor", "mcp-sdk");

/** The source files a bundle file holds, by the `// node_modules/...` line before each. */
function sourcesOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^\/\/ (node_modules\/\S+)$/gm)].map((m) => m[1]!);
}

describe("the vendored SDK", () => {
  const files = readdirSync(VENDOR)
    .filter((name) => name.endsWith(".js"))
    .map((name) => join(VENDOR, name));
  const sources = files.flatMap(sourcesOf);

  it("holds one copy of Ajv, zod and the SDK's core", () => {
    const count = (source: string) => sources.filter((s) => s === source).length;
    expect(count("node_modules/ajv/dist/core.js")).toBe(1);
    expect(count("node_modules/ajv/dist/compile/index.js")).toBe(1);
    expect(count("node_modules/zod/v4/core/core.js")).toBe(1);
    // The server package's provider inlined its own Ajv (ajv@8.18.0 in its sources); none is left.
    const providerText = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(providerText).not.toMatch(/ajv@\d/);
    expect(providerText).toMatch(/class AjvJsonSchemaValidator|AjvJsonSchemaValidator = class/);
  });

  it("serves stdio without loading the HTTP side", () => {
    const stdio = new Set([
      ...readStaticClosure(join(VENDOR, "server.js")),
      ...readStaticClosure(join(VENDOR, "server-stdio.js")),
      ...readStaticClosure(join(VENDOR, "server-validators-ajv.js")),
    ]);
    const http = readStaticClosure(join(VENDOR, "server-http.js"));
    const httpOnly = [...readStaticClosure(join(VENDOR, "node.js")), ...http].filter(
      (file) => !stdio.has(file),
    );
    expect(httpOnly.length).toBeGreaterThan(0);
    const stdioSources = [...stdio].flatMap(sourcesOf);
    expect(
      stdioSources.some((s) => s.startsWith("node_modules/@hono/") || s.startsWith("node_modules/hono/")),
    ).toBe(false);
    expect(stdioSources.some((s) => s.startsWith("node_modules/@modelcontextprotocol/node/"))).toBe(false);
    // createMcpHandler lives in a file only the HTTP entries reach.
    const handlerFiles = files.filter((file) =>
      /function createMcpHandler\b/.test(readFileSync(file, "utf8")),
    );
    expect(handlerFiles).toHaveLength(1);
    expect(stdio.has(handlerFiles[0]!)).toBe(false);
    expect(http.has(handlerFiles[0]!)).toBe(true);
  });
});
