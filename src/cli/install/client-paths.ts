/**
 * Where each MCP client reads its servers from, per operating system (the user-wide file, the
 * one the client's own "add server" writes):
 *
 * | client         | macOS                                                      | Windows                                        | Linux                                        |
 * | -------------- | ---------------------------------------------------------- | ---------------------------------------------- | -------------------------------------------- |
 * | claude-desktop | ~/Library/Application Support/Claude/claude_desktop_config.json | %APPDATA%\Claude\claude_desktop_config.json | (no Linux version)                           |
 * | claude-code    | ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json when set), user scope                                                                    |
 * | cursor         | ~/.cursor/mcp.json                                                                                                                       |
 * | vscode         | ~/Library/Application Support/Code/User/mcp.json           | %APPDATA%\Code\User\mcp.json                   | $XDG_CONFIG_HOME/Code/User/mcp.json (~/.config) |
 * | windsurf       | ~/.codeium/windsurf/mcp_config.json                                                                                                      |
 *
 * `--config PATH` (or OPENAPI_MCP_CLIENT_CONFIG) names another file: a project's `.mcp.json`,
 * `.cursor/mcp.json` or `.vscode/mcp.json`, a community Linux build of Claude Desktop, a test.
 */
import { posix, win32 } from "node:path";
import type { McpClient } from "../../generator/codegen/emit/client-entry.js";
import { failWith } from "../../model/diagnostics.js";

export interface ClientPlace {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** The client's user-wide configuration file on `place`'s system; OMB_CLIENT_UNSUPPORTED where it has none. */
export function locateClientConfig(client: McpClient, place: ClientPlace): string {
  const { platform, env, home } = place;
  const path = platform === "win32" ? win32 : posix;
  const appData = env["APPDATA"] || path.join(home, "AppData", "Roaming");
  switch (client) {
    case "claude-desktop":
      if (platform === "darwin") {
        return path.join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json");
      }
      if (platform === "win32") return path.join(appData, "Claude", "claude_desktop_config.json");
      return failWith(
        "OMB_CLIENT_UNSUPPORTED",
        `Claude Desktop has no ${platform === "linux" ? "Linux" : platform} version, so it has no configuration file here`,
        {
          hint: "a community build reads ~/.config/Claude/claude_desktop_config.json: give it with --config PATH",
        },
      );
    case "claude-code":
      return path.join(env["CLAUDE_CONFIG_DIR"] || home, ".claude.json");
    case "cursor":
      return path.join(home, ".cursor", "mcp.json");
    case "vscode":
      if (platform === "darwin")
        return path.join(home, "Library", "Application Support", "Code", "User", "mcp.json");
      if (platform === "win32") return path.join(appData, "Code", "User", "mcp.json");
      return path.join(env["XDG_CONFIG_HOME"] || path.join(home, ".config"), "Code", "User", "mcp.json");
    case "windsurf":
      return path.join(home, ".codeium", "windsurf", "mcp_config.json");
  }
}
