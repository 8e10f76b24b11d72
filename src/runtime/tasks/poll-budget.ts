/**
 * How long the bridge itself follows a long-running operation (a task's background polling, a
 * program's call that waits): at most `maxPolls` status reads within `maxWaitMs`; between two
 * reads the wait the API asked for (Retry-After), kept between `floorMs` and `capMs`, else
 * `intervalMs`. A model that follows an operation itself reads its status once per call.
 */
export interface PollBudget {
  maxPolls: number;
  maxWaitMs: number;
  floorMs: number;
  capMs: number;
  intervalMs: number;
}

export const DEFAULT_POLL_BUDGET: PollBudget = {
  maxPolls: 120,
  maxWaitMs: 15 * 60_000,
  // An API that says `Retry-After: 0` is still not read in a tight loop.
  floorMs: 250,
  capMs: 60_000,
  intervalMs: 2_000,
};

export function resolvePollBudget(options: Partial<PollBudget> = {}): PollBudget {
  return { ...DEFAULT_POLL_BUDGET, ...options };
}

/** The wait before the next status read: the API's Retry-After (seconds) within floor and cap. */
export function nextWaitMs(retryAfterSeconds: number | undefined, budget: PollBudget): number {
  const asked = retryAfterSeconds === undefined ? budget.intervalMs : retryAfterSeconds * 1000;
  return Math.min(budget.capMs, Math.max(budget.floorMs, asked));
}
