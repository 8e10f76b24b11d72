/**
 * Shared by the code generation tests: the golden fixtures, writing generated files, and one
 * `tsc --noEmit` over many generated projects at once (the compiler's start-up and the SDK's
 * types are paid once, not per project).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { emitTsconfig } from "../../src/generator/codegen/emit/project.js";
import type { GeneratedFile } from "../../src/generator/codegen/write-project.js";
import { ROOT } from "../helpers/bridge.js";

export const GOLDEN_DIR = join(ROOT, "test", "golden");

/** Fixture name (the folder under test/golden) → spec under fixtures/. */
export const GOLDEN_FIXTURES: [string, string][] = [
  ["petstore", "petstore/petstore.openapi30.yaml"],
  ["adversarial", "codegen/adversarial.openapi31.yaml"],
  ["wire-openapi31", "wire/wire.openapi31.yaml"],
  ["naming", "naming/names.openapi31.yaml"],
  ["security", "security/requirements.openapi31.yaml"],
  ["circular-refs", "refs/circular.openapi31.yaml"],
];

/** Generated files that are this package's runtime, copied: compared with src/, not snapshotted. */
export function isRuntimeCopy(path: string): boolean {
  return path.startsWith("src/runtime/") || path.startsWith("src/model/");
}

export function listFiles(dir: string, relative = ""): string[] {
  return readdirSync(join(dir, relative), { withFileTypes: true })
    .flatMap((entry) => {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      return entry.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

export function writeFiles(dir: string, files: GeneratedFile[]): void {
  for (const file of files) {
    const target = join(dir, ...file.path.split("/"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
}

/** A fresh scratch folder under the OS temp dir (removed by the caller). */
export function scratchDir(prefix: string): string {
  const dir = join(tmpdir(), `${prefix}-${process.pid}-${Date.now().toString(36)}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A golden snapshot as a complete project: its files plus the runtime from src/. */
export function copyGoldenProject(name: string, target: string): void {
  cpSync(join(GOLDEN_DIR, name), target, { recursive: true });
  cpSync(join(ROOT, "src", "runtime"), join(target, "src", "runtime"), { recursive: true });
  cpSync(join(ROOT, "src", "model"), join(target, "src", "model"), { recursive: true });
}

const run = promisify(execFile);

/**
 * `tsc --noEmit` once over every project folder in `root` (each with the compiler options its
 * own tsconfig.json sets), resolving packages from this repository's node_modules. Returns the
 * compiler's output; empty means no errors.
 */
export async function typecheckProjects(root: string, projects: string[]): Promise<string> {
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
  // The options every generated project compiles with, for all of them at once.
  const generated = JSON.parse(emitTsconfig()) as { compilerOptions: Record<string, unknown> };
  const { rootDir: _rootDir, outDir: _outDir, sourceMap: _sourceMap, ...options } = generated.compilerOptions;
  const tsconfig = {
    compilerOptions: { ...options, noEmit: true },
    include: projects.map((p) => `${p}/src/**/*.ts`),
  };
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  try {
    await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", root], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return "";
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}` || e.message;
  }
}
