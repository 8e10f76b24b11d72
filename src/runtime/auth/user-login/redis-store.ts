/**
 * Users' sealed tokens in Redis, so replicas behind a load balancer serve a user who signed in
 * through any of them (`--token-store redis://[:password@]host:port[/db]`, `rediss://` for TLS).
 * A minimal RESP2 client of our own for the commands the store needs (GET, SET, SET NX PX, DEL, with
 * AUTH and SELECT once per connection): one connection, commands pipelined and answered in
 * order, a time limit on each, a cap on a reply's size, and a new connection for the next
 * command after one fails. Every failure is a TokenError that names the store (never its
 * password), so a call whose user's tokens cannot be read is answered, not crashed.
 */
import type { Socket } from "node:net";
import { TokenError } from "../oauth.js";
import type { UserTokenStore } from "./token-store.js";

/** How long one command may take, connecting included (ms). */
const COMMAND_TIMEOUT_MS = 5_000;
/** The largest reply read (a sealed token pair is well under 4 KiB). */
const MAX_REPLY_BYTES = 1024 * 1024;
/** The prefix of the store's keys, so one Redis can hold other data too. */
const KEY_PREFIX = "openapi-mcp-bridge:login:";

type Reply = string | number | null | Reply[];

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export function createRedisTokenStore(url: string): UserTokenStore {
  const target = new URL(url);
  const shown = `${target.protocol}//${target.hostname}:${target.port || "6379"}${target.pathname}`;
  const db = Number.parseInt(target.pathname.replace(/^\//, "") || "0", 10);
  const password = decodeURIComponent(target.password);
  const user = decodeURIComponent(target.username);
  let socket: Socket | undefined;
  let buffer = Buffer.alloc(0);
  const queue: Pending[] = [];

  const fail = (error: Error) => {
    for (const pending of queue.splice(0)) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    socket?.destroy();
    socket = undefined;
    buffer = Buffer.alloc(0);
  };

  const open = (): Socket => {
    const port = Number.parseInt(target.port || "6379", 10);
    // net and tls are loaded on the first connection, not with every start (most use no Redis).
    const created =
      target.protocol === "rediss:"
        ? process
            .getBuiltinModule("node:tls")
            .connect({ host: target.hostname, port, servername: target.hostname })
        : process.getBuiltinModule("node:net").connect({ host: target.hostname, port });
    created.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.byteLength > MAX_REPLY_BYTES) {
        fail(new TokenError(`the token store at ${shown} sent a reply over ${MAX_REPLY_BYTES} bytes`));
        return;
      }
      for (;;) {
        const parsed = parseReply(buffer, 0);
        if (parsed === undefined) break;
        buffer = buffer.subarray(parsed.end);
        const pending = queue.shift();
        if (pending === undefined) break;
        clearTimeout(pending.timer);
        if (parsed.error !== undefined)
          pending.reject(new TokenError(`the token store at ${shown}: ${parsed.error}`));
        else pending.resolve(parsed.value);
      }
    });
    created.on("error", (error) => fail(new TokenError(`the token store at ${shown}: ${error.message}`)));
    created.on("close", () => {
      if (socket === created) fail(new TokenError(`the token store at ${shown} closed the connection`));
    });
    return created;
  };

  const send = (args: string[]): Promise<Reply> => {
    if (socket === undefined) {
      socket = open();
      // AUTH and SELECT first: their replies are queued ahead of the command's.
      if (password !== "")
        void send(user !== "" ? ["AUTH", user, password] : ["AUTH", password]).catch(() => {});
      if (db !== 0) void send(["SELECT", String(db)]).catch(() => {});
    }
    const connection = socket;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(
          new TokenError(`the token store at ${shown} did not answer within ${COMMAND_TIMEOUT_MS / 1000} s`),
        );
      }, COMMAND_TIMEOUT_MS);
      timer.unref();
      queue.push({ resolve, reject, timer });
      connection.write(encodeCommand(args));
    });
  };

  return {
    async get(key) {
      const reply = await send(["GET", KEY_PREFIX + key]);
      return typeof reply === "string" ? reply : undefined;
    },
    async set(key, value) {
      await send(["SET", KEY_PREFIX + key, value]);
    },
    async delete(key) {
      await send(["DEL", KEY_PREFIX + key]);
    },
    async claim(key, ttlMs) {
      // Set only if absent, with its expiry, in one command: two replicas claiming the same
      // number at once get one "OK" between them.
      const lapse = String(Math.max(1, Math.ceil(ttlMs)));
      return (await send(["SET", `${KEY_PREFIX}once:${key}`, "1", "NX", "PX", lapse])) === "OK";
    },
    async close() {
      const closing = socket;
      socket = undefined;
      closing?.end();
    },
  };
}

/** A command as a RESP array of bulk strings. */
export function encodeCommand(args: string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const arg of args) parts.push(`$${Buffer.byteLength(arg, "utf8")}\r\n${arg}\r\n`);
  return Buffer.from(parts.join(""), "utf8");
}

/**
 * One RESP2 reply from `buffer` at `start`: its value (or the error it is) and where it ends;
 * undefined while it is not all there yet.
 */
export function parseReply(
  buffer: Buffer,
  start: number,
): { value: Reply; error?: string; end: number } | undefined {
  const lineEnd = buffer.indexOf("\r\n", start);
  if (lineEnd === -1) return undefined;
  const type = String.fromCharCode(buffer[start] ?? 0);
  const line = buffer.toString("utf8", start + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case "+":
      return { value: line, end: next };
    case "-":
      return { value: null, error: line, end: next };
    case ":":
      return { value: Number.parseInt(line, 10), end: next };
    case "$": {
      const length = Number.parseInt(line, 10);
      if (length < 0) return { value: null, end: next };
      if (buffer.byteLength < next + length + 2) return undefined;
      return { value: buffer.toString("utf8", next, next + length), end: next + length + 2 };
    }
    case "*": {
      const count = Number.parseInt(line, 10);
      if (count < 0) return { value: null, end: next };
      const items: Reply[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (item === undefined) return undefined;
        items.push(item.value);
        at = item.end;
      }
      return { value: items, end: at };
    }
    default:
      return {
        value: null,
        error: `a reply that is not RESP (${JSON.stringify(type)})`,
        end: buffer.byteLength,
      };
  }
}
