/**
 * The open MCP sessions of a sessionful HTTP bridge. Clients often vanish without ending their
 * session, and anyone who reaches the port can open sessions without using them, so:
 * - a session whose client never came back after `initialize` (no second request within
 *   `handshakeMs`) is closed early;
 * - a session without requests for `idleMs` is closed (one with a request or a stream open is not);
 * - at most `max` are open; when a new one needs room, the oldest session that never came back
 *   goes first, then the least recently used one idle for a minute or more. Only when every
 *   session is in use is a new one refused (503).
 * A thousand `initialize` requests therefore cannot lock real clients out.
 */
import type { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from "@modelcontextprotocol/node";

export interface SessionStoreOptions {
  /** A session without requests for this long is closed. */
  idleMs: number;
  /** Sessions open at once. */
  max: number;
  /** A session that sent nothing after `initialize` for this long is closed (default 30 s). */
  handshakeMs?: number;
  now?: () => number;
}

export interface SessionStore {
  /** The session's transport, marked as seen now (its handshake done); undefined for an unknown id. */
  touch(id: string): StreamableHTTPServerTransport | undefined;
  /** `owner`: who opened it (the OAuth front door's token subject); its other requests must be theirs. */
  add(id: string, transport: StreamableHTTPServerTransport, owner?: string): void;
  /** Who opened the session, when the front door said. */
  ownerOf(id: string): string | undefined;
  remove(id: string): void;
  /** A request or stream of the session is open until the returned function is called. */
  hold(id: string): () => void;
  /** Room for one more session, closing an abandoned or long-idle one if need be; false when full. */
  makeRoom(): boolean;
  readonly size: number;
  readonly max: number;
  /** Stops the sweep and closes every session. */
  close(): Promise<void>;
}

/** Under pressure, a session idle this long may be closed for a new one. */
const EVICTABLE_IDLE_MS = 60_000;
const DEFAULT_HANDSHAKE_MS = 30_000;

interface Entry {
  transport: StreamableHTTPServerTransport;
  opened: number;
  lastSeen: number;
  /** True once the client sent a request after initialize. */
  established: boolean;
  /** Requests and streams open now. */
  open: number;
  owner?: string;
}

export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? Date.now;
  const handshakeMs = options.handshakeMs ?? Math.min(DEFAULT_HANDSHAKE_MS, options.idleMs);
  const sessions = new Map<string, Entry>();

  const evict = (id: string) => {
    const entry = sessions.get(id);
    sessions.delete(id);
    void entry?.transport.close();
  };
  const sweep = () => {
    const time = now();
    for (const [id, entry] of sessions) {
      if (entry.open > 0) continue;
      const abandoned = !entry.established && time - entry.opened >= handshakeMs;
      if (abandoned || time - entry.lastSeen >= options.idleMs) evict(id);
    }
  };
  const sweeper = setInterval(sweep, Math.max(10, Math.min(handshakeMs, options.idleMs, 60_000) / 2));
  sweeper.unref();

  return {
    max: options.max,
    get size() {
      return sessions.size;
    },
    touch: (id) => {
      const entry = sessions.get(id);
      if (!entry) return undefined;
      entry.lastSeen = now();
      entry.established = true;
      return entry.transport;
    },
    add: (id, transport, owner) => {
      const time = now();
      const entry: Entry = { transport, opened: time, lastSeen: time, established: false, open: 0 };
      if (owner !== undefined) entry.owner = owner;
      sessions.set(id, entry);
    },
    ownerOf: (id) => sessions.get(id)?.owner,
    remove: (id) => {
      sessions.delete(id);
    },
    hold: (id) => {
      const entry = sessions.get(id);
      if (!entry) return () => {};
      entry.open++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        entry.open--;
        entry.lastSeen = now();
      };
    },
    makeRoom: () => {
      if (sessions.size < options.max) return true;
      sweep();
      if (sessions.size < options.max) return true;
      const time = now();
      let abandoned: [string, Entry] | undefined;
      let idle: [string, Entry] | undefined;
      for (const pair of sessions) {
        const [, entry] = pair;
        if (entry.open > 0) continue;
        if (!entry.established) {
          if (!abandoned || entry.opened < abandoned[1].opened) abandoned = pair;
        } else if (
          time - entry.lastSeen >= EVICTABLE_IDLE_MS &&
          (!idle || entry.lastSeen < idle[1].lastSeen)
        ) {
          idle = pair;
        }
      }
      const victim = abandoned ?? idle;
      if (!victim) return false;
      evict(victim[0]);
      return true;
    },
    close: async () => {
      clearInterval(sweeper);
      for (const entry of sessions.values()) await entry.transport.close();
      sessions.clear();
    },
  };
}
