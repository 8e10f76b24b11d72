/**
 * An output the user names that cannot be written is the user's error, not a bug: `generate -o`
 * and `model -o` exit 1 with OMB_OUTPUT_UNWRITABLE naming the path and a hint (never
 * OMB_INTERNAL, never a stack trace). Through the built CLI.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, STACK_LINE } from "../helpers/bridge.js";
import { scratchDir } from "./generated-support.js";

const PETSTORE = fixture("petstore", "petstore.openapi30.yaml");
/** Made when the file is collected: the cases below name paths in it. */
const scratch = scratchDir("omb-output-errors");
const READ_ONLY_DIR = join(scratch, "read-only");
const isRoot = process.getuid?.() === 0;

/**
 * Permission bits do not stop root. As root the read-only directory is made immutable
 * (`chattr +i`: not even root may create files in it) where the file system allows; failing
 * that, the CLI runs as nobody, which works when nobody can reach the built CLI.
 */
function makeReadOnly(dir: string): { uid?: number } {
  chmodSync(dir, 0o555);
  if (!isRoot) return {};
  try {
    execFileSync("chattr", ["+i", dir], { stdio: "ignore" });
    return {};
  } catch {
    return { uid: 65534 };
  }
}

let asUser: { uid?: number } = {};

beforeAll(() => {
  writeFileSync(join(scratch, "a-file"), "x");
  mkdirSync(join(scratch, "with-src-file"));
  writeFileSync(join(scratch, "with-src-file", "src"), "not a folder");
  mkdirSync(READ_ONLY_DIR);
  asUser = makeReadOnly(READ_ONLY_DIR);
});

afterAll(() => {
  if (isRoot) {
    try {
      execFileSync("chattr", ["-i", READ_ONLY_DIR], { stdio: "ignore" });
    } catch {
      // it was never made immutable
    }
  }
  chmodSync(READ_ONLY_DIR, 0o755);
  rmSync(scratch, { recursive: true, force: true });
});

interface UnwritableCase {
  name: string;
  args: string[];
  path: string;
  reason: string;
  hint: string;
}

const UNWRITABLE: UnwritableCase[] = [
  {
    name: "generate -o under a file",
    args: ["generate", PETSTORE, "-o", join(scratch, "a-file", "project")],
    path: join(scratch, "a-file", "project"),
    reason: "a part of the path is a file, not a directory",
    hint: "move the file that is in the way, or choose another path",
  },
  {
    name: "generate -o --force where a generated folder's name is a file",
    args: ["generate", PETSTORE, "-o", join(scratch, "with-src-file"), "--force"],
    path: join(scratch, "with-src-file"),
    reason: "a part of the path is a file, not a directory (mkdir src)",
    hint: "move the file that is in the way, or choose another path",
  },
  {
    name: "model -o under a file",
    args: ["model", PETSTORE, "-o", join(scratch, "a-file", "model.json")],
    path: join(scratch, "a-file", "model.json"),
    reason: "a part of the path is a file, not a directory",
    hint: "move the file that is in the way, or choose another path",
  },
  {
    name: "model -o in a directory that does not exist",
    args: ["model", PETSTORE, "-o", join(scratch, "missing", "model.json")],
    path: join(scratch, "missing", "model.json"),
    reason: `the directory ${join(scratch, "missing")} does not exist`,
    hint: "create the directory first, or choose a path in an existing one",
  },
  {
    name: "model -o naming a directory",
    args: ["model", PETSTORE, "-o", scratch],
    path: scratch,
    reason: "it is a directory",
    hint: `give the path of a file, e.g. ${scratch}/model.json`,
  },
];

const READ_ONLY: UnwritableCase[] = [
  {
    name: "generate -o in a read-only directory",
    args: ["generate", PETSTORE, "-o", join(scratch, "read-only", "project")],
    path: join(scratch, "read-only", "project"),
    reason: `permission denied (access ${join(scratch, "read-only")})`,
    hint: "choose a path in a directory you can write to",
  },
  {
    name: "model -o in a read-only directory",
    args: ["model", PETSTORE, "-o", join(scratch, "read-only", "model.json")],
    path: join(scratch, "read-only", "model.json"),
    reason: "permission denied",
    hint: "choose a path in a directory you can write to",
  },
];

async function expectUnwritable(c: UnwritableCase, user: { uid?: number } = {}): Promise<void> {
  const before = readdirSync(scratch).sort();
  const run = await runCli(c.args, { timeoutMs: 60_000, ...user });
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toBe(
    `error OMB_OUTPUT_UNWRITABLE ${c.path}: cannot write ${c.path}: ${c.reason}\n  hint: ${c.hint}\n`,
  );
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(readdirSync(scratch).sort()).toEqual(before);
}

describe("an output path that cannot be written", () => {
  it.each(UNWRITABLE)(
    "$name: OMB_OUTPUT_UNWRITABLE naming the path, with a hint",
    (c) => expectUnwritable(c),
    90_000,
  );

  it.runIf(process.platform !== "win32").each(READ_ONLY)(
    "$name: OMB_OUTPUT_UNWRITABLE naming the path, with a hint",
    (c) => expectUnwritable(c, asUser),
    90_000,
  );

  it("generate -o naming a file is OMB_OUTPUT_NOT_DIR, with a hint", async () => {
    const file = join(scratch, "a-file");
    const run = await runCli(["generate", PETSTORE, "-o", file], { timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error OMB_OUTPUT_NOT_DIR ${file}: ${file} is a file, not a directory\n  hint: give the path of a new or empty directory\n`,
    );
  }, 90_000);

  it.each([["model"], ["generate"]])(
    "%s -o with an empty path is a usage error, exit code 2",
    async (command) => {
      const run = await runCli([command, PETSTORE, "-o", ""]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("argument '' is invalid. expected a path, got an empty one");
    },
  );

  it("an unknown option is still commander's error, exit code 2", async () => {
    const run = await runCli(["model", PETSTORE, "-o", join(scratch, "m.json"), "--no-such-option"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--no-such-option'");
    expect(run.stderr).not.toContain("OMB_");
  });
});
