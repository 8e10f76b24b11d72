/**
 * The optional dependencies: packages only one command needs (the TypeScript compiler and the
 * code writer for `generate`, the tokenizer for `lint`), so a serve-only install
 * (`npm install --omit=optional`) leaves out some 44 MB. Those commands check for them first
 * and, when one is missing, stop with OMB_OPTIONAL_PACKAGE_MISSING saying what to install.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { failWith } from "../../model/diagnostics.js";

/** This package's root: three levels up from src/generator/shared or dist/generator/shared. */
const PACKAGE_JSON = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "package.json");

/** Whether `error` says that `name` (or a file of it) could not be found. */
export function isMissingPackageError(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return false;
  return String((error as Error).message).includes(`'${name}`);
}

/** `name@version` as this package's package.json pins it, else the name alone. */
function pinned(name: string): string {
  try {
    const own = JSON.parse(readFileSync(PACKAGE_JSON, "utf8")) as {
      optionalDependencies?: Record<string, string>;
    };
    const version = own.optionalDependencies?.[name];
    return version === undefined ? name : `${name}@${version}`;
  } catch {
    return name;
  }
}

/** Stops with OMB_OPTIONAL_PACKAGE_MISSING: `command` needs `missing`, which are not installed. */
export function failMissingPackages(command: string, missing: readonly string[]): never {
  const names = missing.join(" and ");
  failWith(
    "OMB_OPTIONAL_PACKAGE_MISSING",
    `${command} needs the ${names} package${missing.length === 1 ? "" : "s"}: optional dependencies of openapi-mcp-bridge that are not installed (an install with --omit=optional)`,
    {
      hint: `npm install ${missing.map(pinned).join(" ")} where openapi-mcp-bridge is installed (with -g for a global install), or install openapi-mcp-bridge again without --omit=optional`,
    },
  );
}

/**
 * Checks that `packages` can be loaded from this package (without loading them) and stops with
 * OMB_OPTIONAL_PACKAGE_MISSING naming every missing one.
 */
export function requireOptionalPackages(command: string, packages: readonly string[]): void {
  const requireHere = createRequire(import.meta.url);
  const missing = packages.filter((name) => {
    try {
      requireHere.resolve(name);
      return false;
    } catch (error) {
      if (isMissingPackageError(error, name)) return true;
      throw error;
    }
  });
  if (missing.length > 0) failMissingPackages(command, missing);
}
