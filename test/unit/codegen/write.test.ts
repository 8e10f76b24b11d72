/**
 * Writing a project: `generate` refuses a non-empty directory unless --force, never deletes a
 * file it did not write, removes its own earlier files only while they are unchanged, and
 * works from a spec or a saved model, as a CLI command and as a library function. Also the
 * dependency rule that code generation loads no code writer and no compiler.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitProject, generateProject } from "../../../src/generator/codegen/generate.js";
import { MANIFEST, MARKER } from "../../../src/generator/codegen/write-project.js";
import { BridgeError, buildModel } from "../../../src/index.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { listFiles, scratchDir } from "../../e2e/generated-support.js";
import { fixture, ROOT } from "../../helpers/bridge.js";

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

/** What a file is written to before it is renamed into place (write-project.ts). */
const PARTIAL = ".omb-partial";

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
    // Seeds (src/hooks.ts) are the user's once written: not in the manifest.
    expect(Object.keys(manifest.files).sort()).toEqual(
      result.files
        .filter((f) => !f.seed)
        .map((f) => f.path)
        .sort(),
    );
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
    expect(result.kept).toEqual(["src/tools/delete-pet.ts"]);
    expect(existsSync(join(dir, "src", "tools", "get-inventory.ts"))).toBe(false);
    expect(readFileSync(edited, "utf8")).toContain("// my change");
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(dir, "src", "tools", "my-helper.ts"))).toBe(true);
    expect(readFileSync(join(dir, "src", "tools", "index.ts"), "utf8")).not.toContain("get-inventory");
  });

  it("with force: tells the files that already had this generation's contents from those it wrote", async () => {
    const dir = join(scratch, "again");
    const first = await generateProject(model, { outDir: dir });
    expect(first.unchanged).toEqual([]);
    const same = await generateProject(model, { outDir: dir, force: true });
    expect(same.unchanged.sort()).toEqual(first.files.map((f) => f.path).sort());
    const fewer = await generateProject(withoutTool(model, "deletePet"), { outDir: dir, force: true });
    const rewritten = fewer.files.map((f) => f.path).filter((path) => !fewer.unchanged.includes(path));
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.length).toBeLessThan(fewer.files.length);
    expect(fewer.unchanged).toContain("src/hooks.ts");
  });

  it("with force: refuses to overwrite a file changed since the last generation, and writes nothing", async () => {
    const dir = join(scratch, "changed");
    await generateProject(model, { outDir: dir });
    const edited = join(dir, "src", "tools", "get-pet-by-id.ts");
    const editedText = `${readFileSync(edited, "utf8")}// my change\n`;
    writeFileSync(edited, editedText);
    writeFileSync(join(dir, "package.json"), "{}\n");
    const manifest = readFileSync(join(dir, MANIFEST), "utf8");
    const readme = readFileSync(join(dir, "README.md"), "utf8");

    const refusal = await generateProject(withoutTool(model, "getInventory"), {
      outDir: dir,
      force: true,
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BridgeError);
    const diagnostic = (refusal as BridgeError).diagnostics[0]!;
    expect(diagnostic.code).toBe("OMB_OUTPUT_CHANGED");
    expect(diagnostic.message).toContain("2 file(s)");
    expect(diagnostic.message).toContain("package.json, src/tools/get-pet-by-id.ts");
    expect(diagnostic.hint).toContain("src/hooks.ts");
    // Nothing written, nothing deleted.
    expect(readFileSync(edited, "utf8")).toBe(editedText);
    expect(readFileSync(join(dir, MANIFEST), "utf8")).toBe(manifest);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe(readme);
    expect(existsSync(join(dir, "src", "tools", "get-inventory.ts"))).toBe(true);

    // Told to, it replaces them.
    await generateProject(model, { outDir: dir, force: true, overwriteChanged: true });
    expect(readFileSync(edited, "utf8")).not.toContain("// my change");
  });

  it("with force: refuses to overwrite a file no generation wrote (no manifest says it is generated)", async () => {
    const dir = join(scratch, "foreign");
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "src", "api.ts"), "// my own api.ts\n");
    const refusal = await generateProject(model, { outDir: dir, force: true }).catch(
      (error: unknown) => error,
    );
    expect((refusal as BridgeError).diagnostics[0]?.code).toBe("OMB_OUTPUT_CHANGED");
    expect((refusal as BridgeError).diagnostics[0]?.message).toContain("src/api.ts");
    expect(readFileSync(join(dir, "src", "api.ts"), "utf8")).toBe("// my own api.ts\n");
  });

  describe("an interrupted generation", () => {
    /**
     * Interrupts a generation for real: a folder where src/tools/index.ts's temporary file goes
     * makes writing it fail once the files before it (in path order) are written. Returns the
     * error.
     */
    async function interruptedGeneration(dir: string, source: BridgeModel): Promise<BridgeError> {
      const obstacle = join(dir, "src", "tools", `index.ts${PARTIAL}`);
      mkdirSync(obstacle, { recursive: true });
      const error = await generateProject(source, { outDir: dir, force: true }).catch((e: unknown) => e);
      rmSync(obstacle, { recursive: true });
      expect(error).toBeInstanceOf(BridgeError);
      return error as BridgeError;
    }

    it("a fresh one: the next run says so and refuses; --force completes it", async () => {
      const dir = join(scratch, "interrupted-fresh");
      const failed = await interruptedGeneration(dir, model);
      expect(failed.diagnostics[0]?.code).toBe("OMB_OUTPUT_UNWRITABLE");
      // Some files are there, the manifest is not: the marker says the generation did not finish.
      expect(existsSync(join(dir, "Dockerfile"))).toBe(true);
      expect(existsSync(join(dir, MANIFEST))).toBe(false);
      expect(existsSync(join(dir, MARKER))).toBe(true);

      const refusal = await generateProject(model, { outDir: dir }).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(BridgeError);
      const [diagnostic] = (refusal as BridgeError).diagnostics;
      expect(diagnostic).toMatchObject({ code: "OMB_OUTPUT_INTERRUPTED", file: dir });
      expect(diagnostic!.message).toMatch(
        /^the last generation into .* \(started \d{4}-\d\d-\d\dT[^)]+\) was interrupted before it finished: its files may be a mix of two generations; nothing was written$/,
      );
      expect(diagnostic!.hint).toMatch(/^run the same command again with --force to complete it/);

      const completed = await generateProject(model, { outDir: dir, force: true });
      expect(completed.interrupted).toBe(true);
      expect(listFiles(dir)).toEqual([...completed.files.map((f) => f.path), MANIFEST].sort());
      // Done: the next one is an ordinary regeneration.
      const again = await generateProject(model, { outDir: dir, force: true });
      expect(again.interrupted).toBe(false);
      expect(again.unchanged.length).toBe(again.files.length);
    });

    it("a regeneration: its half-written files are its own, not the user's; a user's change is still refused", async () => {
      const dir = join(scratch, "interrupted-again");
      await generateProject(model, { outDir: dir });
      const smaller = withoutTool(model, "getInventory");
      await interruptedGeneration(dir, smaller);
      // Some files have the new generation's contents, the rest the old one's; a temporary
      // file of the cut-short write is left too.
      expect(readFileSync(join(dir, "README.md"), "utf8")).not.toContain("getInventory");
      expect(readFileSync(join(dir, "src", "tools", "index.ts"), "utf8")).toContain("get-inventory");
      writeFileSync(join(dir, "src", "tools", `index.ts${PARTIAL}`), "export const tools = [");
      expect(existsSync(join(dir, MARKER))).toBe(true);

      const edited = join(dir, "src", "tools", "get-pet-by-id.ts");
      const original = readFileSync(edited, "utf8");
      writeFileSync(edited, `${original}// my change\n`);
      const refusal = await generateProject(smaller, { outDir: dir, force: true }).catch((e: unknown) => e);
      expect((refusal as BridgeError).diagnostics[0]).toMatchObject({ code: "OMB_OUTPUT_CHANGED" });
      expect((refusal as BridgeError).diagnostics[0]!.message).toContain("1 file(s)");
      expect(existsSync(join(dir, MARKER))).toBe(true);
      writeFileSync(edited, original);

      const completed = await generateProject(smaller, { outDir: dir, force: true });
      expect(completed.interrupted).toBe(true);
      expect(completed.removed).toEqual(["src/tools/get-inventory.ts"]);
      expect(completed.kept).toEqual([]);
      expect(listFiles(dir)).toEqual([...completed.files.map((f) => f.path), MANIFEST].sort());
      for (const file of completed.files)
        expect(readFileSync(join(dir, file.path), "utf8")).toBe(file.contents);
    });
  });

  it("src/hooks.ts is written once and then the user's: never overwritten, never deleted", async () => {
    const dir = join(scratch, "hooks");
    const first = await generateProject(model, { outDir: dir });
    const hooksFile = join(dir, "src", "hooks.ts");
    const seed = readFileSync(hooksFile, "utf8");
    expect(seed).toContain("export const hooks: ToolHooksByName = {");
    expect(first.files.find((f) => f.path === "src/hooks.ts")?.seed).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as {
      files: Record<string, string>;
    };
    expect(manifest.files["src/hooks.ts"]).toBeUndefined();

    const mine = seed.replace(
      "export const hooks: ToolHooksByName = {",
      "export const hooks: ToolHooksByName = {\n  getPetById: { beforeCall: (args) => ({ ...args, petId: args.petId + 1 }) },",
    );
    writeFileSync(hooksFile, mine);
    // A new generation (a tool fewer) keeps it as it is, and says nothing is in the way.
    const again = await generateProject(withoutTool(model, "getInventory"), { outDir: dir, force: true });
    expect(readFileSync(hooksFile, "utf8")).toBe(mine);
    expect(again.removed).toEqual(["src/tools/get-inventory.ts"]);
    expect(again.kept).toEqual([]);
    // Even a generation with no tools at all does not delete it.
    await generateProject({ ...model, tools: [] }, { outDir: dir, force: true });
    expect(readFileSync(hooksFile, "utf8")).toBe(mine);
    // Deleted by the user: written again.
    rmSync(hooksFile);
    await generateProject(model, { outDir: dir, force: true });
    expect(readFileSync(hooksFile, "utf8")).toBe(seed);
  });

  it("tool modules type their hooks; the tools index maps tool names to them; api.ts takes src/hooks.ts", async () => {
    const files = await emitProject(model, { projectPath: "/p" });
    const text = (path: string) => files.find((f) => f.path === path)!.contents;
    expect(text("src/tools/get-pet-by-id.ts")).toContain("export type Hooks = ToolHooks<Args>;");
    expect(text("src/tools/get-pet-by-id.ts")).not.toContain("export const hooks");
    expect(text("src/tools/index.ts")).toMatch(
      /export type ToolHooksByName = \{[\s\S]*getPetById\?: \w+\.Hooks;/,
    );
    expect(text("src/api.ts")).toContain('import { hooks as userHooks } from "./hooks.js";');
    expect(text("src/hooks.ts")).toContain(`// ${model.tools[0]!.name}: {`);
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

describe("dependency rules of code generation", () => {
  it("code generation loads neither a code writer nor the TypeScript compiler (only code mode's type stripping loads the compiler)", () => {
    const sources = listFiles(join(ROOT, "src")).filter((f) => f.endsWith(".ts"));
    const loaders = sources.filter((f) =>
      /(from\s+|import\(\s*|require\(\s*|resolve\(\s*)["'](ts-morph|code-block-writer|typescript)["']/.test(
        readFileSync(join(ROOT, "src", f), "utf8"),
      ),
    );
    expect(loaders.sort()).toEqual(["runtime/code/strip-types.ts"]);
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
