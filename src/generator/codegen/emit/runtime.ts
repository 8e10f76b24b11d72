/**
 * The runtime a generated project ships: the import closure of this package's
 * `src/runtime/main.ts` (the generated server's entry: static, type-only and dynamic imports),
 * copied byte for byte into the project's `src/runtime/` and `src/model/`, so relative imports
 * keep working and the generated server runs the same code as `openapi-mcp-bridge serve`.
 * Read from this package's own `src/` (shipped in the npm package for this purpose), once per
 * process. One file is written for each project instead: `runtime/version.ts`, the name and
 * version the server introduces itself with (MCP serverInfo), which are the project's own.
 */
import { readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModuleSpec } from "../print/module-spec.js";

/** This package's root: four levels up from src/generator/codegen/emit or dist/generator/codegen/emit. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

export interface RuntimeSource {
  /** Paths relative to the package's `src/` (and the project's `src/`), e.g. `runtime/server.ts`. */
  files: { path: string; text: string }[];
  /** npm packages the copied files import, e.g. `@modelcontextprotocol/server`. */
  packages: string[];
}

/** The generated server's entry in the runtime: what it ships is this file's import closure. */
export const RUNTIME_ENTRY = "runtime/main.ts";

/** The runtime file that names the server; a generated project gets its own (see emitRuntimeVersion). */
export const RUNTIME_VERSION_FILE = "runtime/version.ts";

/** `runtime/version.ts` for a project: the same exports, with the project's package name and version. */
export function emitRuntimeVersion(packageName: string, version: string): ModuleSpec {
  return {
    docs: "This server's name and version, as MCP serverInfo reports them: the project's package.json.",
    imports: [],
    declarations: [
      { kind: "const", name: "BRIDGE_NAME", value: packageName },
      { kind: "const", name: "BRIDGE_VERSION", value: version },
    ],
  };
}

/**
 * An import (static, type-only or dynamic), or a module a worker thread runs
 * (`new URL("./worker.js", import.meta.url)`): both belong to what ships.
 */
const IMPORT =
  /(?:import|export)\s(?:[^;"']*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|new URL\(\s*["'](\.[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g;

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

let cached: RuntimeSource | undefined;

/** The runtime files and what they import, from `<package>/src` (or `sourceRoot`). */
export function readRuntimeSource(sourceRoot = join(PACKAGE_ROOT, "src")): RuntimeSource {
  if (cached !== undefined && sourceRoot === join(PACKAGE_ROOT, "src")) return cached;
  const files = new Map<string, string>();
  const packages = new Set<string>();
  const queue = [RUNTIME_ENTRY];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (files.has(path)) continue;
    const text = readFileSync(join(sourceRoot, path), "utf8");
    files.set(path, text);
    for (const match of text.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2] ?? match[3])!;
      if (specifier.startsWith("node:")) continue;
      if (!specifier.startsWith(".")) {
        packages.add(packageOf(specifier));
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(path), specifier)).replace(/\.js$/, ".ts");
      if (!/^(runtime|model)\//.test(target)) {
        throw new Error(`the runtime imports ${specifier} from ${path}, outside src/runtime and src/model`);
      }
      queue.push(target);
    }
  }
  const source = {
    files: [...files.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, text]) => ({ path, text })),
    packages: [...packages].sort(),
  };
  if (sourceRoot === join(PACKAGE_ROOT, "src")) cached = source;
  return source;
}
