/**
 * This process's stores by where they are (`memory` or a `redis://` URL), one each: a hot
 * reload's new runtime, every API of a bridge and the confirmation rounds of the HTTP endpoint
 * share one connection and one set of marks.
 */
import { createRedisTokenStore } from "./redis-store.js";
import { createMemoryTokenStore, type UserTokenStore } from "./token-store.js";

const processTokenStores = new Map<string, UserTokenStore>();

export function openTokenStore(where: string): UserTokenStore {
  let store = processTokenStores.get(where);
  if (store === undefined) {
    store = where === "memory" ? createMemoryTokenStore() : createRedisTokenStore(where);
    processTokenStores.set(where, store);
  }
  return store;
}
