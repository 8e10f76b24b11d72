/**
 * A cache of planned models, keyed by the spec file's bytes, the planning options (an override
 * file's name and content, the client profile and server name included, see build.ts) and this
 * build of the bridge. MCP clients start a bridge again and again with the same spec; from the
 * second start on, the spec is not parsed, validated or planned again. Only local,
 * self-contained spec files are cached (a file with external `$ref`s depends on other files,
 * stdin and URLs can change under the same name). The cache never changes behaviour: a hit
 * returns exactly the model a miss would plan, and any problem with it means a miss.
 *
 * Location: `$OPENAPI_MCP_CACHE_DIR`, else `$XDG_CACHE_HOME/openapi-mcp-bridge`, else
 * `~/.cache/openapi-mcp-bridge`. `OPENAPI_MCP_CACHE=0` (or `cache: false`) turns it off.
 */
import { createHash } from "node:crypto";
import { access, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BridgeError } from "../../model/diagnostics.js";
import { readLazyModel, serializeLazyModelSteps } from "../../model/lazy-model.js";
import { type BridgeModel, IR_VERSION } from "../../model/types.js";
import { buildSearchIndexSteps } from "../../runtime/discovery/search.js";
import { runInSlices, SLICE_MS, type SlicePace } from "../../runtime/engine/run-in-slices.js";
import { saveContractDigestsSteps } from "../../runtime/server/saved-digests.js";
import { BRIDGE_VERSION } from "../../runtime/version.js";
import { resolveCacheDir } from "../shared/cache-dir.js";
import { pruneOldestFiles } from "../shared/prune-cache.js";
import { writeFileAtomically } from "../shared/write-atomic.js";
import {
  createReadBudget,
  DEFAULT_MAX_FILE_BYTES,
  ESCAPE_ROOM,
  type FileBytes,
  readFileWithRoom,
} from "../spec/read-limits.js";
import { hasExternalRef } from "./external-ref.js";

/** Entries kept; the oldest are removed beyond this. */
const MAX_ENTRIES = 32;

/** A hit, or a miss: none cached yet, or an entry that failed its checks (and why). */
export type CacheRead = { model: BridgeModel } | { miss: "absent" } | { miss: "unusable"; why: string };

/** A cache write handed over to run later (buildModel's deferCacheWrite), at `pace`. */
export type DeferredCacheWrite = (pace?: SlicePace, extras?: CacheWriteExtras) => Promise<void>;

/** What an entry may carry besides the model and its search index. */
export interface CacheWriteExtras {
  /**
   * The tools' contract digests (saved-digests.ts), which a start from the entry then reads
   * instead of computing: asked by the write `serve` runs after its first answers when it lists
   * the operations as tools (discovery and code mode never digest them: Graph beta's would take
   * seconds for nothing); a write that someone waits for (generate, model) leaves them out.
   */
  contractDigests?: boolean;
}

export interface ModelCache {
  read(): Promise<CacheRead>;
  /**
   * The spec's bytes the key was made of, once (then undefined): on a miss the loader takes them
   * instead of reading the file again (Graph beta's 47 MB: a second read and its page faults,
   * some 0.3 s), and what is planned is what was hashed.
   */
  takeSpecBytes(): FileBytes | undefined;
  /**
   * Saves the model (never fails: a read-only or full disk only costs the next start its
   * speed). Made in slices with the event loop free in between, so that `serve` may answer
   * while it writes; the file appears whole or not at all.
   */
  write(model: BridgeModel, pace?: SlicePace, extras?: CacheWriteExtras): Promise<void>;
}

/**
 * The cache entry for one spec file and options, or undefined when the spec cannot be cached
 * (not a local file, external refs, unreadable) or caching is off.
 */
export async function openModelCache(
  source: string,
  options: Record<string, unknown>,
  env: Record<string, string | undefined> = process.env,
): Promise<ModelCache | undefined> {
  if (env.OPENAPI_MCP_CACHE === "0" || source === "-" || /^[a-z][a-z0-9+.-]*:\/\//i.test(source))
    return undefined;
  let specBytes: FileBytes | undefined;
  try {
    // Only a regular file of a sane size is hashed: a device or a pipe is left to the loader's caps.
    const info = await stat(source);
    if (!info.isFile() || info.size > DEFAULT_MAX_FILE_BYTES) return undefined;
    const location = resolve(source);
    // Read as the loader reads a spec (with room to escape it in place), for it to take.
    const read = await readFileWithRoom(location, createReadBudget(), {
      regularOnly: true,
      room: ESCAPE_ROOM,
    });
    specBytes = { location, ...read };
  } catch {
    return undefined; // the loader reports the problem
  }
  const { bytes } = specBytes;
  if (hasExternalRef(bytes)) return undefined;
  const hash = createHash("sha256");
  hash.update(`${IR_VERSION}\n${BRIDGE_VERSION}\n${await describeBuild()}\n`);
  hash.update(`${JSON.stringify(options, Object.keys(options).sort())}\n`);
  hash.update(bytes);
  const dir = resolveCacheDir(env);
  const file = join(dir, `${hash.digest("hex").slice(0, 40)}.model.json`);
  return {
    takeSpecBytes: () => {
      const taken = specBytes;
      specBytes = undefined;
      return taken;
    },
    read: async () => {
      try {
        await access(file);
      } catch {
        return { miss: "absent" };
      }
      try {
        const model = readLazyModel(file);
        // the spec may have moved: report the name it was given this time
        model.info.source = source;
        return { model };
      } catch (error) {
        const first = error instanceof BridgeError ? error.diagnostics[0] : undefined;
        const message = first === undefined ? (error as Error).message : `${first.code}: ${first.message}`;
        return { miss: "unusable", why: `the cached model ${file} cannot be used (${message})` };
      }
    },
    write: async (model, pace, extras = {}) => {
      try {
        await mkdir(dir, { recursive: true });
        // With the search index, as `model` saves it: discovery's first search at the next start
        // reads the saved terms instead of every tool's schemas.
        const searchIndex =
          model.searchIndex ?? (await runInSlices(buildSearchIndexSteps(model.tools), SLICE_MS, pace));
        const contractDigests =
          extras.contractDigests === true
            ? (model.contractDigests ??
              (await runInSlices(saveContractDigestsSteps(model.tools), SLICE_MS, pace)))
            : model.contractDigests;
        const bytes = await runInSlices(
          serializeLazyModelSteps({ ...model, searchIndex, ...(contractDigests ? { contractDigests } : {}) }),
          SLICE_MS,
          pace,
        );
        await writeFileAtomically(file, bytes);
        pruneOldestFiles(dir, ".model.json", MAX_ENTRIES);
      } catch {
        // a read-only or full disk only costs the next start its speed
      }
    },
  };
}

/**
 * Sizes and times of the files that plan a model (the spec and compile stages, the model, and
 * the runtime parts the planner reads): a rebuilt bridge never reads entries an older build wrote.
 */
async function describeBuild(): Promise<string> {
  const generator = join(dirname(fileURLToPath(import.meta.url)), "..");
  const dirs = ["spec", "compile", "../model", "../runtime"].map((dir) => join(generator, dir));
  // Code only: declaration files (.d.ts) never run. All at once: some 400 stats, awaited one by
  // one, were a few milliseconds of every start.
  const lists = await Promise.all(
    dirs.map(async (dir) =>
      (await readdir(dir, { recursive: true }).catch(() => [] as string[]))
        .filter((n) => /\.(js|cjs|ts)$/.test(n) && !n.endsWith(".d.ts"))
        .sort()
        .map((name) => join(dir, name)),
    ),
  );
  const files = lists.flat();
  const infos = await Promise.all(files.map((file) => stat(file)));
  return files
    .map((file, i) => `${file.slice(generator.length)}:${infos[i]!.size}:${Math.round(infos[i]!.mtimeMs)}`)
    .join(",");
}
