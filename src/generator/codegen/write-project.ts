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
 *
 * A generation can be interrupted (Ctrl-C, a full disk, a crash). Each file is written to a
 * temporary name and renamed, so a file is either as it was or as this generation writes it,
 * never cut short; and a marker (MARKER, the hashes this generation writes) is there from
 * before the first write until the manifest is written. The next generation that finds it
 * refuses without --force (OMB_OUTPUT_INTERRUPTED), and with --force completes the job: the
 * marker's files count as generated ones, its temporary files are removed.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
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
  /** An earlier generation into the directory had been interrupted: this one completed it. */
  interrupted: boolean;
}

export interface WriteOptions {
  /** Write into a non-empty directory. */
  force?: boolean;
  /** Replace files changed since the last generation (or not written by one) instead of refusing. */
  overwriteChanged?: boolean;
}

/** Records what a generation wrote, so the next one can tell its own files from the user's. */
export const MANIFEST = ".openapi-mcp-bridge.json";

/**
 * There while a generation writes (from before its first file until its manifest is written):
 * found by the next generation, it says the last one was interrupted.
 */
export const MARKER = ".openapi-mcp-bridge.incomplete.json";

/** What a file is written to before it is renamed into place. */
const TEMP_SUFFIX = ".omb-partial";

/** What an interrupted generation left: when it started and the hashes it was writing, by path. */
interface Marker {
  started: string;
  files: Record<string, string[]>;
}

/** The hashes a generation wrote, or was writing when it was interrupted, by path. */
type KnownHashes = Map<string, Set<string>>;

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

/** The marker an interrupted generation left in `root`, if any (an unreadable one still says so). */
export function readMarker(root: string): Marker | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, MARKER), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
  const marker: Marker = { started: "at an unknown time", files: {} };
  try {
    const value = JSON.parse(text) as { started?: unknown; files?: unknown };
    if (typeof value.started === "string") marker.started = value.started;
    if (typeof value.files === "object" && value.files !== null) {
      for (const [path, hashes] of Object.entries(value.files as Record<string, unknown>)) {
        if (Array.isArray(hashes)) marker.files[path] = hashes.filter((h) => typeof h === "string");
      }
    }
  } catch {
    // cut short itself: the generation was interrupted all the same
  }
  return marker;
}

function knownHashes(previous: Record<string, string>, marker: Marker | undefined): KnownHashes {
  const known: KnownHashes = new Map();
  const add = (path: string, hash: string) => {
    const set = known.get(path);
    if (set === undefined) known.set(path, new Set([hash]));
    else set.add(hash);
  };
  for (const [path, hash] of Object.entries(previous)) add(path, hash);
  for (const [path, hashes] of Object.entries(marker?.files ?? {}))
    for (const hash of hashes) add(path, hash);
  return known;
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
  let marker: Marker | undefined;
  let known: KnownHashes;
  try {
    previous = readManifest(root);
    marker = readMarker(root);
    known = knownHashes(previous, marker);
    // An empty (or new) directory has no file to change: no need to look for each one.
    if (options.overwriteChanged !== true && !isEmptyDir(root))
      refuseChangedFiles(outDir, root, files, known);
  } catch (error) {
    if (error instanceof BridgeError) throw error;
    return throwOutputError(error, outDir, "directory");
  }
  try {
    return { ...writeFiles(root, files, previous, known, marker), interrupted: marker !== undefined };
  } catch (error) {
    return throwOutputError(error, outDir, "directory");
  }
}

/**
 * The files this generation would overwrite that are not as a generation left them: changed
 * since (their hash is not the manifest's) or never written by one (not in the manifest). A
 * file that already has the new contents is no change.
 */
export function findChangedFiles(root: string, files: GeneratedFile[], known: KnownHashes): string[] {
  const changed: string[] = [];
  for (const file of files) {
    if (file.seed) continue;
    const target = join(root, ...file.path.split("/"));
    if (!existsSync(target)) continue;
    const hash = hashOf(readFileSync(target));
    if (known.get(file.path)?.has(hash) === true || hash === hashOf(file.contents)) continue;
    changed.push(file.path);
  }
  return changed.sort();
}

function refuseChangedFiles(outDir: string, root: string, files: GeneratedFile[], known: KnownHashes): void {
  const changed = findChangedFiles(root, files, known);
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

/**
 * Writes the marker, the files and the manifest under `root`, deletes what an earlier generation
 * left, then removes the marker: a generation cut short anywhere in between leaves it.
 */
function writeFiles(
  root: string,
  files: GeneratedFile[],
  previousFiles: Record<string, string>,
  known: KnownHashes,
  interrupted: Marker | undefined,
): Omit<WriteOutcome, "interrupted"> {
  const current: Record<string, string> = {};
  for (const file of files) if (!file.seed) current[file.path] = hashOf(file.contents);
  mkdirSync(root, { recursive: true });
  // The hashes of an interrupted generation stay known until this one is done.
  const pending: Record<string, string[]> = { ...interrupted?.files };
  for (const [path, hash] of Object.entries(current)) {
    pending[path] = [...new Set([...(pending[path] ?? []), hash])];
  }
  writeAtomically(
    join(root, MARKER),
    toJson({ started: new Date().toISOString(), files: sortedRecord(pending) }),
  );
  if (interrupted !== undefined) removeTempFiles(root, Object.keys(interrupted.files));

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
    const hash = current[file.path];
    // The same bytes are not written again: file times stay, and the summary can say so.
    if (hash !== undefined && known.get(file.path)?.has(hash) === true && hasHash(target, hash)) {
      unchanged.push(file.path);
      continue;
    }
    writeAtomically(target, file.contents);
  }
  const seeds = new Set(files.filter((file) => file.seed).map((file) => file.path));
  const removed: string[] = [];
  const kept: string[] = [];
  for (const [path, hashes] of [...known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (path in current || seeds.has(path) || path.split("/").includes("..")) continue;
    const target = join(root, ...path.split("/"));
    try {
      if (hashes.has(hashOf(readFileSync(target)))) {
        rmSync(target);
        removed.push(path);
      } else if (path in previousFiles) kept.push(path);
      // else: a file an interrupted generation meant to write, never the one it wrote: not ours
    } catch {
      // already gone (or never written by the interrupted generation)
    }
  }
  writeAtomically(
    join(root, MANIFEST),
    toJson({ generator: `openapi-mcp-bridge ${readOwnPackage().version}`, files: current }),
  );
  rmSync(join(root, MARKER), { force: true });
  return { removed, kept, unchanged };
}

/** Writes a temporary file beside `target`, then renames it: `target` is never cut short. */
function writeAtomically(target: string, contents: string): void {
  const temp = `${target}${TEMP_SUFFIX}`;
  writeFileSync(temp, contents);
  renameSync(temp, target);
}

/** The temporary files an interrupted generation left beside the files it was writing. */
function removeTempFiles(root: string, paths: readonly string[]): void {
  for (const path of paths) {
    if (path.split("/").includes("..")) continue;
    rmSync(`${join(root, ...path.split("/"))}${TEMP_SUFFIX}`, { force: true });
  }
  rmSync(join(root, `${MANIFEST}${TEMP_SUFFIX}`), { force: true });
  rmSync(join(root, `${MARKER}${TEMP_SUFFIX}`), { force: true });
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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
  let marker: Marker | undefined;
  try {
    marker = readMarker(root);
  } catch (error) {
    throwOutputError(error, outDir, "directory");
  }
  if (!force && marker !== undefined) {
    failWith(
      "OMB_OUTPUT_INTERRUPTED",
      `the last generation into ${outDir} (started ${marker.started}) was interrupted before it finished: its files may be a mix of two generations; nothing was written`,
      {
        file: outDir,
        hint: `run the same command again with --force to complete it (files you changed are still refused); ${MARKER} marks the unfinished generation`,
      },
    );
  }
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
