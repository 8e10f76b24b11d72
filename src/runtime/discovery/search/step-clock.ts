/**
 * When a stepwise index build gives the event loop back: once it has worked STEP_MS since it last
 * resumed. A fixed count of operations per step (a thousand, before) held the loop for up to
 * half a second on a loaded machine while Graph beta's index built; what another request waits
 * for is time, so time is what a step is measured in. The clock is read every CHECK_EVERY
 * operations only: reading it costs more than indexing one operation.
 */
export const STEP_MS = 8;
const CHECK_EVERY = 32;

export interface StepClock {
  /** True when the step has run its time: yield now. */
  due(): boolean;
  /** Called when the build resumes after a yield: a new step starts. */
  resumed(): void;
}

export function createStepClock(now: () => number = () => performance.now(), budgetMs = STEP_MS): StepClock {
  let start = now();
  let calls = 0;
  return {
    due() {
      calls += 1;
      return calls % CHECK_EVERY === 0 && now() - start >= budgetMs;
    },
    resumed() {
      start = now();
      calls = 0;
    },
  };
}
