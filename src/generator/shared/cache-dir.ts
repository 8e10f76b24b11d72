/**
 * Where the generator's caches live: `$OPENAPI_MCP_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/openapi-mcp-bridge`, else `~/.cache/openapi-mcp-bridge`.
 */
import { homedir } from "node:os";
import { join } from "node:path";

export function resolveCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.OPENAPI_MCP_CACHE_DIR) return env.OPENAPI_MCP_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "openapi-mcp-bridge");
}
