/** A counting semaphore: at most `max` upstream calls in flight, the rest wait in order. */

/** Upstream calls in flight at once when nothing says (`--max-concurrency` cites it). */
export const DEFAULT_MAX_CONCURRENCY = 64;

export interface ConcurrencyLimit {
  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** A release function when a slot is free now, else undefined (nothing is queued). */
  tryAcquire(): (() => void) | undefined;
  readonly active: number;
  readonly waiting: number;
  readonly max: number;
}

export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  const limit = Math.max(1, Math.floor(max));
  let active = 0;
  const queue: Array<{ grant: () => void }> = [];

  const release = () => {
    const next = queue.shift();
    if (next) next.grant();
    else active--;
  };
  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  const tryAcquire = () => {
    if (active >= limit) return undefined;
    active++;
    return releaser();
  };

  return {
    tryAcquire,
    acquire(signal) {
      const now = tryAcquire();
      if (now !== undefined) return Promise.resolve(now);
      return new Promise((resolve, reject) => {
        const entry = {
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(releaser());
          },
        };
        const onAbort = () => {
          const index = queue.indexOf(entry);
          if (index !== -1) queue.splice(index, 1);
          reject(signal?.reason ?? new Error("aborted"));
        };
        if (signal?.aborted) {
          reject(signal.reason ?? new Error("aborted"));
          return;
        }
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(entry);
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    max: limit,
  };
}
