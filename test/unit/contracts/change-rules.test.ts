/** docs/lifecycle.md's table of diff rules lists every rule once, under its severity. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGE_RULES, SEVERITY_ORDER } from "../../../src/contracts/change-rules.js";

const readme = readFileSync(join(import.meta.dirname, "../../../docs/lifecycle.md"), "utf8");

describe("docs/lifecycle.md's table of diff rules", () => {
  it("lists every rule under its severity, and no other", () => {
    const listed: Record<string, string> = {};
    for (const severity of SEVERITY_ORDER) {
      const row = readme.split("\n").find((line) => new RegExp(`^\\| ${severity} +\\|`).test(line));
      expect(row, severity).toBeDefined();
      for (const match of row!.matchAll(/`([a-z-]+)`/g)) listed[match[1]!] = severity;
    }
    const expected = Object.fromEntries(
      Object.entries(CHANGE_RULES).map(([code, rule]) => [code, rule.severity]),
    );
    expect(listed).toEqual(expected);
  });
});
