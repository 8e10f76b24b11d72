/**
 * Installs the competitor bridge and the GitHub REST spec into a scratch folder outside the
 * repo (`$TMPDIR/omb-bench`, or OMB_BENCH_DIR), once; later runs reuse it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  COMPETITOR,
  COMPETITOR_BIN,
  COMPETITOR_DIR,
  COMPETITOR_VERSION,
  GITHUB_SPEC,
  isMain,
  OUR_CLI,
  SCRATCH_DIR,
} from "./lib.mjs";

const PACKAGES = [`${COMPETITOR}@${COMPETITOR_VERSION}`, "@octokit/openapi"];

function installedCompetitorVersion() {
  try {
    return JSON.parse(readFileSync(join(COMPETITOR_DIR, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

let done;

/** Idempotent within one process: later calls return the first result. */
export function setup({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (done !== undefined) return done;
  if (!existsSync(OUR_CLI)) throw new Error(`${OUR_CLI} is missing: run \`npm run build\` first`);
  const ready = installedCompetitorVersion() === COMPETITOR_VERSION && existsSync(GITHUB_SPEC);
  if (ready) {
    log(`setup: reusing ${SCRATCH_DIR}`);
  } else {
    mkdirSync(SCRATCH_DIR, { recursive: true });
    const manifest = join(SCRATCH_DIR, "package.json");
    if (!existsSync(manifest)) {
      writeFileSync(manifest, `${JSON.stringify({ name: "omb-bench-scratch", private: true }, null, 2)}\n`);
    }
    log(`setup: npm install ${PACKAGES.join(" ")} in ${SCRATCH_DIR}`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", ...PACKAGES], {
      cwd: SCRATCH_DIR,
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 600_000,
    });
  }
  for (const file of [COMPETITOR_BIN, GITHUB_SPEC]) {
    if (!existsSync(file)) throw new Error(`setup: ${file} is missing after install`);
  }
  done = { scratchDir: SCRATCH_DIR, competitorBin: COMPETITOR_BIN, githubSpec: GITHUB_SPEC };
  return done;
}

if (isMain(import.meta.url)) {
  const result = setup();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
