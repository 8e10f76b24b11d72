/** One child process run to completion, for the conformance run's set-up steps. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs a command to completion; on failure the error names it and carries its output. */
export async function runCommand(command, args, options) {
  try {
    return await run(command, args, { maxBuffer: 64 * 1024 * 1024, timeout: 600_000, ...options });
  } catch (error) {
    const out = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim();
    throw new Error(`${[command, ...args].join(" ")} failed (${error.code ?? error.signal}):\n${out}`);
  }
}
