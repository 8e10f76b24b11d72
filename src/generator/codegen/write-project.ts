/**
 * Writing a generated project: a non-empty directory needs force; a manifest records what was
 * written (with hashes), so the next generation tells its own files from the user's. It never
 * overwrites a file the user changed (or that no generation wrote) without being told to: it
 * refuses with the list (OMB_OUTPUT_CHANGED) before writing anything. It deletes a file of the
 * previous generation that this one no longer writes only while it is unchanged, and reports
 * the changed ones it keeps. Seed files (`src/hooks.ts`) are written when missing and never
 * again: they are the user's. A directory that cannot be made or written is refused before any
 * work, and any failure while writing is OMB_OUTPUT_UNWRITABLE (shared/output-errors.ts), never
 * an uncoded error.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { BridgeError, failWith } from "../../model/diagnostics.js";
import { checkWritableDirectory, throwOutputError } from "../shared/output-errors.js";
import { readOwnPackage, toJson } from "./emit/project.js";

export interface GeneratedFile {
  /** Relative, with `/` separators. */
  path: string;
  contents: string;
  /** Written only when missing, then the user's: never overwritten, never deleted. */
  seed?: boolean;
}

/** What writing changed besides writing the files. */
export interface WriteOutcome {
  /** Files of the previous generation this one no longer writes, unchanged: deleted. */
  removed: string[];
  /** Files of the previous generation this one no longer writes, changed by the user: kept. */
  kept: string[];
  /** Files this generation would write that already had its contents, and seeds already there: left untouched. */
  unchanged: string[];
}

export interface WriteOptions {
  /** Write into a non-empty directory. */
  force?: boolean;
  /** Replace files changed since the last generation (or not written by one) instead of refusing. */
  overwriteChanged?: boolean;
}

/** Records what a generation wrote, so the next one can tell its own files from the user's. */
export const MANIFEST = ".openapi-mcp-bridge.json";

/** Files named in the OMB_OUTPUT_CHANGED message; the rest are counted. */
const LISTED_CHANGES = 20;

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
 * Writes the files into `outDir`. A non-empty directory needs `force`; a file there that the
 * user changed is never overwritten unless `overwriteChanged` (OMB_OUTPUT_CHANGED lists them
 * first). Files a previous generation wrote that this one does not write are deleted only when
 * still unchanged; nothing else is ever deleted.
 */
export function writeProject(
  outDir: string,
  files: GeneratedFile[],
  options: WriteOptions = {},
): WriteOutcome {
  checkOutDir(outDir, options.force === true);
  const root = resolve(outDir);
  let previous: Record<string, string>;
  try {
    previous = readManifest(root);
    if (options.overwriteChanged !== true) refuseChangedFiles(outDir, root, files, previous);
  } catch (error) {
    if (error instanceof BridgeError) throw error;
    return throwOutputError(error, outDir, "directory");
  }
  try {
    return writeFiles(root, files, previous);
  } catch (error) {
    return throwOutputError(error, outDir, "directory");
  }
}

/**
 * The files this generation would overwrite that are not as a generation left them: changed
 * since (their hash is not the manifest's) or never written by one (not in the manifest). A
 * file that already has the new contents is no change.
 */
export function findChangedFiles(
  root: string,
  files: GeneratedFile[],
  previous: Record<string, string>,
): string[] {
  const changed: string[] = [];
  for (const file of files) {
    if (file.seed) continue;
    const target = join(root, ...file.path.split("/"));
    if (!existsSync(target)) continue;
    const hash = hashOf(readFileSync(target));
    if (hash === previous[file.path] || hash === hashOf(file.contents)) continue;
    changed.push(file.path);
  }
  return changed.sort();
}

function refuseChangedFiles(
  outDir: string,
  root: string,
  files: GeneratedFile[],
  previous: Record<string, string>,
): void {
  const changed = findChangedFiles(root, files, previous);
  if (changed.length === 0) return;
  const listed = changed.slice(0, LISTED_CHANGES).join(", ");
  const more = changed.length > LISTED_CHANGES ? ` and ${changed.length - LISTED_CHANGES} more` : "";
  failWith(
    "OMB_OUTPUT_CHANGED",
    `${changed.length} file(s) in ${outDir} changed since the last generation (or not written by one) would be overwritten: ${listed}${more}; nothing was written`,
    {
      file: outDir,
      hint: "move hook code into src/hooks.ts (generation writes it once and never again), then restore or delete these files, or pass --overwrite-changed to replace them",
    },
  );
}

/** Writes the files and the manifest under `root`; deletes what the previous generation left. */
function writeFiles(root: string, files: GeneratedFile[], previous: Record<string, string>): WriteOutcome {
  const current: Record<string, string> = {};
  const unchanged: string[] = [];
  const made = new Set<string>();
  for (const file of files) {
    const target = join(root, ...file.path.split("/"));
    if (file.seed && existsSync(target)) {
      unchanged.push(file.path); // the user's now: never written again
      continue;
    }
    const folder = dirname(target);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    const hash = hashOf(file.contents);
    if (!file.seed) current[file.path] = hash;
    // The same bytes are not written again: file times stay, and the summary can say so.
    if (!file.seed && previous[file.path] === hash && hasHash(target, hash)) {
      unchanged.push(file.path);
      continue;
    }
    writeFileSync(target, file.contents);
  }
  const seeds = new Set(files.filter((file) => file.seed).map((file) => file.path));
  const removed: string[] = [];
  const kept: string[] = [];
  for (const [path, hash] of Object.entries(previous).sort()) {
    if (path in current || seeds.has(path) || path.split("/").includes("..")) continue;
    const target = join(root, ...path.split("/"));
    try {
      if (hashOf(readFileSync(target)) === hash) {
        rmSync(target);
        removed.push(path);
      } else kept.push(path);
    } catch {
      // already gone
    }
  }
  writeFileSync(
    join(root, MANIFEST),
    toJson({ generator: `openapi-mcp-bridge ${readOwnPackage().version}`, files: current }),
  );
  return { removed, kept, unchanged };
}

function hasHash(target: string, hash: string): boolean {
  try {
    return hashOf(readFileSync(target)) === hash;
  } catch {
    return false;
  }
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
