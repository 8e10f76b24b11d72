/**
 * Dependency rules of the architecture: the runtime serves a saved model on its own, so it never
 * imports the generator, the spec loader's libraries or ts-morph; only print.ts may touch ts-morph.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

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
        /generator|swagger-parser|ts-morph|openapi-types|yaml/,
      );
    }
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
