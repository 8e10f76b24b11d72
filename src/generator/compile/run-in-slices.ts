/**
 * Runs stepwise work (a generator that yields between steps) with the event loop free every few
 * milliseconds: `serve` writes the model cache this way after it starts answering, so a request
 * that arrives meanwhile waits for one slice, not for the whole write (seconds on Graph beta).
 */
import { setImmediate as nextTurn } from "node:timers/promises";

/** How long a slice runs before the event loop gets a turn, in milliseconds. */
export const SLICE_MS = 8;

/** The generator's result, its steps run in slices of about `sliceMs`. */
export async function runInSlices<T>(steps: Generator<void, T, void>, sliceMs = SLICE_MS): Promise<T> {
  let started = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (performance.now() - started >= sliceMs) {
      await nextTurn();
      started = performance.now();
    }
  }
}
