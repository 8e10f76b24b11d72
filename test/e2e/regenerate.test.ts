/**
 * Regenerating a project through the CLI keeps what the user wrote: hooks in `src/hooks.ts`
 * survive `generate --force` (and run in the rebuilt server), a changed generated file stops the
 * write with the list (OMB_OUTPUT_CHANGED, exit 1, nothing written) until `--overwrite-changed`,
 * and a hook for a tool that left the spec is a type error, not a hook that silently stops.
 * The project borrows this repository's node_modules; a real SDK Client talks to the built
 * server over stdio, in front of a recording upstream on 127.0.0.1.
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, ROOT, runCli, textOf } from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";
import { scratchDir } from "./generated-support.js";

const run = promisify(execFile);
const PETSTORE = fixture("petstore", "petstore.openapi30.yaml");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

let scratch: string;
let dir: string;
let upstream: Upstream;

/** A hook that marks getPetById's results, so the test can see it ran. */
const MY_HOOKS = `import type { ToolHooksByName } from "./tools/index.js";

export const hooks: ToolHooksByName = {
  getPetById: {
    afterCall(result, args) {
      return { ...result, content: [{ type: "text", text: \`hooked pet \${args.petId}\` }] };
    },
  },
};
`;

async function generate(spec: string, extra: string[] = []) {
  return runCli(["generate", spec, "-o", dir, "--no-cache", ...extra], { timeoutMs: 60_000 });
}

async function build(): Promise<{ ok: boolean; output: string }> {
  try {
    await run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, timeout: 120_000 });
    return { ok: true, output: "" };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

async function callGetPet(): Promise<CallToolResult> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, "dist", "index.js")],
    env: { PATH: process.env.PATH ?? "", OPENAPI_MCP_BASE_URL: `${upstream.url}/v2` },
    cwd: dir,
    stderr: "pipe",
  });
  const client = new Client({ name: "regenerate-e2e", version: "1.0.0" });
  await client.connect(transport);
  try {
    return (await client.callTool({ name: "getPetById", arguments: { petId: 7 } })) as CallToolResult;
  } finally {
    await client.close();
  }
}

/** The petstore spec without one operation (the spec changed upstream). */
function petstoreWithout(operationId: string): string {
  const text = readFileSync(PETSTORE, "utf8");
  const file = join(scratch, `petstore-without-${operationId}.yaml`);
  writeFileSync(file, text.replace(`operationId: ${operationId}`, `operationId: ${operationId}Renamed`));
  return file;
}

beforeAll(async () => {
  scratch = scratchDir("omb-regenerate");
  dir = join(scratch, "project");
  upstream = await startUpstream();
  const first = await generate(PETSTORE);
  expect(first.code, first.stderr).toBe(0);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}, 120_000);

afterAll(async () => {
  await upstream?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("generate --force on a project the user changed", () => {
  it("keeps src/hooks.ts, and the rebuilt server runs its hooks", { timeout: 240_000 }, async () => {
    writeFileSync(join(dir, "src", "hooks.ts"), MY_HOOKS);
    const again = await generate(petstoreWithout("getInventory"), ["--force"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("removed 1 unchanged file(s) of the previous generation");
    expect(readFileSync(join(dir, "src", "hooks.ts"), "utf8")).toBe(MY_HOOKS);
    const built = await build();
    expect(built.ok, built.output).toBe(true);
    const result = await callGetPet();
    expect(textOf(result)).toBe("hooked pet 7");
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/v2/pet/7"]);
  });

  it("refuses to overwrite a tool module the user edited, lists it, writes nothing", {
    timeout: 60_000,
  }, async () => {
    const module = join(dir, "src", "tools", "get-pet-by-id.ts");
    const edited = `${readFileSync(module, "utf8")}// my edit\n`;
    writeFileSync(module, edited);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    const refused = await generate(PETSTORE, ["--force"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("OMB_OUTPUT_CHANGED");
    expect(refused.stderr).toContain("src/tools/get-pet-by-id.ts");
    expect(refused.stderr).toContain("--overwrite-changed");
    expect(refused.stdout).toBe("");
    expect(readFileSync(module, "utf8")).toBe(edited);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe(readme);

    const replaced = await generate(PETSTORE, ["--force", "--overwrite-changed"]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(module, "utf8")).not.toContain("// my edit");
    expect(readFileSync(join(dir, "src", "hooks.ts"), "utf8")).toBe(MY_HOOKS);
  });

  it("a hook for a tool the spec no longer has is a type error naming it", { timeout: 180_000 }, async () => {
    const renamed = await generate(petstoreWithout("getPetById"), ["--force"]);
    expect(renamed.code, renamed.stderr).toBe(0);
    const built = await build();
    expect(built.ok).toBe(false);
    expect(built.output).toContain("src/hooks.ts");
    expect(built.output).toContain("getPetById");
  });
});
