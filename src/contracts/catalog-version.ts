/**
 * catalogVersion: MAJOR.MINOR.PATCH of a release of the tool set. A breaking change bumps the
 * major, a compatible one the minor, a docs-only one the patch; no change keeps the version.
 */
import { failWith } from "../model/diagnostics.js";
import type { ToolChange } from "./diff-tools.js";

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** True for MAJOR.MINOR.PATCH (numbers without leading zeros). */
export function isCatalogVersion(value: string): boolean {
  return VERSION.test(value);
}

/** The next catalogVersion after `previous`, given what changed; a bad version is a coded error. */
export function bumpCatalogVersion(previous: string, changes: ToolChange[], file?: string): string {
  const match = VERSION.exec(previous);
  if (match === null) {
    return failWith("OMB_CATALOG_VERSION", `catalogVersion "${previous}" is not MAJOR.MINOR.PATCH`, {
      ...(file !== undefined ? { file } : {}),
      pointer: "/catalogVersion",
    });
  }
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (changes.some((c) => c.severity === "breaking")) return `${major + 1}.0.0`;
  if (changes.some((c) => c.severity === "compatible")) return `${major}.${minor + 1}.0`;
  if (changes.some((c) => c.severity === "docs")) return `${major}.${minor}.${patch + 1}`;
  return previous;
}
