/**
 * The planner skips compiling the input schemas compile-risks.ts finds nothing in: on real
 * specs (GitHub's 1,223 operations and the corpus' OpenAPI examples), every schema it passes
 * does compile with the runtime's options, and it passes most of them (the point of it).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { mayFailToCompile } from "../../../src/generator/compile/compile-risks.js";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import { INPUT_AJV_OPTIONS } from "../../../src/runtime/arguments/input-ajv-options.js";

const CORPUS = join(import.meta.dirname, "../../corpus/specs");

function listExamples(): string[] {
  const files: string[] = [];
  for (const version of ["3.0", "3.1"]) {
    const dir = join(CORPUS, "oas-examples", version);
    for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
      if (/\.(json|ya?ml)$/.test(entry)) files.push(join(dir, entry));
    }
  }
  return files;
}

describe("input schemas the planner does not compile", () => {
  it("compile, on GitHub's spec and the OpenAPI examples, and are most of them", async () => {
    const github = join(tmpdir(), "omb-compile-risks-github.json");
    writeFileSync(github, gunzipSync(readFileSync(join(CORPUS, "octokit", "api.github.com.json.gz"))));
    let passed = 0;
    let total = 0;
    const wrong: string[] = [];
    for (const file of [github, ...listExamples()]) {
      let model: ReturnType<typeof planModel>;
      try {
        model = planModel(await loadSpec(file, { validate: false }));
      } catch {
        continue; // a spec the loader refuses has no schemas to judge
      }
      const ajv = new Ajv2020({ ...INPUT_AJV_OPTIONS, allErrors: false });
      for (const tool of model.tools) {
        total += 1;
        if (mayFailToCompile(tool.inputSchema)) continue;
        passed += 1;
        try {
          ajv.compile(tool.inputSchema);
        } catch (error) {
          wrong.push(`${file} ${tool.name}: ${(error as Error).message}`);
        } finally {
          ajv.removeSchema(tool.inputSchema);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(total).toBeGreaterThan(1300);
    expect(passed / total).toBeGreaterThan(0.8);
  }, 120_000);
});
