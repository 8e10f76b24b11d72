/**
 * The state a confirmation carries between the two rounds of a 2026-07-28 tools/call (the
 * input-required result that asks, and the retry that answers): which tool, a digest of the
 * arguments the user was asked about, a one-time number and an expiry, signed with HMAC-SHA256.
 * The state round-trips through the client, so it is checked before it is believed: a state that
 * was altered, has expired, was asked for other arguments or another tool, or was already used
 * once (in this process, or on a replica sharing the marks' store), confirms nothing.
 *
 * The signing is node:crypto's, not the SDK's createRequestStateCodec: that codec lives in the
 * server package's index module beside its HTTP handler (createMcpHandler), so importing it made
 * every stdio start load the HTTP side. The state is opaque to the client; only this file reads it.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { ServerContext } from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";
import type { JsonValue } from "../../model/types.js";
import { createMemoryTokenStore, type UserTokenStore } from "../auth/user-login/token-store.js";
import { canonicalJson } from "./canonical.js";

/**
 * How long an asked confirmation can be answered, in seconds: the user reads the question and
 * decides, so minutes, not the seconds a protocol timeout allows.
 */
export const CONFIRM_STATE_TTL_SECONDS = 600;

/** What a minted state says: the call it was asked for, and its one-time number. */
export interface ConfirmPayload {
  /** The tool called (as the client named it). */
  tool: string;
  /** sha256 of the arguments' canonical JSON (full length: a collision would confirm other arguments). */
  args: string;
  /** One-time number: an answered state confirms one call. */
  nonce: string;
  /**
   * sha256 of the caller's subject when the OAuth front door verified one: the user who was
   * asked is the only one whose retry the answer confirms. Absent for calls without a caller.
   */
  who?: string;
}

/** A state as the verify hook hands it on: its payload, or why it confirms nothing. */
export type VerifiedState = { payload: ConfirmPayload } | { refused: StateRefusal };

/** Why a state was not believed (the codec's reasons, named). */
export type StateRefusal = "altered" | "expired" | "malformed";

export interface ConfirmStates {
  /** Signs the state of a confirmation asked for `tool` with `args` (of `subject`, if known). */
  mint(tool: string, args: unknown, subject?: string): Promise<string>;
  /**
   * Checks an echoed state (ServerOptions.requestState.verify): never throws, so a bad state
   * reaches the call, which refuses it in words the model can act on and writes the audit line.
   */
  verify(state: string, ctx: ServerContext): Promise<VerifiedState>;
  /**
   * Uses an answered state up: true the first time, false when a call already ran with it (a
   * replay of the same answer) in this process, or on any replica sharing the marks' store.
   * Rejects when a shared store cannot be asked (the call is then refused, never run twice).
   */
  spend(payload: ConfirmPayload): Promise<boolean>;
}

export interface ConfirmStateOptions {
  /** The HMAC key (at least 32 bytes); default: random, for this process only. */
  key?: string | Uint8Array;
  ttlSeconds?: number;
  /**
   * Where used one-time numbers are marked (auth/user-login/token-store.ts): the store replicas
   * share (`--token-store redis://…`) makes a replayed answer refused on every replica; default:
   * this process's memory.
   */
  marks?: Pick<UserTokenStore, "claim">;
}

/**
 * Confirmation states signed with `key`. Replicas behind a load balancer must share the key
 * (`--confirm-key`): the retry may reach another replica than the question came from. A
 * replay is caught where the used numbers are marked: this process, or every replica that
 * shares the marks' store.
 */
export function createConfirmStates(options: ConfirmStateOptions = {}): ConfirmStates {
  const ttlSeconds = options.ttlSeconds ?? CONFIRM_STATE_TTL_SECONDS;
  const codec = createStateCodec(options.key ?? randomBytes(32), ttlSeconds);
  // A number's mark lasts as long as its state could be used (after that the codec refuses it).
  const marks = options.marks ?? createMemoryTokenStore();
  return {
    mint: async (tool, args, subject) =>
      codec.seal({
        tool,
        args: digestArguments(args),
        nonce: randomUUID(),
        ...(subject !== undefined ? { who: digestSubject(subject) } : {}),
      }),
    async verify(state, _ctx) {
      const opened = codec.open(state);
      if ("refused" in opened) return opened;
      return isPayload(opened.payload) ? { payload: opened.payload } : { refused: "malformed" };
    },
    spend: (payload) => marks.claim(`confirm:${payload.nonce}`, ttlSeconds * 1000),
  };
}

/** Marks the states this file mints (a version, so a later format can refuse old ones by name). */
const STATE_PREFIX = "c1.";
/** The shortest HMAC key accepted, in bytes (a shorter one is guessable offline). */
export const MIN_CONFIRM_KEY_BYTES = 32;

interface StateCodec {
  seal(payload: ConfirmPayload): string;
  open(state: string): { payload: unknown } | { refused: StateRefusal };
}

/**
 * `c1.<base64url JSON {p, exp}>.<base64url HMAC-SHA256 of what precedes the last dot>`: the
 * MAC is checked (in constant time) before the body is parsed, then the expiry.
 */
function createStateCodec(key: string | Uint8Array, ttlSeconds: number): StateCodec {
  const keyBytes = typeof key === "string" ? Buffer.from(key, "utf8") : Buffer.from(key);
  if (keyBytes.byteLength < MIN_CONFIRM_KEY_BYTES)
    throw new RangeError(`the confirmation key must be at least ${MIN_CONFIRM_KEY_BYTES} bytes`);
  const mac = (text: string) => createHmac("sha256", keyBytes).update(text, "utf8").digest();
  return {
    seal(payload) {
      const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
      const signed = `${STATE_PREFIX}${Buffer.from(JSON.stringify({ p: payload, exp }), "utf8").toString("base64url")}`;
      return `${signed}.${mac(signed).toString("base64url")}`;
    },
    open(state) {
      const dot = state.lastIndexOf(".");
      if (!state.startsWith(STATE_PREFIX) || dot <= STATE_PREFIX.length) return { refused: "malformed" };
      const signed = state.slice(0, dot);
      const given = Buffer.from(state.slice(dot + 1), "base64url");
      const expected = mac(signed);
      if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected))
        return { refused: "altered" };
      let envelope: unknown;
      try {
        envelope = JSON.parse(Buffer.from(signed.slice(STATE_PREFIX.length), "base64url").toString("utf8"));
      } catch {
        return { refused: "malformed" };
      }
      if (!isRecord(envelope) || typeof envelope["exp"] !== "number") return { refused: "malformed" };
      if (envelope["exp"] < Math.floor(Date.now() / 1000)) return { refused: "expired" };
      return { payload: envelope["p"] };
    },
  };
}

let processStates: ConfirmStates | undefined;

/** The states of this process with its random key, for servers given none (stdio, the library). */
export function getProcessConfirmStates(): ConfirmStates {
  processStates ??= createConfirmStates();
  return processStates;
}

/** The digest a state binds: sha256 of the arguments' canonical JSON (key order does not matter). */
export function digestArguments(args: unknown): string {
  const text = canonicalJson((args ?? {}) as JsonValue);
  return `sha256:${createHash("sha256").update(text).digest("base64url")}`;
}

/** The digest a state binds for the caller it asked (the subject itself stays out of the state). */
export function digestSubject(subject: string): string {
  return `sha256:${createHash("sha256").update(subject, "utf8").digest("base64url")}`;
}

function isPayload(value: unknown): value is ConfirmPayload {
  return (
    isRecord(value) &&
    typeof value["tool"] === "string" &&
    typeof value["args"] === "string" &&
    typeof value["nonce"] === "string" &&
    (value["who"] === undefined || typeof value["who"] === "string")
  );
}
