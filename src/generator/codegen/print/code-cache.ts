/**
 * Loads large CommonJS files with V8's code cache, what Node 22's `module.enableCompileCache()`
 * does (Node 20 has no such switch). Compiling the TypeScript compiler the printer loads is a
 * large part of a cached `generate`; with the code V8 produced on an earlier run it costs much
 * less CPU (bench/results/design-choices.md).
 *
 * Each file is compiled with `vm.Script` and its cached data, run as a CommonJS module and put
 * in the require cache, so that the package's own `require` calls find it there. The cache lives
 * next to the model cache (`OPENAPI_MCP_CACHE=0` turns both off), one entry per file content,
 * Node version and architecture; V8 also checks its own version and flags (a mismatch is a miss,
 * never a different behaviour); the oldest entries beyond MAX_CODE_ENTRIES are removed when one is
 * written. Any problem here only means loading the usual way. Printing
 * workers (print-worker-pool.ts) load the same files at the same time: each writes its own
 * temporary file and renames it over the entry.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { threadId } from "node:worker_threads";
import { resolveCacheDir } from "../../shared/cache-dir.js";
import { pruneOldestFiles } from "../../shared/prune-cache.js";

interface Loaded {
  script: Script;
  cacheFile: string;
  /** The cached data was missing or rejected: write it once the code has run. */
  stale: boolean;
}

type ModuleWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;

const RequireCache = createRequire(import.meta.url).cache;
/**
 * Code cache entries kept (the oldest written are removed beyond this): one per file, Node
 * version and install, a few MB each.
 */
export const MAX_CODE_ENTRIES = 8;

/**
 * Loads `files` (absolute paths of CommonJS files, each before the files that require it)
 * into the require cache with the code cache. Returns a function that saves the code cache for
 * the files that missed it; call it once the code has been used (the cache then holds the
 * functions compiled so far too). Does nothing when caching is off or a file is loaded already.
 */
export function preloadWithCodeCache(
  files: string[],
  env: Record<string, string | undefined> = process.env,
): () => void {
  if (env["OPENAPI_MCP_CACHE"] === "0" || files.some((file) => RequireCache[file] !== undefined)) {
    return () => undefined;
  }
  const dir = join(resolveCacheDir(env), "code");
  const loaded: Loaded[] = [];
  try {
    for (const file of files) loaded.push(loadFile(file, dir));
  } catch {
    // Loaded the usual way by the caller's `require` (a file loaded here stays loaded).
    return () => undefined;
  }
  return () => {
    let wrote = false;
    for (const entry of loaded) {
      if (!entry.stale) continue;
      entry.stale = false;
      try {
        mkdirSync(dir, { recursive: true });
        const temporary = `${entry.cacheFile}.${process.pid}-${threadId}.tmp`;
        writeFileSync(temporary, entry.script.createCachedData());
        renameSync(temporary, entry.cacheFile);
        wrote = true;
      } catch {
        // a cache that cannot be written is a cache miss next time
      }
    }
    // Entries of files no longer loaded (another ts-morph, another Node) would stay forever.
    if (wrote) pruneOldestFiles(dir, ".bin", MAX_CODE_ENTRIES);
  };
}

function loadFile(file: string, dir: string): Loaded {
  const bytes = readFileSync(file);
  // V8 checks cached data against the source's length only: the key holds the content's hash.
  const key = createHash("sha256")
    .update(`${process.version}\n${process.arch}\n${file}\n`)
    .update(bytes)
    .digest("hex");
  const source = bytes.toString("utf8");
  const cacheFile = join(dir, `${key.slice(0, 32)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapped = (Module as unknown as { wrap(source: string): string }).wrap(source);
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = new Module(file);
  module.filename = file;
  const require = createRequire(file);
  RequireCache[file] = module;
  try {
    (script.runInThisContext() as ModuleWrapper).call(
      module.exports,
      module.exports,
      require,
      module,
      file,
      dirname(file),
    );
  } catch (error) {
    delete RequireCache[file];
    throw error;
  }
  module.loaded = true;
  return { script, cacheFile, stale: cachedData === undefined || script.cachedDataRejected === true };
}
