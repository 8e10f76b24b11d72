/**
 * How much a spec may make the bridge read, and from where: every document (the spec, each file
 * or URL a `$ref` names) is read with a byte cap of its own and from one budget for all of them,
 * so `$ref: /dev/zero`, a 10 GB file or an endless HTTP answer end with a diagnostic instead of
 * filling memory. A file `$ref` may only name a regular file (not a device, FIFO, socket or
 * directory) inside the spec's own folder tree or a folder the operator named, judged after
 * resolving symlinks: a spec cannot read `/etc/hostname` or `../../secret/creds.yaml` into tool
 * descriptions.
 */
import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import * as path from "node:path";
import { formatBytes } from "../../model/format-bytes.js";

const MIB = 1024 * 1024;
/** Bytes read from any one document by default: the largest real specs are a few tens of MB. */
export const DEFAULT_MAX_FILE_BYTES = 128 * MIB;
/** Bytes read from all documents of one spec together by default. */
export const DEFAULT_MAX_TOTAL_BYTES = 256 * MIB;

/**
 * Bytes after a spec file's own that json-bytes.ts may write: escaping a character beyond ASCII
 * adds at most 2 bytes for each of its bytes, so this escapes up to 32,768 such bytes in place
 * (GitHub's spec has 140, Microsoft Graph beta's 473); a spec with more is escaped into a copy.
 */
export const ESCAPE_ROOM = 64 * 1024;

/** A spec file's bytes as readFileWithRoom read them, for the loader to take instead of reading again. */
export interface FileBytes {
  /** The absolute path they were read from. */
  location: string;
  bytes: Buffer;
  room: number;
}

/** The caps of one load and what was read so far (shared by every document of the load). */
export interface ReadBudget {
  maxFileBytes: number;
  maxTotalBytes: number;
  used: number;
}

/** A budget; without a total, all documents together may read twice the per-document cap, at least the default. */
export function createReadBudget(maxFileBytes?: number, maxTotalBytes?: number): ReadBudget {
  const perFile = maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  return {
    maxFileBytes: perFile,
    maxTotalBytes: maxTotalBytes ?? Math.max(DEFAULT_MAX_TOTAL_BYTES, 2 * perFile),
    used: 0,
  };
}

/** Why a document was not read; `message` completes "cannot read X: ...". */
export class ReadRefusal extends Error {
  constructor(
    readonly reason: "too-large" | "not-regular",
    message: string,
  ) {
    super(message);
    this.name = "ReadRefusal";
  }
}

/** The most this document may add: its own cap, or what is left of the budget when less. */
function allowance(budget: ReadBudget): { limit: number; total: boolean } {
  const left = budget.maxTotalBytes - budget.used;
  return left < budget.maxFileBytes
    ? { limit: left, total: true }
    : { limit: budget.maxFileBytes, total: false };
}

function tooLarge(budget: ReadBudget, total: boolean): ReadRefusal {
  return new ReadRefusal(
    "too-large",
    total
      ? `the spec and the documents its $refs name are larger than ${formatBytes(budget.maxTotalBytes)} together`
      : `it is larger than ${formatBytes(budget.maxFileBytes)}`,
  );
}

/** Collects chunks up to the allowance; throws ReadRefusal("too-large") past it. */
export function createCollector(budget: ReadBudget): {
  add(chunk: Uint8Array): void;
  done(): Buffer;
} {
  const { limit, total } = allowance(budget);
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk) {
      size += chunk.byteLength;
      if (size > limit) throw tooLarge(budget, total);
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    },
    done() {
      budget.used += size;
      // One chunk (a file read whole) is returned as it is, not copied.
      return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    },
  };
}

/**
 * Reads a file within the budget. With `regularOnly` (files named by `$ref`s), anything but a
 * regular file is refused before a byte is read: the file is opened non-blocking (a FIFO does
 * not wait for a writer) and checked with fstat on the same descriptor. The spec file itself
 * may be a pipe (`serve <(curl ...)`, `/dev/stdin`): it is read, within the cap.
 */
export async function readFileWithin(
  location: string,
  budget: ReadBudget,
  options: { regularOnly: boolean },
): Promise<Buffer> {
  return (await readFileWithRoom(location, budget, { ...options, room: 0 })).bytes;
}

/**
 * readFileWithin, the bytes of a regular file read whole into a buffer with `room` more bytes
 * after them that are the caller's to write (json-bytes.ts escapes a spec's few characters
 * beyond ASCII in place there); `room` is 0 when the bytes came otherwise (a pipe, a file that
 * grew).
 */
export async function readFileWithRoom(
  location: string,
  budget: ReadBudget,
  options: { regularOnly: boolean; room: number },
): Promise<{ bytes: Buffer; room: number }> {
  const flags = options.regularOnly ? constants.O_RDONLY | constants.O_NONBLOCK : constants.O_RDONLY;
  const handle = await open(location, flags);
  try {
    const info = await handle.stat();
    if (options.regularOnly && !info.isFile()) {
      throw new ReadRefusal("not-regular", `it is not a regular file (${describeKind(info)})`);
    }
    if (info.isDirectory()) throw Object.assign(new Error("it is a directory"), { code: "EISDIR" });
    return await readHandle(handle, budget, info.isFile() ? info.size : 0, options.room);
  } finally {
    await handle.close();
  }
}

/**
 * The file's bytes. A regular file's size is known: its bytes are read into one buffer of that
 * size (a 47 MB spec was read in 256 KB chunks, each copied, then copied again into one buffer:
 * a few hundred ms of a huge spec's start). What a file holds beyond its size (it grew, or it
 * is not what fstat says, as some of /proc) is read on in chunks, under the same cap.
 */
async function readHandle(
  handle: FileHandle,
  budget: ReadBudget,
  size: number,
  room: number,
): Promise<{ bytes: Buffer; room: number }> {
  const collector = createCollector(budget);
  // The room after the bytes, while they are the one buffer read whole.
  let roomAfter = 0;
  if (size > 0 && size <= allowance(budget).limit) {
    // Buffer.allocUnsafe gives a buffer of more than 4 KB memory of its own (smaller ones share
    // a pool): only then is the room after the bytes the caller's.
    const withRoom = room > 0 && size + room > Buffer.poolSize >>> 1;
    const whole = Buffer.allocUnsafe(withRoom ? size + room : size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(whole, filled, size - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    collector.add(whole.subarray(0, filled));
    roomAfter = withRoom ? whole.length - filled : 0;
    if (filled < size) return { bytes: collector.done(), room: roomAfter };
  }
  const buffer = Buffer.alloc(256 * 1024);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return { bytes: collector.done(), room: roomAfter };
    // More than fstat said: the chunks are joined into a new buffer, with no room after it.
    roomAfter = 0;
    collector.add(Buffer.from(buffer.subarray(0, bytesRead)));
  }
}

function describeKind(info: {
  isDirectory(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
}): string {
  if (info.isDirectory()) return "a directory";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  return "not a file";
}

/**
 * The folders file `$ref`s may read from, symlinks resolved: the spec's own folder, then the
 * extra ones given (relative to the current directory). A folder that does not exist is kept
 * as given (nothing can be inside it).
 */
export async function resolveRefRoots(specLocation: string, extra: readonly string[]): Promise<string[]> {
  const folders = [path.dirname(specLocation), ...extra.map((folder) => path.resolve(folder))];
  return Promise.all(folders.map((folder) => realpath(folder).catch(() => folder)));
}

/**
 * Where a file `$ref` really leads (symlinks resolved), and whether that is inside one of the
 * roots. A file that does not exist is judged by its path as written (the read then reports it
 * missing).
 */
export async function locateInRoots(
  location: string,
  roots: readonly string[],
): Promise<{ real: string; inside: boolean }> {
  const real = await realpath(location).catch(async () => {
    // A missing file: judge its folder, resolved, so that a symlinked folder cannot hide where it is.
    const folder = await realpath(path.dirname(location)).catch(() => path.dirname(location));
    return path.join(folder, path.basename(location));
  });
  return { real, inside: roots.some((root) => isInside(real, root)) };
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  if (relative === "") return true;
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
