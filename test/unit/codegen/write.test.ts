/**
 * Writing a project: `generate` refuses a non-empty directory unless --force, never deletes a
 * file it did not write, removes its own earlier files only while they are unchanged, and
 * works from a spec or a saved model, as a CLI command and as a library function. Also the
 * dependency rule that only print/printer-parts.ts loads the code writer and the compiler.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitProject, generateProject } from "../../../src/generator/codegen/generate.js";
import { MANIFEST } from "../../../src/generator/codegen/write-project.js";
import { BridgeError, buildModel } from "../../../src/index.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { listFiles, scratchDir } from "../../e2e/generated-support.js";
import { fixture, ROOT, runCli } from "../../helpers/bridge.js";

const PETSTORE = fixture("petstore", "petstore.openapi30.yaml");
let scratch: string;
let model: BridgeModel;

beforeAll(async () => {
  scratch = scratchDir("omb-generate-write");
  model = await buildModel(PETSTORE);
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function withoutTool(source: BridgeModel, name: string): BridgeModel {
  return { ...source, tools: source.tools.filter((t) => t.name !== name) };
}

describe("generateProject", () => {
  it("writes the project and a manifest of what it wrote", async () => {
    const dir = join(scratch, "fresh");
    const result = await generateProject(model, { outDir: dir });
    expect(result.files.length).toBeGreaterThan(40);
    expect(listFiles(dir)).toEqual([...result.files.map((f) => f.path), MANIFEST].sort());
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as {
      files: Record<string, string>;
    };
    expect(Object.keys(manifest.files).sort()).toEqual(result.files.map((f) => f.path).sort());
    const config = JSON.parse(readFileSync(join(dir, "mcp-clients", "claude-desktop.json"), "utf8"));
    expect(config.mcpServers["swagger-petstore"].args).toEqual([
      `${dir.split("\\").join("/")}/dist/index.js`,
    ]);
  });

  it("keeps only the selected tools and names the criteria that matched none", async () => {
    const dir = join(scratch, "selected");
    const result = await generateProject(PETSTORE, {
      outDir: dir,
      selection: { methods: ["get"], includeTags: ["store", "no-such-tag"] },
    });
    expect(result.model.tools.map((t) => t.name).sort()).toEqual(["getInventory", "getOrderById"]);
    expect(result.unmatched).toEqual(["tag no-such-tag"]);
    expect(listFiles(join(dir, "src", "tools"))).toEqual([
      "get-inventory.ts",
      "get-order-by-id.ts",
      "index.ts",
    ]);
  });

  it("refuses an invalid selection before reading the spec or writing anything", async () => {
    const dir = join(scratch, "bad-selection");
    const refusal = await generateProject(join(scratch, "no-such-spec.yaml"), {
      outDir: dir,
      selection: { methods: ["fetch"] },
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BridgeError);
    const diagnostic = (refusal as BridgeError).diagnostics[0];
    expect(diagnostic?.code).toBe("OMB_OPTION");
    expect(diagnostic?.message).toContain('unknown HTTP method "fetch"');
    expect(existsSync(dir)).toBe(false);
  });

  it("refuses a non-empty directory, and leaves it alone", async () => {
    const dir = join(scratch, "occupied");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "notes.txt"), "mine");
    const refusal = await generateProject(model, { outDir: dir }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BridgeError);
    expect((refusal as BridgeError).diagnostics[0]?.code).toBe("OMB_OUTPUT_NOT_EMPTY");
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  it("refuses a file as the output directory", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    const refusal = await generateProject(model, { outDir: file }).catch((error: unknown) => error);
    expect((refusal as BridgeError).diagnostics[0]?.code).toBe("OMB_OUTPUT_NOT_DIR");
  });

  it("with force: keeps files it did not write, deletes its own stale files only when unchanged", async () => {
    const dir = join(scratch, "regenerate");
    await generateProject(model, { outDir: dir });
    writeFileSync(join(dir, "notes.txt"), "mine");
    writeFileSync(join(dir, "src", "tools", "my-helper.ts"), "export const x = 1;\n");
    // The user edits one tool module whose operation will disappear; another disappears unedited.
    const edited = join(dir, "src", "tools", "delete-pet.ts");
    writeFileSync(edited, `${readFileSync(edited, "utf8")}// my change\n`);

    const smaller = withoutTool(withoutTool(model, "deletePet"), "getInventory");
    const result = await generateProject(smaller, { outDir: dir, force: true });
    expect(result.removed).toEqual(["src/tools/get-inventory.ts"]);
    expect(existsSync(join(dir, "src", "tools", "get-inventory.ts"))).toBe(false);
    expect(readFileSync(edited, "utf8")).toContain("// my change");
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(dir, "src", "tools", "my-helper.ts"))).toBe(true);
    expect(readFileSync(join(dir, "src", "tools", "index.ts"), "utf8")).not.toContain("get-inventory");
  });

  it("never deletes outside the directory, whatever the manifest says", async () => {
    const dir = join(scratch, "manifest-escape");
    await generateProject(model, { outDir: dir });
    const outside = join(scratch, "outside.txt");
    writeFileSync(outside, "keep");
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as {
      files: Record<string, string>;
    };
    const { createHash } = await import("node:crypto");
    manifest.files["../outside.txt"] = createHash("sha256").update("keep").digest("hex");
    writeFileSync(join(dir, MANIFEST), JSON.stringify(manifest));
    await generateProject(model, { outDir: dir, force: true });
    expect(readFileSync(outside, "utf8")).toBe("keep");
  });
});

describe("openapi-mcp-bridge generate", () => {
  it("generates from a spec, names the package, and prints what it did on stderr only", async () => {
    const dir = join(scratch, "cli");
    const run = await runCli(["generate", PETSTORE, "-o", dir, "--name", "My Pets!"], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/wrote \d+ files \(20 tools\)/);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.name).toBe("my-pets");
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      "@modelcontextprotocol/sdk",
      "ajv",
      "ajv-formats",
      "tldts",
      "undici",
      // the runtime's config-file.ts reads a YAML --auth-config
      "yaml",
    ]);
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["build", "start", "dev"]));
  });

  it("refuses a non-empty directory with a diagnostic and exit code 1, --force overrides", async () => {
    const dir = join(scratch, "cli");
    const refused = await runCli(["generate", PETSTORE, "-o", dir], { timeoutMs: 60_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("OMB_OUTPUT_NOT_EMPTY");
    expect(refused.stderr).toContain("--force");
    const forced = await runCli(["generate", PETSTORE, "-o", dir, "--force"], { timeoutMs: 60_000 });
    expect(forced.code, forced.stderr).toBe(0);
  });

  it("selects tools like serve does: unselected operations get no module", async () => {
    const dir = join(scratch, "cli-selected");
    const run = await runCli(
      [
        "generate",
        PETSTORE,
        "-o",
        dir,
        "--include-tags",
        "pet",
        "--destructive",
        "refuse",
        "--exclude-tools",
        "*Form",
      ],
      { timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const modules = listFiles(join(dir, "src", "tools")).filter((f) => f !== "index.ts");
    expect(modules).toEqual([
      "add-pet.ts",
      "find-pets-by-status.ts",
      "find-pets-by-tags.ts",
      "get-pet-by-id.ts",
      "upload-file.ts",
    ]);
    const typo = await runCli(["generate", PETSTORE, "-o", join(scratch, "cli-typo"), "--methods", "fetch"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("OMB_OPTION");
  });

  it("generates the same bytes from a saved model as from the spec", async () => {
    const modelFile = join(scratch, "petstore.model.json");
    expect((await runCli(["model", PETSTORE, "-o", modelFile])).code).toBe(0);
    const fromSpec = join(scratch, "cli-spec");
    const fromModel = join(scratch, "cli-model");
    const a = await runCli(["generate", PETSTORE, "-o", fromSpec], { timeoutMs: 60_000 });
    const b = await runCli(["generate", modelFile, "-o", fromModel], { timeoutMs: 60_000 });
    expect([a.code, b.code]).toEqual([0, 0]);
    // Client configurations and the README name the project's own path; the manifest hashes them.
    const samePath = (f: string) => !f.startsWith("mcp-clients/") && f !== "README.md" && f !== MANIFEST;
    const files = listFiles(fromSpec).filter(samePath);
    expect(listFiles(fromModel).filter(samePath)).toEqual(files);
    for (const file of files) {
      expect(readFileSync(join(fromModel, file), "utf8"), file).toBe(
        readFileSync(join(fromSpec, file), "utf8"),
      );
    }
  });
});

describe("dependency rules of code generation", () => {
  it("only print/printer-parts.ts loads the code writer or the TypeScript compiler", () => {
    const sources = listFiles(join(ROOT, "src")).filter((f) => f.endsWith(".ts"));
    const loaders = sources.filter((f) =>
      /(from\s+|import\(\s*|require\(\s*|resolve\(\s*)["'](ts-morph|code-block-writer|typescript)["']/.test(
        readFileSync(join(ROOT, "src", f), "utf8"),
      ),
    );
    expect(loaders).toEqual(["generator/codegen/print/printer-parts.ts"]);
  });

  it("JSON files are JSON.stringify output, static files come from templates/ (no JSON there)", async () => {
    const files = await emitProject(model, { projectPath: "/p" });
    const json = files.filter((f) => f.path.endsWith(".json"));
    expect(json.map((f) => f.path)).toEqual(expect.arrayContaining(["package.json", "tsconfig.json"]));
    for (const file of json) {
      expect(file.contents, file.path).toBe(`${JSON.stringify(JSON.parse(file.contents), null, 2)}\n`);
    }
    expect(listFiles(join(ROOT, "templates")).filter((f) => f.endsWith(".json"))).toEqual([]);
  });
});
