/**
 * docs/benchmarks.md and its charts against bench/results: `npm run bench:charts` must have been
 * run since the results last changed (the check fails otherwise, and would fail on a changed
 * number), and the script reads the results' tables by their column names, whatever their order
 * or extra columns, leaving a chart out (said on the page) while its results do not exist.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/bridge.js";

const run = promisify(execFile);
const SCRIPT = join(ROOT, "scripts", "bench-charts.mjs");
const scratch = mkdtempSync(join(tmpdir(), "omb-charts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function charts(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [SCRIPT, ...args]);
    return { code: 0, stderr };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe("the benchmark charts", () => {
  it("are up to date with bench/results (npm run bench:charts)", async () => {
    const check = await charts("--check");
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    const page = readFileSync(join(ROOT, "docs", "benchmarks.md"), "utf8");
    for (const id of ["tokens-github", "startup", "latency", "generate-github"]) {
      expect(page).toContain(`](benchmarks/${id}.svg)`);
    }
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("docs/benchmarks/tokens-github.svg");
  });

  it("are stale once a result changes", async () => {
    const results = join(scratch, "changed");
    cpSync(join(ROOT, "bench", "results"), results, { recursive: true });
    const startup = readFileSync(join(results, "startup.md"), "utf8");
    writeFileSync(
      join(results, "startup.md"),
      startup.replace(/(\| openapi-mcp-bridge[^|]*\| )\d+ ms/, "$19 ms"),
    );
    const check = await charts("--check", "--results", results, "--out", ROOT);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("docs/benchmarks/startup.svg");
    expect(check.stderr).not.toContain("latency.svg");
  });

  it("read a table by its column names and leave out the charts without results", async () => {
    const results = join(scratch, "partial");
    const out = join(scratch, "out");
    cpSync(join(ROOT, "bench", "fixtures"), results, { recursive: true }); // a folder without result files
    writeFileSync(
      join(results, "search.md"),
      [
        "# Search",
        "",
        "| queries | system | Recall@5 | MRR |",
        "| ---: | --- | ---: | ---: |",
        "| 120 | openapi-mcp-bridge search_operations | 81.7% | 0.66 |",
        "| 120 | BM25 baseline | 64.2% | 0.51 |",
      ].join("\n"),
    );
    expect((await charts("--results", results, "--out", out)).code).toBe(0);
    const svg = readFileSync(join(out, "docs", "benchmarks", "search-recall.svg"), "utf8");
    // The label is the first column that is not numbers ("system"), wherever the recall column is.
    expect(svg).toContain("openapi-mcp-bridge search_operations");
    expect(svg).toContain("81.7%");
    expect(svg).toContain("64.2%");
    const page = readFileSync(join(out, "docs", "benchmarks.md"), "utf8");
    expect(page).toContain("Not charted yet: bench/results/startup.md does not exist yet.");
    expect(page).toContain("](benchmarks/search-recall.svg)");
  });
});
