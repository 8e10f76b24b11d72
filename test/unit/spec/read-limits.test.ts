/**
 * readFileWithin reads a regular file whole into one buffer of its size, and anything else
 * (a file fstat says is empty, a pipe) in chunks, under the same caps either way.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReadBudget, ReadRefusal, readFileWithin } from "../../../src/generator/spec/read-limits.js";

const dir = mkdtempSync(join(tmpdir(), "omb-read-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (length: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 7) % 251));

describe("readFileWithin", () => {
  it.each([
    { name: "empty", length: 0, cap: 16 },
    { name: "smaller than the cap", length: 1000, cap: 4096 },
    { name: "exactly the cap", length: 4096, cap: 4096 },
    { name: "larger than a read chunk", length: 600 * 1024, cap: 1024 * 1024 },
  ])("reads a regular file $name whole, and counts it in the budget", async ({ name, length, cap }) => {
    const file = join(dir, `${name}.bin`);
    const bytes = bytesOf(length);
    writeFileSync(file, bytes);
    const budget = createReadBudget(cap);
    const read = await readFileWithin(file, budget, { regularOnly: true });
    expect(read.equals(bytes)).toBe(true);
    expect(budget.used).toBe(length);
  });

  it.each([
    {
      name: "one byte over its own cap",
      length: 4097,
      cap: 4096,
      total: undefined,
      says: /larger than 4 KiB/,
    },
    { name: "over what is left of the total", length: 3000, cap: 4096, total: 2000, says: /together/ },
  ])("refuses a file $name before reading it", async ({ name, length, cap, total, says }) => {
    const file = join(dir, `${name}.bin`);
    writeFileSync(file, bytesOf(length));
    const budget = createReadBudget(cap, total);
    const refusal = await readFileWithin(file, budget, { regularOnly: true }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ReadRefusal);
    expect((refusal as ReadRefusal).message).toMatch(says);
    expect(budget.used).toBe(0);
  });

  it("reads a file whose size fstat does not know (procfs) in chunks", async () => {
    const read = await readFileWithin("/proc/self/status", createReadBudget(), { regularOnly: false });
    expect(read.toString("utf8")).toMatch(/^Name:/);
  });
});
