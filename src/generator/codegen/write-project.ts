/**
 * Writing a generated project: a non-empty directory needs force; a manifest records what was
 * written (with hashes), so the next generation tells its own files from the user's and never
 * deletes a file it did not write or that was changed since. A directory that cannot be made or
 * written is refused before any work, and any failure while writing is OMB_OUTPUT_UNWRITABLE
 * (shared/output-errors.ts), never an uncoded error.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { failWith } from "../../model/diagnostics.js";
import { checkWritableDirectory, throwOutputError } from "../shared/output-errors.js";
import { readOwnPackage, toJson } from "./emit/project.js";

export interface GeneratedFile {
  /** Relative, with `/` separators. */
  path: string;
  contents: string;
}

/** Records what a generation wrote, so the next one can tell its own files from the user's. */
export const MANIFEST = ".openapi-mcp-bridge.json";

function hashOf(contents: string | Buffer): string {
  return createHash("sha256").update(contents).digest("hex");
}

function readManifest(outDir: string): Record<string, string> {
  try {
    const value = JSON.parse(readFileSync(join(outDir, MANIFEST), "utf8")) as { files?: unknown };
    if (typeof value.files === "object" && value.files !== null) return value.files as Record<string, string>;
  } catch {
    // no manifest: nothing here was written by a generation
  }
  return {};
}

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    return throwOutputError(error, dir, "directory");
  }
}

/**
 * Writes the files into `outDir`. A non-empty directory needs `force`. Files a previous
 * generation wrote (listed in its manifest) that this one does not write are deleted only when
 * still unchanged; nothing else is ever deleted.
 */
export function writeProject(outDir: string, files: GeneratedFile[], force = false): string[] {
  checkOutDir(outDir, force);
  try {
    return writeFiles(resolve(outDir), files);
  } catch (error) {
    return throwOutputError(error, outDir, "directory");
  }
}

/** Writes the files and the manifest under `root`; deletes what the previous generation left. */
function writeFiles(root: string, files: GeneratedFile[]): string[] {
  const previous = readManifest(root);
  const current: Record<string, string> = {};
  const made = new Set<string>();
  for (const file of files) {
    const target = join(root, ...file.path.split("/"));
    const folder = dirname(target);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    writeFileSync(target, file.contents);
    current[file.path] = hashOf(file.contents);
  }
  const removed: string[] = [];
  for (const [path, hash] of Object.entries(previous).sort()) {
    if (path in current || path.split("/").includes("..")) continue;
    const target = join(root, ...path.split("/"));
    try {
      if (hashOf(readFileSync(target)) === hash) {
        rmSync(target);
        removed.push(path);
      }
    } catch {
      // already gone
    }
  }
  writeFileSync(
    join(root, MANIFEST),
    toJson({ generator: `openapi-mcp-bridge ${readOwnPackage().version}`, files: current }),
  );
  return removed;
}

/** Throws the diagnostic `writeProject` would give for this directory, before any work. */
export function checkOutDir(outDir: string, force: boolean): void {
  const root = resolve(outDir);
  if (existsAsFile(root))
    failWith("OMB_OUTPUT_NOT_DIR", `${outDir} is a file, not a directory`, {
      file: outDir,
      hint: "give the path of a new or empty directory",
    });
  checkWritableDirectory(outDir);
  if (!force && !isEmptyDir(root)) {
    failWith("OMB_OUTPUT_NOT_EMPTY", `${outDir} is not empty`, {
      file: outDir,
      hint: "choose an empty or new directory, or pass --force to write over the generated files in it",
    });
  }
}

function existsAsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
