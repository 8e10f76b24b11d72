/**
 * Runs stepwise work (a generator that yields between steps) with the event loop free every few
 * milliseconds: `serve` builds a huge API's search index and writes the model cache this way
 * after it starts answering, so a request that arrives meanwhile waits for one slice, not for
 * the whole build (seconds on Graph beta). The work decides where it may stop (its yields); the
 * time decides where it does.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

/** How long a slice runs before the event loop gets a turn, in milliseconds. */
export const SLICE_MS = 8;

/**
 * Whether the work may stop running in slices: set by whoever started it once nothing is left to
 * answer (the session ended), so that work that outlives the session (a first start's cache
 * write) finishes before the client's grace period does.
 */
export interface SlicePace {
  hurried: boolean;
}

/** The generator's result, its steps run in slices of about `sliceMs` until `pace` is hurried. */
export async function runInSlices<T>(
  steps: Generator<void, T, void>,
  sliceMs = SLICE_MS,
  pace?: SlicePace,
): Promise<T> {
  let started = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (pace?.hurried !== true && performance.now() - started >= sliceMs) {
      await nextTurn();
      started = performance.now();
    }
  }
}
