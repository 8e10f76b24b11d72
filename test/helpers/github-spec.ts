/**
 * GitHub's REST API spec (@octokit/openapi, test/corpus/specs/octokit), unpacked once into the
 * OS temp folder: 1,223 operations, the largest real spec the tests read.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ROOT } from "./bridge.js";

const PACKED = join(ROOT, "test", "corpus", "specs", "octokit", "api.github.com.json.gz");

/** The path of the unpacked spec (written on first use, atomically, so parallel tests agree). */
export function githubSpec(): string {
  const target = join(tmpdir(), "omb-test-api.github.com.json");
  if (!existsSync(target)) {
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, gunzipSync(readFileSync(PACKED)));
    renameSync(partial, target);
  }
  return target;
}
