/**
 * What the CLI prints for people: `tools` counts arguments in words that agree ("1 arg", "2
 * args"), and every command's `--output-schemas` help says what the flag does and nothing it
 * does not (structuredContent is sent for JSON results with or without it).
 */
import { describe, expect, it } from "vitest";
import { fixture, runCli } from "../helpers/bridge.js";

describe("tools (text)", () => {
  it("says 1 arg, never 1 args, and keeps the columns aligned", async () => {
    const run = await runCli(["tools", fixture("petstore", "petstore.openapi30.yaml"), "--no-cache"]);
    expect(run.code, run.stderr).toBe(0);
    // The heading and the closing line about auto's choice are not tool rows.
    const lines = run.stdout
      .trim()
      .split("\n")
      .slice(1)
      .filter((line) => !line.startsWith("--mode "));
    expect(lines).toHaveLength(20);
    const getPetById = lines.find((line) => line.startsWith("getPetById "))!;
    expect(getPetById).toMatch(/ {2}1 arg {2}\(1 required\) {2}/);
    const addPet = lines.find((line) => line.startsWith("addPet "))!;
    expect(addPet).toMatch(/ \d+ args \(\d+ required\) {2}/);
    expect(run.stdout).not.toMatch(/\b1 args\b/);
    // Same column for the required counts on every line.
    expect(new Set(lines.map((line) => line.indexOf("(")))).toHaveProperty("size", 1);
  });
});

describe("--output-schemas help", () => {
  it.each(["serve", "tools", "generate", "model"])(
    "%s --help does not say the flag turns on structuredContent",
    async (command) => {
      const run = await runCli([command, "--help"]);
      expect(run.code, run.stderr).toBe(0);
      const help = run.stdout.replace(/\s+/g, " ");
      expect(help).toContain("--output-schemas");
      expect(help).not.toMatch(/--output-schemas[^-]*and return structuredContent/);
      expect(help).toMatch(/--output-schemas advertise an outline output schema per tool/);
    },
  );
});
