/**
 * V8's compile cache for the CLI's modules (`module.enableCompileCache`, Node 22.1+), kept in
 * this user's cache folder next to the model cache rather than Node's default in the shared
 * temporary folder, where another local user could plant entries. `OPENAPI_MCP_CACHE=0` turns
 * it off with the other caches; Node's own `NODE_COMPILE_CACHE` / `NODE_DISABLE_COMPILE_CACHE`
 * win when set. V8 checks each entry against the source and its own version and flags: a
 * mismatch is a miss, never another behaviour. Any failure only means compiling as usual.
 */
import * as nodeModule from "node:module";
import { join } from "node:path";
import { resolveCacheDir } from "../generator/shared/cache-dir.js";

export type EnableCompileCache = (directory?: string) => unknown;

export function enableCompileCache(
  env: Record<string, string | undefined> = process.env,
  enable: EnableCompileCache | undefined = (nodeModule as { enableCompileCache?: EnableCompileCache })
    .enableCompileCache,
): void {
  if (enable === undefined || env["OPENAPI_MCP_CACHE"] === "0") return;
  if (env["NODE_COMPILE_CACHE"] !== undefined || env["NODE_DISABLE_COMPILE_CACHE"] !== undefined) return;
  try {
    enable(join(resolveCacheDir(env), "v8-compile"));
  } catch {
    // an unwritable cache folder only costs the start its speed
  }
}
