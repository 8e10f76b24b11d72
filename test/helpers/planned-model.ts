/**
 * Large real specs planned once for the `slow` project, not once per test file: the model
 * `buildModel` plans for a spec and options is saved as JSON and read back while its key holds.
 * The key is a hash of the spec's bytes, the options and the text of every source file under
 * src/ (contents, not times: a checkout or an edit anywhere in the planner plans again), so a
 * saved model is always the one the sources in the tree would plan. The project's global setup
 * (test/slow-setup.ts) plans them before any worker starts; a test file run on its own plans on
 * a miss the same way.
 *
 * Location: `$OMB_TEST_CACHE_DIR`, else node_modules/.cache/omb-test (as the corpus harness
 * keeps its build under node_modules/.cache); the oldest entries beyond a few are removed.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildModel } from "../../src/generator/compile/build-model.js";
import { pruneOldestFiles } from "../../src/generator/shared/prune-cache.js";
import { parseModel, serializeModel } from "../../src/model/serialize.js";
import type { BridgeModel } from "../../src/model/types.js";
import { ROOT } from "./bridge.js";
import { githubSpec } from "./github-spec.js";

/** The planning options the slow tests use (cache off: this cache replaces the bridge's own). */
export interface PlannedOptions {
  resultSchemas?: boolean;
  outputSchemas?: boolean;
}

/** Entries kept: a few source trees (worktrees, branches) times the options the tests use. */
const KEEP = 12;

function cacheDir(): string {
  return process.env["OMB_TEST_CACHE_DIR"] || join(ROOT, "node_modules", ".cache", "omb-test");
}

let sourcesDigest: string | undefined;

/** The hash of every file under src/, by path and content. */
function hashSources(): string {
  if (sourcesDigest === undefined) {
    const src = join(ROOT, "src");
    const hash = createHash("sha256");
    const names = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((name) => /\.(ts|js|mjs|cjs|json)$/.test(name))
      .sort();
    for (const name of names)
      hash
        .update(`${name}\n`)
        .update(readFileSync(join(src, name)))
        .update("\n");
    sourcesDigest = hash.digest("hex");
  }
  return sourcesDigest;
}

/** The file a spec and options are saved in. */
export function plannedModelFile(spec: string, options: PlannedOptions = {}): string {
  const hash = createHash("sha256");
  hash.update(`${hashSources()}\n`);
  hash.update(`${JSON.stringify(options, Object.keys(options).sort())}\n`);
  hash.update(readFileSync(spec));
  return join(cacheDir(), `${hash.digest("hex").slice(0, 40)}.model.json`);
}

/** The model `buildModel(spec, options)` plans, from the cache when its key holds. */
export async function plannedModel(spec: string, options: PlannedOptions = {}): Promise<BridgeModel> {
  const file = plannedModelFile(spec, options);
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // a miss: plan it below
  }
  if (text !== undefined) {
    const model = parseModel(text, file);
    model.info.source = spec; // the unpacked spec may sit elsewhere than when it was saved
    return model;
  }
  const model = await buildModel(spec, { ...options, cache: false });
  mkdirSync(cacheDir(), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, serializeModel(model));
  renameSync(partial, file);
  pruneOldestFiles(cacheDir(), ".model.json", KEEP);
  return model;
}

/** GitHub's REST API (1,223 operations) planned with these options. */
export function githubModel(options: PlannedOptions = {}): Promise<BridgeModel> {
  return plannedModel(githubSpec(), options);
}
