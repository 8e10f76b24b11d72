/** `generate` and `model` tell their steps on stderr when asked (a terminal, or OPENAPI_MCP_PROGRESS=1), and only then. */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, fixture } from "../helpers/bridge.js";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "omb-progress-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const SPEC = fixture("petstore", "petstore.openapi30.yaml");

async function stderrOf(args: string[], progress?: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAPI_MCP_CACHE: "0" };
  delete env["OPENAPI_MCP_PROGRESS"];
  if (progress !== undefined) env["OPENAPI_MCP_PROGRESS"] = progress;
  return (await run(process.execPath, [CLI, ...args], { env })).stderr;
}

const steps = (text: string) => [...text.matchAll(/^openapi-mcp-bridge \w+: (\w[\w ]*)…/gm)].map((m) => m[1]);

describe("progress on stderr", () => {
  it("generate: load, plan, validate, print, write when forced; nothing on a pipe", async () => {
    const forced = await stderrOf(["generate", SPEC, "-o", join(scratch, "a")], "1");
    expect(steps(forced)).toEqual(["load", "plan", "validate", "print", "write"]);
    expect(forced).toMatch(/openapi-mcp-bridge generate: done in /);
    const piped = await stderrOf(["generate", SPEC, "-o", join(scratch, "b")]);
    expect(steps(piped)).toEqual([]);
    expect(piped).toContain("openapi-mcp-bridge: wrote");
  });

  it("model: load, plan, validate, write", async () => {
    const forced = await stderrOf(["model", SPEC, "-o", join(scratch, "m.json")], "1");
    expect(steps(forced)).toEqual(["load", "plan", "validate", "write"]);
  });
});
