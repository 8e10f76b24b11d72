/**
 * V8's compile cache for the CLI (Node 22.1+): kept in the bridge's own cache folder, off with
 * the other caches or when Node's own variables decide, and never a reason for a start to fail.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type EnableCompileCache, enableCompileCache } from "../../../src/cli/compile-cache.js";

describe("enableCompileCache", () => {
  it.each([
    ["in the bridge's cache folder", { OPENAPI_MCP_CACHE_DIR: "/c" }, [join("/c", "v8-compile")]],
    ["under XDG_CACHE_HOME", { XDG_CACHE_HOME: "/x" }, [join("/x", "openapi-mcp-bridge", "v8-compile")]],
    ["not with the caches off", { OPENAPI_MCP_CACHE: "0", OPENAPI_MCP_CACHE_DIR: "/c" }, []],
    [
      "not when NODE_COMPILE_CACHE chose a folder",
      { NODE_COMPILE_CACHE: "/n", OPENAPI_MCP_CACHE_DIR: "/c" },
      [],
    ],
    [
      "not when Node's cache is switched off",
      { NODE_DISABLE_COMPILE_CACHE: "1", OPENAPI_MCP_CACHE_DIR: "/c" },
      [],
    ],
  ])("is switched on %s", (_where, env, expected) => {
    const asked: (string | undefined)[] = [];
    enableCompileCache(env, (directory) => asked.push(directory));
    expect(asked).toEqual(expected);
  });

  it("does nothing on a Node without the switch (Node 20)", () => {
    expect(() => enableCompileCache({ OPENAPI_MCP_CACHE_DIR: "/c" }, undefined)).not.toThrow();
  });

  it("lets the start go on when the folder cannot be used", () => {
    const failing: EnableCompileCache = () => {
      throw new Error("EACCES: permission denied, mkdir '/c/v8-compile'");
    };
    expect(() => enableCompileCache({ OPENAPI_MCP_CACHE_DIR: "/c" }, failing)).not.toThrow();
  });
});
