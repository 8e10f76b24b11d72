/** The file system's errors while writing an output, as OMB_OUTPUT_UNWRITABLE: one row per errno code. */
import { describe, expect, it } from "vitest";
import { throwOutputError } from "../../../src/generator/shared/output-errors.js";
import { BridgeError } from "../../../src/model/diagnostics.js";

function errnoError(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("throwOutputError", () => {
  it.each([
    [
      "EACCES",
      "file",
      "out/model.json",
      "permission denied",
      "choose a path in a directory you can write to",
    ],
    ["EPERM", "file", "out/model.json", "permission denied", "choose a path in a directory you can write to"],
    [
      "EROFS",
      "directory",
      "/mnt/ro/project",
      "the file system is read-only",
      "choose a path in a directory you can write to",
    ],
    [
      "ENOTDIR",
      "file",
      "a-file/model.json",
      "a part of the path is a file, not a directory",
      "move the file that is in the way, or choose another path",
    ],
    [
      "ENOENT",
      "file",
      "missing/model.json",
      "the directory missing does not exist",
      "create the directory first, or choose a path in an existing one",
    ],
    ["EISDIR", "file", "out/", "it is a directory", "give the path of a file, e.g. out/model.json"],
    [
      "ENOSPC",
      "directory",
      "project",
      "no space left on the device",
      "free some space, or write somewhere else",
    ],
    ["ENAMETOOLONG", "file", "x.json", "the path is too long", "choose a shorter path"],
    ["EIO", "file", "x.json", "EIO", "choose a path in a directory you can write to"],
  ] as const)("%s writing a %s", (code, kind, target, reason, hint) => {
    const error = caught(() => throwOutputError(errnoError(code, "open", target), target, kind));
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).diagnostics).toEqual([
      {
        code: "OMB_OUTPUT_UNWRITABLE",
        severity: "error",
        message: `cannot write ${target}: ${reason}`,
        file: target,
        hint,
      },
    ]);
  });

  it("names the file inside the output directory that failed", () => {
    const error = caught(() =>
      throwOutputError(
        errnoError("EACCES", "open", "/tmp/project/src/index.ts"),
        "/tmp/project",
        "directory",
      ),
    );
    expect((error as BridgeError).diagnostics[0]?.message).toBe(
      "cannot write /tmp/project: permission denied (open src/index.ts)",
    );
  });

  it("leaves any other error as it is", () => {
    const bug = new TypeError("undefined is not a function");
    expect(caught(() => throwOutputError(bug, "x.json", "file"))).toBe(bug);
    const notErrno = Object.assign(new Error("odd"), { code: "ERR_SOMETHING" });
    expect(caught(() => throwOutputError(notErrno, "x.json", "file"))).toBe(notErrno);
  });
});
