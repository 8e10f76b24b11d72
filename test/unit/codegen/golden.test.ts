/**
 * Golden snapshots of generated projects, file by file (test/golden/<fixture>/...), for small
 * fixtures that each stress one thing. The runtime files are not snapshotted: they must be this
 * package's src/runtime and src/model, byte for byte, but for src/runtime/version.ts (the
 * project's own name and version, snapshotted). The snapshots are type-checked in
 * test/e2e/generated-typecheck.test.ts. Update with `npx vitest run test/unit/generate-golden -u`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitProject } from "../../../src/generator/codegen/generate.js";
import { buildModel } from "../../../src/index.js";
import { GOLDEN_DIR, GOLDEN_FIXTURES, isRuntimeCopy, listFiles } from "../../e2e/generated-support.js";
import { fixture, ROOT } from "../../helpers/bridge.js";

/** Runtime files copied as they are; version.ts is written for each project. */
function isCopied(path: string): boolean {
  return isRuntimeCopy(path) && path !== "src/runtime/version.ts";
}

describe.each(GOLDEN_FIXTURES)("generated project for %s", (name, spec) => {
  it("matches the golden files, file by file, and ships the runtime unchanged", async () => {
    const model = await buildModel(fixture(...spec.split("/")));
    const files = await emitProject(model, { projectPath: `/path/to/${name}` });
    const snapshotted = files.filter((f) => !isCopied(f.path));
    for (const file of snapshotted) {
      await expect(file.contents, file.path).toMatchFileSnapshot(join(GOLDEN_DIR, name, file.path));
    }
    // A file the generator stopped writing must not linger among the snapshots.
    expect(listFiles(join(GOLDEN_DIR, name))).toEqual(snapshotted.map((f) => f.path).sort());

    const runtime = files.filter((f) => isCopied(f.path));
    expect(runtime.map((f) => f.path)).toContain("src/runtime/engine/bridge-runtime.ts");
    expect(runtime.map((f) => f.path)).toContain("src/model/types.ts");
    for (const file of runtime) {
      expect(file.contents, file.path).toBe(readFileSync(join(ROOT, file.path), "utf8"));
    }

    // Deterministic: the same model gives the same bytes.
    const again = await emitProject(structuredClone(model), { projectPath: `/path/to/${name}` });
    expect(again).toEqual(files);
  });
});
