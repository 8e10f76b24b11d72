/**
 * The open MCP sessions of a sessionful HTTP bridge: clients often vanish without ending their
 * session, so a session without requests for `idleMs` is closed, and at most `max` are open.
 */
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface SessionStore {
  /** The session's transport, marked as seen now; undefined for an unknown id. */
  touch(id: string): StreamableHTTPServerTransport | undefined;
  add(id: string, transport: StreamableHTTPServerTransport): void;
  remove(id: string): void;
  isFull(): boolean;
  readonly max: number;
  /** Stops the idle sweep and closes every session. */
  close(): Promise<void>;
}

export function createSessionStore(options: { idleMs: number; max: number }): SessionStore {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - options.idleMs;
      for (const [id, seen] of lastSeen) {
        if (seen < cutoff) {
          lastSeen.delete(id);
          const idle = sessions.get(id);
          sessions.delete(id);
          void idle?.close();
        }
      }
    },
    Math.max(10, Math.min(options.idleMs, 60_000)),
  );
  sweeper.unref();
  return {
    max: options.max,
    touch: (id) => {
      const transport = sessions.get(id);
      if (transport) lastSeen.set(id, Date.now());
      return transport;
    },
    add: (id, transport) => {
      sessions.set(id, transport);
      lastSeen.set(id, Date.now());
    },
    remove: (id) => {
      sessions.delete(id);
      lastSeen.delete(id);
    },
    isFull: () => sessions.size >= options.max,
    close: async () => {
      clearInterval(sweeper);
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
    },
  };
}
