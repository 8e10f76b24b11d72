/**
 * What a cut result left out, kept for a while so the agent can read the rest without asking
 * the API again: an answer cut to the result budget is saved here whole, and its marker gives a
 * continuation handle (`<id>.<unit>[.<offset>]`). Reading a handle gives the next part (whole
 * items of the cut list where they fit, else the text in windows) and the handle of the part
 * after it. Nothing the API returned is lost while the answer is kept.
 *
 * Bounded: per owner (an MCP session, or everyone on a stdio or stateless connection) at most
 * RESULT_STORE_LIMITS.ownerChars characters, in all at most RESULT_STORE_LIMITS.totalChars,
 * each answer kept RESULT_STORE_LIMITS.ttlMs after its last read; the oldest go first. An
 * answer larger than a whole owner's room is not kept, and the marker says how to narrow it.
 * The ids are random (128 bits), and a handle is read only by the owner that got it.
 */
import { createHash, randomBytes } from "node:crypto";

/** The store's bounds: chars are UTF-16 code units, so memory is about twice as many bytes. */
export const RESULT_STORE_LIMITS = {
  /** Characters kept for one owner: more than the largest answer the bridge reads (10 MiB). */
  ownerChars: 12_000_000,
  /** Characters kept in all. */
  totalChars: 48_000_000,
  /** How long an answer stays readable after its last read. */
  ttlMs: 15 * 60 * 1000,
} as const;

/** A cut answer, as parts are read from it. */
export interface KeptAnswer {
  /**
   * The units of the answer in order: the JSON text of each item of the cut list, or one unit
   * (the whole text) when no list was cut.
   */
  units: string[];
  /** What the units are, for the part's header: "items of `crew`", "the answer's text". */
  label: string;
  /** True when units are JSON items (a part of whole units is shown as a JSON list). */
  items: boolean;
  /**
   * The structured copy of a part (a tool with an output schema must give one that conforms):
   * from the items shown, or undefined for a text window.
   */
  structured?: (items: unknown[] | undefined) => Record<string, unknown> | undefined;
}

interface Entry extends KeptAnswer {
  id: string;
  owner: string;
  chars: number;
  expires: number;
}

export interface Position {
  unit: number;
  offset: number;
}

export interface ResultStore {
  /** Keeps the answer; its id, or undefined when it is larger than an owner may keep. */
  keep(owner: string | undefined, answer: KeptAnswer): string | undefined;
  /** The answer of a handle, if its owner reads it and it is still kept. */
  read(owner: string | undefined, id: string): KeptAnswer | undefined;
}

export function formatHandle(id: string, position: Position): string {
  return position.offset > 0 ? `${id}.${position.unit}.${position.offset}` : `${id}.${position.unit}`;
}

export function parseHandle(handle: string): { id: string; position: Position } | undefined {
  const match = /^([A-Za-z0-9_-]{8,64})\.(\d{1,9})(?:\.(\d{1,12}))?$/.exec(handle.trim());
  if (!match) return undefined;
  return { id: match[1]!, position: { unit: Number(match[2]), offset: Number(match[3] ?? 0) } };
}

export function createResultStore(
  limits: { ownerChars: number; totalChars: number; ttlMs: number } = RESULT_STORE_LIMITS,
  now: () => number = Date.now,
): ResultStore {
  // Insertion order is age order: a read moves the entry to the end.
  const entries = new Map<string, Entry>();
  let total = 0;
  const drop = (entry: Entry) => {
    entries.delete(entry.id);
    total -= entry.chars;
  };
  const sweep = () => {
    const time = now();
    for (const entry of entries.values()) if (entry.expires <= time) drop(entry);
  };
  return {
    keep(owner = "", answer) {
      sweep();
      const chars = answer.units.reduce((sum, unit) => sum + unit.length, 0);
      if (chars > limits.ownerChars || chars > limits.totalChars) return undefined;
      let ownerTotal = chars;
      for (const entry of entries.values()) if (entry.owner === owner) ownerTotal += entry.chars;
      for (const entry of [...entries.values()]) {
        if (ownerTotal <= limits.ownerChars && total + chars <= limits.totalChars) break;
        if (entry.owner === owner) ownerTotal -= entry.chars;
        else if (total + chars <= limits.totalChars) continue;
        drop(entry);
      }
      const id = randomBytes(16).toString("base64url");
      entries.set(id, { ...answer, id, owner, chars, expires: now() + limits.ttlMs });
      total += chars;
      return id;
    },
    read(owner = "", id) {
      sweep();
      const entry = entries.get(id);
      if (entry === undefined || entry.owner !== owner) return undefined;
      entries.delete(id);
      entry.expires = now() + limits.ttlMs;
      entries.set(id, entry);
      return entry;
    },
  };
}

/**
 * Who may read what a call keeps: its MCP session; without one (stateless HTTP), the credential
 * its request carried (hashed), so one user's handle is no other's; else everyone (stdio: the
 * one client).
 */
export function resultOwner(context: {
  session?: string;
  headers?: Record<string, string | string[] | undefined>;
}): string | undefined {
  if (context.session !== undefined) return `session ${context.session}`;
  const credential = context.headers?.authorization ?? context.headers?.["x-api-key"];
  if (credential === undefined) return undefined;
  const text = Array.isArray(credential) ? credential.join("\n") : credential;
  return `credential ${createHash("sha256").update(text).digest("base64url")}`;
}

/** `{ owner }` for the options of keep and read, or nothing when everyone may read. */
export function ownerOption(context: Parameters<typeof resultOwner>[0]): { owner?: string } {
  const owner = resultOwner(context);
  return owner === undefined ? {} : { owner };
}

/** The process's store: every runtime of this process (one API or several) reads and writes it. */
export const sharedResultStore: ResultStore = createResultStore();
