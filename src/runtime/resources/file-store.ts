/**
 * Files the API answered with (a PDF, a zip, an image too large to show), kept for a while so
 * the client can read them with `resources/read` instead of the model reading megabytes of
 * base64: a result carries a `resource_link` to `openapi-mcp-bridge://files/<id>` and a line
 * saying what the file is.
 *
 * Bounded: a file larger than FILE_STORE_LIMITS.itemBytes is not kept; per owner (an MCP
 * session, or the credential of a stateless request, results/result-store.ts: resultOwner) at
 * most ownerBytes, in all at most totalBytes, each file kept ttlMs after it was kept or last
 * read; the oldest go first. Ids are random (128 bits) and a file is read only by its owner.
 */
import { randomBytes } from "node:crypto";

/** The store's bounds (bytes of file, as the API sent them). */
export const FILE_STORE_LIMITS = {
  /** The largest file kept: more than the most the bridge reads of an answer (10 MiB). */
  itemBytes: 16 * 1024 * 1024,
  /** Bytes kept for one owner. */
  ownerBytes: 48 * 1024 * 1024,
  /** Bytes kept in all. */
  totalBytes: 128 * 1024 * 1024,
  /** How long a file stays readable after it was kept or last read. */
  ttlMs: 15 * 60 * 1000,
} as const;

/**
 * What one kept file counts for at least: its entry (id, owner, name) costs memory too, so many
 * tiny files cannot hold more than the bounds say.
 */
const ENTRY_COST_BYTES = 1024;

export type FileStoreLimits = { [K in keyof typeof FILE_STORE_LIMITS]: number };

/** The URI prefix of a kept file. */
export const FILE_URI_PREFIX = "openapi-mcp-bridge://files/";

export interface KeptFile {
  bytes: Buffer;
  mimeType: string;
  /** The file name the API gave (Content-Disposition), if any. */
  name?: string;
}

interface Entry extends KeptFile {
  id: string;
  owner: string;
  /** What the entry counts for: its bytes, at least ENTRY_COST_BYTES. */
  cost: number;
  expires: number;
}

export interface FileStore {
  /** How long a file stays readable after it was kept or last read. */
  ttlMs: number;
  /** Keeps the file; its URI, or undefined when it is larger than one file may be. */
  keep(owner: string | undefined, file: KeptFile): string | undefined;
  /** The file of a URI, if its owner reads it and it is still kept. */
  read(owner: string | undefined, uri: string): KeptFile | undefined;
}

export function createFileStore(
  limits: FileStoreLimits = FILE_STORE_LIMITS,
  now: () => number = Date.now,
): FileStore {
  // Insertion order is age order: a read moves the entry to the end.
  const entries = new Map<string, Entry>();
  let total = 0;
  const drop = (entry: Entry) => {
    entries.delete(entry.id);
    total -= entry.cost;
  };
  const sweep = () => {
    const time = now();
    for (const entry of entries.values()) if (entry.expires <= time) drop(entry);
  };
  return {
    ttlMs: limits.ttlMs,
    keep(owner = "", file) {
      sweep();
      if (file.bytes.length > limits.itemBytes) return undefined;
      const size = Math.max(file.bytes.length, ENTRY_COST_BYTES);
      if (size > limits.ownerBytes || size > limits.totalBytes) return undefined;
      let ownerTotal = size;
      for (const entry of entries.values()) if (entry.owner === owner) ownerTotal += entry.cost;
      for (const entry of [...entries.values()]) {
        if (ownerTotal <= limits.ownerBytes && total + size <= limits.totalBytes) break;
        if (entry.owner === owner) ownerTotal -= entry.cost;
        else if (total + size <= limits.totalBytes) continue;
        drop(entry);
      }
      const id = randomBytes(16).toString("base64url");
      // A copy: the answer's buffer may be a slice of a larger one the store should not pin.
      entries.set(id, {
        ...file,
        bytes: Buffer.from(file.bytes),
        id,
        owner,
        cost: size,
        expires: now() + limits.ttlMs,
      });
      total += size;
      return `${FILE_URI_PREFIX}${id}`;
    },
    read(owner = "", uri) {
      if (!uri.startsWith(FILE_URI_PREFIX)) return undefined;
      sweep();
      const id = uri.slice(FILE_URI_PREFIX.length);
      const entry = entries.get(id);
      if (entry === undefined || entry.owner !== owner) return undefined;
      entries.delete(id);
      entry.expires = now() + limits.ttlMs;
      entries.set(id, entry);
      return { bytes: entry.bytes, mimeType: entry.mimeType, ...(entry.name ? { name: entry.name } : {}) };
    },
  };
}

/** True for a URI this store hands out (its file may have expired). */
export function isFileUri(uri: string): boolean {
  return uri.startsWith(FILE_URI_PREFIX);
}

/** The process's store: every runtime of this process (one API or several) keeps files here. */
export let sharedFileStore: FileStore = createFileStore();

/**
 * Replaces the process's store (tests: a store on an injected clock). Returns the one it replaced.
 */
export function setSharedFileStore(store: FileStore): FileStore {
  const previous = sharedFileStore;
  sharedFileStore = store;
  return previous;
}
