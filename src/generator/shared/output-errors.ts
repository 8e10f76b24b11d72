/**
 * A failure to write an output (`model -o FILE`, `generate -o DIR`) is the user's to fix, not a
 * bug: the file system's error becomes OMB_OUTPUT_UNWRITABLE naming the path, why (from the
 * errno code) and what to do. Anything that is not a file system error is left as it is.
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";

/** A file that is written (its directory must exist), or a directory that is made if need be. */
export type OutputKind = "file" | "directory";

const WRITABLE_HINT = "choose a path in a directory you can write to";

/** Why, and what to do, for an errno code met writing `target`. */
function describeFailure(code: string, target: string, kind: OutputKind): { reason: string; hint: string } {
  switch (code) {
    case "EACCES":
    case "EPERM":
      return { reason: "permission denied", hint: WRITABLE_HINT };
    case "EROFS":
      return { reason: "the file system is read-only", hint: WRITABLE_HINT };
    case "ENOTDIR":
    case "EEXIST":
      return {
        reason: "a part of the path is a file, not a directory",
        hint: "move the file that is in the way, or choose another path",
      };
    case "ENOENT":
      return {
        reason: `the directory ${dirname(target)} does not exist`,
        hint:
          kind === "file"
            ? "create the directory first, or choose a path in an existing one"
            : "choose a path in an existing directory",
      };
    case "EISDIR":
      return {
        reason: "it is a directory",
        hint: `give the path of a file, e.g. ${target.replace(/\/+$/, "")}/model.json`,
      };
    case "ENOSPC":
    case "EDQUOT":
      return { reason: "no space left on the device", hint: "free some space, or write somewhere else" };
    case "ENAMETOOLONG":
      return { reason: "the path is too long", hint: "choose a shorter path" };
    default:
      return { reason: code, hint: WRITABLE_HINT };
  }
}

function errnoOf(error: unknown): { code: string; syscall?: string; path?: string } | undefined {
  if (error === null || typeof error !== "object") return undefined;
  const { code, syscall, path } = error as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== "string" || !/^E[A-Z]+$/.test(code)) return undefined;
  return {
    code,
    ...(typeof syscall === "string" ? { syscall } : {}),
    ...(typeof path === "string" ? { path } : {}),
  };
}

/**
 * Throws OMB_OUTPUT_UNWRITABLE for a file system error met while writing `target` (as the user
 * gave it); any other error is thrown as it is. When the failing path is another than the
 * target (a file inside the generated project), the message names it too.
 */
export function throwOutputError(error: unknown, target: string, kind: OutputKind): never {
  const errno = errnoOf(error);
  if (errno === undefined) throw error;
  const { reason, hint } = describeFailure(errno.code, target, kind);
  const root = resolve(target);
  const failing = errno.path !== undefined ? resolve(errno.path) : root;
  const shown = failing.startsWith(`${root}${sep}`) ? relative(root, failing) : errno.path;
  const inside = failing !== root && errno.syscall !== undefined ? ` (${errno.syscall} ${shown})` : "";
  throw new BridgeError([
    createDiagnostic("OMB_OUTPUT_UNWRITABLE", `cannot write ${target}: ${reason}${inside}`, {
      file: target,
      hint,
    }),
  ]);
}

/**
 * Refuses, before any work, an output directory that cannot be made or written: the nearest
 * existing one of it and its parents must be a directory this process may write into.
 */
export function checkWritableDirectory(target: string): void {
  let existing = resolve(target);
  for (;;) {
    try {
      statSync(existing);
      break;
    } catch (error) {
      const parent = dirname(existing);
      if (errnoOf(error)?.code !== "ENOENT" || parent === existing)
        throwOutputError(error, target, "directory");
      existing = parent;
    }
  }
  try {
    if (!statSync(existing).isDirectory()) {
      throw Object.assign(new Error(`${existing} is a file`), { code: "ENOTDIR" });
    }
    accessSync(existing, constants.W_OK);
  } catch (error) {
    throwOutputError(error, target, "directory");
  }
}
