/**
 * `catalog` and `diff` end to end through the built CLI, on real specs at two published
 * versions (fixtures/lifecycle: extracts of GitHub's, Netlify's and Blockfrost's specs). The
 * diff is held to an independent judge that reads the raw documents (bench/spec-judge.mjs):
 * every operation the specs show broken must get a breaking change, no prose-only one may.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkDiffAgainstJudge, judgeSpecPair } from "../../bench/spec-judge.mjs";
import { fixture, ROOT, runCli } from "../helpers/bridge.js";

interface Change {
  tool: string;
  operationId: string | null;
  method: string;
  path: string;
  severity: "breaking" | "compatible" | "docs";
  code: string;
  message: string;
  pointer: string;
}

const PAIRS = [
  { name: "github", flags: [] as string[] },
  { name: "netlify", flags: [] as string[] },
  // Blockfrost 0.1.93 puts `type: null` in an anyOf, which OpenAPI 3.0 does not allow.
  { name: "blockfrost", flags: ["--no-validate"] },
];

const work = mkdtempSync(join(tmpdir(), "omb-lifecycle-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const spec = (name: string, side: "old" | "new") => fixture("lifecycle", `${name}.${side}.json`);
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as unknown;
const TIMEOUT = { timeoutMs: 120_000 };

async function diffJson(args: string[]): Promise<{ code: number | null; changes: Change[]; stderr: string }> {
  const run = await runCli(["diff", "--format", "json", "--no-cache", ...args], TIMEOUT);
  return {
    code: run.code,
    stderr: run.stderr,
    changes: run.code === 2 ? [] : (JSON.parse(run.stdout).changes as Change[]),
  };
}

const validateCatalog = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(
  readJson(join(ROOT, "schemas", "catalog.schema.json")) as object,
);

describe.each(PAIRS)("diff on real versions of $name's spec", ({ name, flags }) => {
  const judgement = judgeSpecPair(readJson(spec(name, "old")), readJson(spec(name, "new")));

  it("reports every operation the specs show broken as breaking, and no prose-only change", async () => {
    // The judge must have something to hold the diff to.
    expect(judgement.broken.length).toBeGreaterThan(0);
    const { code, changes, stderr } = await diffJson([...flags, spec(name, "old"), spec(name, "new")]);
    expect(code, stderr).toBe(1);
    const { missed, falseAlarms } = checkDiffAgainstJudge(judgement, changes);
    expect(missed).toEqual([]);
    expect(falseAlarms).toEqual([]);
    for (const change of changes) {
      expect(Object.keys(change)).toEqual([
        "tool",
        "operationId",
        "method",
        "path",
        "severity",
        "code",
        "message",
        "pointer",
      ]);
      expect(change.message).not.toContain("\n");
      expect(change.pointer === "" || change.pointer.startsWith("/")).toBe(true);
    }
  });

  it("writes catalogs that match the schema, continue a previous one and read back into the same verdicts", async () => {
    const first = join(work, `${name}.1.json`);
    const second = join(work, `${name}.2.yaml`);
    const made = await runCli(["catalog", ...flags, "--no-cache", spec(name, "old"), "-o", first], TIMEOUT);
    expect(made.code, made.stderr).toBe(0);
    const next = await runCli(
      ["catalog", ...flags, "--no-cache", spec(name, "new"), "--previous", first, "-o", second],
      TIMEOUT,
    );
    expect(next.code, next.stderr).toBe(0);
    const catalogs = [readJson(first), parse(readFileSync(second, "utf8")) as unknown];
    for (const catalog of catalogs)
      expect(validateCatalog(catalog), JSON.stringify(validateCatalog.errors)).toBe(true);
    const [old, current] = catalogs as {
      catalogVersion: string;
      tools: { name: string; status: string; contractVersion: number; compatibility: string }[];
    }[];
    expect(old!.catalogVersion).toBe("1.0.0");
    expect(current!.catalogVersion).toBe("2.0.0");
    // Every removed operation's tool is listed as removed; every broken one is at contract 2.
    const removed = new Set(current!.tools.filter((t) => t.status === "removed").map((t) => t.name));
    if (judgement.broken.some((b) => b.kind === "operation removed")) expect(removed.size).toBeGreaterThan(0);
    const { changes } = await diffJson([...flags, first, spec(name, "new")]);
    const broken = new Set(changes.filter((c) => c.severity === "breaking").map((c) => c.tool));
    for (const tool of current!.tools.filter((t) => t.status !== "removed")) {
      expect(tool.compatibility === "breaking", tool.name).toBe(broken.has(tool.name));
      if (broken.has(tool.name)) expect(tool.contractVersion).toBe(2);
    }
    // A catalog keeps the contract: diffing from it finds the same broken operations.
    const fromCatalog = checkDiffAgainstJudge(judgement, changes);
    expect(fromCatalog.missed).toEqual([]);
    expect(fromCatalog.falseAlarms).toEqual([]);
    expect(changes.some((c) => c.code === "description-changed")).toBe(false);
    // The same inputs give the same bytes.
    const again = join(work, `${name}.2-again.yaml`);
    await runCli(["catalog", ...flags, spec(name, "new"), "--previous", first, "-o", again], TIMEOUT);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(second, "utf8"));
  });
});

describe("diff", () => {
  const petstore = fixture("petstore", "petstore.openapi30.yaml");

  it("exits 0 with no change between a spec and itself, and between the spec and its saved model", async () => {
    const same = await runCli(["diff", petstore, petstore]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/: no changes\n$/);
    const model = join(work, "petstore.model.json");
    // Saved with outlines, as diff plans a spec (without them descriptions name the result fields).
    expect((await runCli(["model", petstore, "--output-schemas", "-o", model])).code).toBe(0);
    const fromModel = await runCli(["diff", model, petstore, "--format", "json"]);
    expect(fromModel.code, fromModel.stderr).toBe(0);
    expect(JSON.parse(fromModel.stdout)).toEqual({ changes: [] });
    expect(fromModel.stderr).toContain("results not compared");
  });

  it("exits 2 with a coded diagnostic when a side cannot be read", async () => {
    const missing = await runCli(["diff", petstore, join(work, "nope.yaml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("OMB_SPEC_NOT_FOUND");
    const bad = join(work, "bad.catalog.json");
    writeFileSync(bad, JSON.stringify({ catalogFormat: 1, catalogVersion: "1.0.0", tools: "x" }));
    const invalid = await runCli(["diff", bad, petstore]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/OMB_CATALOG_INVALID .*bad\.catalog\.json#\/api/);
    expect(invalid.stdout).toBe("");
  });

  it("prints text grouped by severity and tool, and markdown for a pull request", async () => {
    const args = ["diff", spec("netlify", "old"), spec("netlify", "new")];
    const text = await runCli(args, TIMEOUT);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^Netlify's API documentation 2\.20\.0 → Netlify's API documentation 2\.60\.0: \d+ breaking, \d+ compatible, \d+ docs changes in \d+ tools\n/,
    );
    expect(text.stdout).toMatch(/\nbreaking \(\d+\)\n {2}\S+ {2}[A-Z]+ \/\S*\n {4}[a-z-]+: /);
    const markdown = await runCli([...args, "--format", "markdown"], TIMEOUT);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toContain("### MCP tool changes: **breaking**");
    expect(markdown.stdout).toContain("#### Breaking changes (");
    expect(markdown.stdout).toMatch(/\| Tool +\| Operation +\| Change +\| Rule +\| Pointer +\|/);
    expect(markdown.stdout).toContain("<details><summary>Compatible changes (");
  });
});
