#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` around the package.json (package.json's prepack and postpack):
 *
 *   node scripts/pack-manifest.mjs strip     dist/ rebuilt from scratch, `scripts.prepare` taken
 *                                            out of package.json (the original kept aside)
 *   node scripts/pack-manifest.mjs restore   the original package.json put back
 *
 * Why: a clone needs `prepare` (`npm install` builds dist/, so `npm install && npm link` works),
 * but in the package it makes npm warn on every install that openapi-mcp-bridge has an install
 * script to approve, and there is nothing to build there. npm reads package.json again after
 * prepack, so the tarball gets the stripped one; postpack restores it. A copy left by a pack
 * that failed half-way is restored by the next run of either command. dist/ is rebuilt from
 * empty so no file of a deleted source (or an old source map) ships.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const MANIFEST = join(ROOT, "package.json");
const KEPT = join(ROOT, ".package.json.prepack");

function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
}

function strip() {
  restore();
  rmSync(join(ROOT, "dist"), { recursive: true, force: true });
  execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  const text = readFileSync(MANIFEST, "utf8");
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare === undefined) return;
  writeFileSync(KEPT, text);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

const command = process.argv[2];
if (command === "strip") strip();
else if (command === "restore") restore();
else {
  process.stderr.write("usage: node scripts/pack-manifest.mjs strip|restore\n");
  process.exitCode = 2;
}
