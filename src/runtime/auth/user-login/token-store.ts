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
  close(): Promise<void>;
}

/** Entries a memory store keeps (users × schemes); past it the least recently written leaves. */
export const DEFAULT_MAX_STORED_LOGINS = 10_000;

export function createMemoryTokenStore(max = DEFAULT_MAX_STORED_LOGINS): UserTokenStore {
  const entries = new Map<string, string>();
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
    close: async () => {
      entries.clear();
    },
  };
}
