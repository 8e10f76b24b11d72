/**
 * Claude Code keeps its user-scope servers in ~/.claude.json, a file it also writes its own
 * state to while it runs; where its command line exists, `install` and `uninstall` go through
 * it (`claude mcp add-json`, `claude mcp remove`, user scope) rather than editing that file
 * under it. OPENAPI_MCP_CLAUDE_CLI names the executable (a test's stand-in, another install);
 * else `claude` is looked up on PATH.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { failWith } from "../../model/diagnostics.js";

/** The `claude` executable, or undefined when there is none. */
export function findClaudeCli(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (env["OPENAPI_MCP_CLAUDE_CLI"]) return env["OPENAPI_MCP_CLAUDE_CLI"];
  const names = platform === "win32" ? ["claude.cmd", "claude.exe", "claude"] : ["claude"];
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    for (const name of names) {
      if (dir === "") continue;
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** `claude ARGS` as it would be typed (for --dry-run and messages). */
export function formatClaudeCommand(args: readonly string[]): string {
  return ["claude", ...args]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}

/** Runs `claude ARGS`; `allowFailure`: a non-zero exit is returned, not an error. */
export async function runClaude(
  cli: string,
  args: string[],
  options: { allowFailure?: boolean } = {},
): Promise<{ code: number; output: string }> {
  try {
    // child_process is loaded when `claude` is run, not with every command of the CLI.
    const run = promisify(process.getBuiltinModule("node:child_process").execFile);
    const { stdout, stderr } = await run(cli, args, { timeout: 60_000, shell: process.platform === "win32" });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    const output = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim() || e.message;
    if (options.allowFailure && typeof e.code === "number") return { code: e.code, output };
    return failWith("OMB_CLIENT_CLI_FAILED", `\`${formatClaudeCommand(args)}\` failed: ${output}`, {
      hint: "fix what it says, or write the file directly: --config ~/.claude.json",
    });
  }
}
