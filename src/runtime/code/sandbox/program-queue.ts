/**
 * The programs waiting for a sandbox worker (pool.ts), and each session's share of the pool:
 *
 * - bounded: past `maxWaiting` programs of all sessions, or `maxWaitingPerSession` of one, the
 *   next one is refused at once with words that say why (a wait nobody bounds is a way to
 *   starve everyone);
 * - shared: a session runs at most `maxRunningPerSession` programs at once; the first waiting
 *   program of a session under its share starts first, so another session's program passes a
 *   flooding session's queue;
 * - a waiting program whose client cancelled, or that waited its whole wall time, leaves the
 *   queue at once (and is answered through `onDrop`), so it holds nobody up.
 *
 * Programs without a session (stdio: one client; stateless HTTP: no identity to share by) have
 * no per-session share, only the queue's bound. The clock is injected: tests drive it.
 */
import type { PoolShare } from "./limits.js";

/** Sets a timer; answers how to clear it. */
export interface QueueClock {
  schedule(ms: number, fire: () => void): () => void;
}

export interface ProgramQueueOptions extends PoolShare {
  /** How long a program may wait for a worker before it is dropped ("waited"). */
  waitMs: number;
  clock?: QueueClock;
}

/** Why a waiting program left the queue without starting. */
export type DropReason = "cancelled" | "waited";

export interface ProgramQueue<T> {
  /** Queues `job`; answers the refusal's words when the session or the queue is full. */
  add(job: T, session: string | undefined, signal?: AbortSignal): string | undefined;
  /** The first waiting job whose session may run one more: it counts as running from now. */
  take(): T | undefined;
  /** A running job of `session` ended. */
  finish(session: string | undefined): void;
  /** Empties the queue (the pool is closing): the jobs that were waiting. */
  drain(): T[];
  readonly waiting: number;
}

interface Entry<T> {
  job: T;
  session: string | undefined;
  leave(): void;
}

const REAL_CLOCK: QueueClock = {
  schedule(ms, fire) {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export function createProgramQueue<T>(
  options: ProgramQueueOptions,
  onDrop: (job: T, why: DropReason) => void,
): ProgramQueue<T> {
  const clock = options.clock ?? REAL_CLOCK;
  const maxRunningPerSession = Math.max(1, options.maxRunningPerSession);
  const entries: Entry<T>[] = [];
  const running = new Map<string, number>();
  const waitingOf = (session: string) => entries.filter((entry) => entry.session === session).length;

  const drop = (entry: Entry<T>, why: DropReason) => {
    const index = entries.indexOf(entry);
    if (index < 0) return;
    entries.splice(index, 1);
    entry.leave();
    onDrop(entry.job, why);
  };

  return {
    add(job, session, signal) {
      if (session !== undefined && waitingOf(session) >= options.maxWaitingPerSession) {
        return (
          `this session already has ${running.get(session) ?? 0} program(s) running and ` +
          `${options.maxWaitingPerSession} waiting for the sandbox, as many as one session may; ` +
          "execute again when one has ended (or cancel one)"
        );
      }
      if (entries.length >= options.maxWaiting) {
        return `${options.maxWaiting} programs are waiting for the sandbox, as many as may wait; execute again in a moment`;
      }
      const entry: Entry<T> = { job, session, leave: () => undefined };
      const onAbort = () => drop(entry, "cancelled");
      const clear = clock.schedule(options.waitMs, () => drop(entry, "waited"));
      signal?.addEventListener("abort", onAbort, { once: true });
      entry.leave = () => {
        clear();
        signal?.removeEventListener("abort", onAbort);
      };
      entries.push(entry);
      return undefined;
    },
    take() {
      const index = entries.findIndex(
        (entry) => entry.session === undefined || (running.get(entry.session) ?? 0) < maxRunningPerSession,
      );
      if (index < 0) return undefined;
      const [entry] = entries.splice(index, 1) as [Entry<T>];
      entry.leave();
      if (entry.session !== undefined) running.set(entry.session, (running.get(entry.session) ?? 0) + 1);
      return entry.job;
    },
    finish(session) {
      if (session === undefined) return;
      const count = (running.get(session) ?? 0) - 1;
      if (count > 0) running.set(session, count);
      else running.delete(session);
    },
    drain() {
      const jobs = entries.map((entry) => {
        entry.leave();
        return entry.job;
      });
      entries.length = 0;
      return jobs;
    },
    get waiting() {
      return entries.length;
    },
  };
}
