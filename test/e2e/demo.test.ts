/**
 * The README's quick start: `npm run demo` (scripts/demo.mjs) in each mode it names runs to its
 * end against the bundled pet store through the built CLI, with every call answered.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/bridge.js";

const run = promisify(execFile);

describe("npm run demo", () => {
  it.each([
    ["tools", [], /tools\/call listPets .* → ok/],
    ["discovery", ["--mode", "discovery"], /tools\/call call_operation .*"getPetById".* → ok/],
    ["code", ["--mode", "code"], /tools\/call execute .* → ok\n {2}\["Rex"\]/],
  ])("%s mode runs to its end", { timeout: 60_000 }, async (_mode, args, shown) => {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, "scripts", "demo.mjs"), ...args], {
      cwd: ROOT,
    });
    expect(stdout).toMatch(shown);
    expect(stdout).toContain("Done: the bridge served the spec");
    expect(stdout + stderr).not.toMatch(/ProtocolError|\n\s+at /);
  });
});
