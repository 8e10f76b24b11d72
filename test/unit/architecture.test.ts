/**
 * Dependency rules of the architecture: the runtime serves a saved model on its own, so it never
 * imports the generator, the CLI, the spec loader's libraries or ts-morph; only print.ts may
 * touch ts-morph; only src/generator/spec/ and the runtime's config-file.ts touch yaml.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
/** The one runtime file that may import yaml (for `--auth-config FILE`). */
const YAML_READER = join("src", "runtime", "settings", "config-file.ts");

function listSources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listSources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)].map(
    (m) => m[1] ?? m[2]!,
  );
}

describe("dependency rules", () => {
  const runtime = listSources("src/runtime");
  const model = listSources("src/model");

  it.each(runtime.map((f) => [relative(root, join(root, f))]))("%s imports no generator code", (file) => {
    for (const spec of importsOf(file)) {
      expect(spec, `${file} imports ${spec}`).not.toMatch(
        /generator|cli\/|swagger-parser|ts-morph|openapi-types/,
      );
    }
  });

  it.each(
    listSources("src").filter((f) => !f.startsWith(join("src", "generator", "spec")) && f !== YAML_READER),
  )("%s does not touch yaml", (file) => {
    expect(importsOf(file), file).not.toContain("yaml");
  });

  it("reads YAML configuration in one runtime file", () => {
    expect(importsOf(YAML_READER)).toContain("yaml");
  });

  it.each(model.map((f) => [f]))("%s imports only the model and node built-ins", (file) => {
    for (const spec of importsOf(file)) {
      expect(spec.startsWith("./") || spec.startsWith("node:"), `${file} imports ${spec}`).toBe(true);
    }
  });

  it("finds the files it checks", () => {
    expect(runtime.length).toBeGreaterThan(5);
    expect(model.length).toBeGreaterThan(3);
  });
});
