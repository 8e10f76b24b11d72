/** writeFileAtomically (generator/shared/write-atomic.ts): whole or nothing, never a temporary left. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomically } from "../../../src/generator/shared/write-atomic.js";

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), "omb-atomic-"));
}

describe("writeFileAtomically", () => {
  it("writes a new file and replaces an old one whole", async () => {
    const dir = freshDir();
    const file = join(dir, "saved.model");
    await writeFileAtomically(file, "first");
    expect(readFileSync(file, "utf8")).toBe("first");
    await writeFileAtomically(file, Buffer.from("second, longer"));
    expect(readFileSync(file, "utf8")).toBe("second, longer");
    expect(readdirSync(dir)).toEqual(["saved.model"]);
  });

  it.each<[string, (dir: string) => string]>([
    ["a folder that does not exist", (dir) => join(dir, "missing", "saved.model")],
    [
      "a path that is a folder",
      (dir) => {
        mkdirSync(join(dir, "taken"));
        writeFileSync(join(dir, "taken", "keep.txt"), "kept");
        return join(dir, "taken");
      },
    ],
  ])("fails on %s naming the file asked for, leaving nothing beside it", async (_what, target) => {
    const dir = freshDir();
    const file = target(dir);
    const before = readdirSync(dir).sort();
    const error = (await writeFileAtomically(file, "data").catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(error).toBeInstanceOf(Error);
    expect(error.path).toBe(file);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
