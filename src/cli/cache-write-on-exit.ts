/**
 * A first start of `serve` writes the model cache after it answers (serve.ts), in slices between
 * requests. A stdio session that ends sooner must not lose that write, or every start of a huge
 * API stays a first start: MCP clients close stdin, send SIGTERM two seconds later and SIGKILL
 * two seconds after that (the SDK's clients). So once stdin ends, or on SIGTERM or SIGINT while
 * the write is pending, the write runs without pauses (its pace is hurried: nobody is left to answer)
 * and a signal takes effect once the write has settled, the same signal, as if it came then.
 * The file is written whole through a temporary and a rename: a SIGKILL mid-write leaves no
 * partial entry. Over HTTP the server's own handlers stop it, then finish the write the same
 * way before the process exits (start-server.ts: beforeExit).
 */
import type { SlicePace } from "../runtime/engine/run-in-slices.js";

/** What of the process this needs: its input's end and its signals (injected in the tests). */
export interface ExitingProcess {
  readonly pid: number;
  once(event: "SIGTERM" | "SIGINT", listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: "SIGTERM" | "SIGINT", listener: (signal: NodeJS.Signals) => void): unknown;
  kill(pid: number, signal: NodeJS.Signals): unknown;
}

export interface EndingInput {
  once(event: "end", listener: () => void): unknown;
  off(event: "end", listener: () => void): unknown;
}

export function finishCacheWriteOnExit(
  written: Promise<void>,
  pace: SlicePace,
  input: EndingInput = process.stdin,
  proc: ExitingProcess = process,
): void {
  const hurry = () => {
    pace.hurried = true;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    hurry();
    proc.off("SIGTERM", onSignal);
    proc.off("SIGINT", onSignal);
    void written.then(() => proc.kill(proc.pid, signal));
  };
  proc.once("SIGTERM", onSignal);
  proc.once("SIGINT", onSignal);
  input.once("end", hurry);
  void written.then(() => {
    proc.off("SIGTERM", onSignal);
    proc.off("SIGINT", onSignal);
    input.off("end", hurry);
  });
}
