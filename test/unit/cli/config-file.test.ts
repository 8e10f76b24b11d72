/**
 * install writes a client's configuration through names nobody can plant: the backup and the
 * temporary file are created exclusively (issue 25: a symlink planted at the predictable names
 * overwrote a 0600 file and left the configuration itself a symlink).
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfigDocument, writeConfigDocument } from "../../../src/cli/install/config-file.js";

const NOW = new Date("2026-12-05T10:11:12.345Z");

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), "omb-config-"));
  const config = join(dir, "mcp.json");
  writeFileSync(config, '{"mcpServers":{}}\n', { mode: 0o600 });
  const victim = join(dir, "victim.txt");
  writeFileSync(victim, "secret that must stay\n", { mode: 0o600 });
  return { dir, config, victim };
}

describe("writeConfigDocument", () => {
  it("never writes through a symlink planted at the backup's name", () => {
    const { dir, config, victim } = setUp();
    symlinkSync(victim, `${config}.20261205T101112Z.bak`);
    const backup = writeConfigDocument(
      readConfigDocument(config, { relaxed: false }),
      { mcpServers: { a: {} } },
      NOW,
    );
    expect(readFileSync(victim, "utf8")).toBe("secret that must stay\n");
    expect(backup).toBe(`${config}.20261205T101112Z-2.bak`);
    expect(readFileSync(backup!, "utf8")).toBe('{"mcpServers":{}}\n');
    expect(lstatSync(config).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ mcpServers: { a: {} } });
    // No temporary file is left behind, and none has the old predictable name.
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("writes no temporary file under a name derived from the process (a planted one is never followed)", () => {
    const { config, victim } = setUp();
    symlinkSync(victim, `${config}.${process.pid}.tmp`);
    writeConfigDocument(readConfigDocument(config, { relaxed: false }), { mcpServers: { b: {} } }, NOW);
    expect(readFileSync(victim, "utf8")).toBe("secret that must stay\n");
    expect(lstatSync(config).isSymbolicLink()).toBe(false);
    expect((lstatSync(config).mode & 0o777).toString(8)).toBe("600");
  });
});
