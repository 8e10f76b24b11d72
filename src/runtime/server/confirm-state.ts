/**
 * The state a confirmation carries between the two rounds of a 2026-07-28 tools/call (the
 * input-required result that asks, and the retry that answers): which tool, a digest of the
 * arguments the user was asked about, a one-time number and an expiry, signed with the SDK's
 * HMAC codec (createRequestStateCodec). The state round-trips through the client, so it is
 * checked before it is believed: a state that was altered, has expired, was asked for other
 * arguments or another tool, or was already used once in this process, confirms nothing.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";
import type { JsonValue } from "../../model/types.js";
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
}

/** A state as the verify hook hands it on: its payload, or why it confirms nothing. */
export type VerifiedState = { payload: ConfirmPayload } | { refused: StateRefusal };

/** Why a state was not believed (the codec's reasons, named). */
export type StateRefusal = "altered" | "expired" | "malformed";

export interface ConfirmStates {
  /** Signs the state of a confirmation asked for `tool` with `args`. */
  mint(tool: string, args: unknown): Promise<string>;
  /**
   * Checks an echoed state (ServerOptions.requestState.verify): never throws, so a bad state
   * reaches the call, which refuses it in words the model can act on and writes the audit line.
   */
  verify(state: string, ctx: ServerContext): Promise<VerifiedState>;
  /**
   * Uses an answered state up: true the first time, false when this process already ran a call
   * with it (a replay of the same answer).
   */
  spend(payload: ConfirmPayload): boolean;
}

export interface ConfirmStateOptions {
  /** The HMAC key (at least 32 bytes); default: random, for this process only. */
  key?: string | Uint8Array;
  ttlSeconds?: number;
}

/**
 * Confirmation states signed with `key`. Replicas behind a load balancer must share the key
 * (`--confirm-key`): the retry may reach another replica than the question came from. A
 * replay is caught per process only: the spent numbers are not shared between replicas.
 */
export function createConfirmStates(options: ConfirmStateOptions = {}): ConfirmStates {
  const ttlSeconds = options.ttlSeconds ?? CONFIRM_STATE_TTL_SECONDS;
  const codec: RequestStateCodec<ConfirmPayload> = createRequestStateCodec<ConfirmPayload>({
    key: options.key ?? randomBytes(32),
    ttlSeconds,
  });
  // One-time numbers already used, with when they expire (after that the codec refuses them anyway).
  const spent = new Map<string, number>();
  return {
    mint: (tool, args) => codec.mint({ tool, args: digestArguments(args), nonce: randomUUID() }),
    async verify(state, ctx) {
      try {
        const payload = await codec.verify(state, ctx);
        return isPayload(payload) ? { payload } : { refused: "malformed" };
      } catch (error) {
        const reason = error instanceof Error ? error.message : "";
        return { refused: reason === "expired" ? "expired" : reason === "mac" ? "altered" : "malformed" };
      }
    },
    spend(payload) {
      const at = Date.now();
      for (const [nonce, expires] of spent) if (expires < at) spent.delete(nonce);
      if (spent.has(payload.nonce)) return false;
      spent.set(payload.nonce, at + ttlSeconds * 1000);
      return true;
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

function isPayload(value: unknown): value is ConfirmPayload {
  return (
    isRecord(value) &&
    typeof value["tool"] === "string" &&
    typeof value["args"] === "string" &&
    typeof value["nonce"] === "string"
  );
}
