/**
 * Where each user's API tokens are kept between calls: opaque sealed strings (sealed-box.ts)
 * under keys that are digests, so the store holds neither a token nor a user's name in the
 * clear. One replica keeps them in memory (bounded: the oldest entry leaves first); replicas
 * that must share them use Redis (redis-store.ts).
 */

export interface UserTokenStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Marks `key` used for `ttlMs`: true the first time, false while the mark lasts. What makes a
   * one-time number (a sign-in link's, a confirmation's) one-time on every replica that shares
   * the store, not only in the process that saw it first.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Entries a memory store keeps (users × schemes); past it the least recently written leaves. */
export const DEFAULT_MAX_STORED_LOGINS = 10_000;

export function createMemoryTokenStore(max = DEFAULT_MAX_STORED_LOGINS): UserTokenStore {
  const entries = new Map<string, string>();
  // Marks with when they lapse, oldest first (each lasts as long as what it marks could be used).
  const marks = new Map<string, number>();
  return {
    get: async (key) => entries.get(key),
    async set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
    delete: async (key) => {
      entries.delete(key);
    },
    async claim(key, ttlMs) {
      const at = Date.now();
      for (const [marked, lapses] of marks) {
        if (lapses > at && marks.size <= max) break;
        marks.delete(marked);
      }
      const lapses = marks.get(key);
      if (lapses !== undefined && lapses > at) return false;
      marks.set(key, at + ttlMs);
      return true;
    },
    close: async () => {
      entries.clear();
      marks.clear();
    },
  };
}
