/**
 * Stepwise work (a generator that yields between steps, so that a caller may give the event loop
 * a turn: runtime/engine/run-in-slices.ts) run to its end at once, for the callers that want its
 * result now.
 */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}
