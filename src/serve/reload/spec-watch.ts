/**
 * When a served spec changes (`serve --watch`). A file is watched through its folder (editors
 * save by writing a new file and renaming it over the old one, which a watch on the file itself
 * would miss), events are let settle for `debounceMs`, and only new bytes count as a change
 * (a save without edits, a touch, is none). A URL is polled every `intervalMs` with
 * `If-None-Match` / `If-Modified-Since`: a 304 costs the server nothing, and a 200 with the
 * same bytes is no change either.
 *
 * Only the spec itself is watched, not the files its `$ref`s name: saving the spec after
 * editing one of those (or touching it) reloads them too.
 *
 * The watcher reads as the loader does: at most `maxBytes` (a file that grew past them, or an
 * endless answer, is a problem said, never read whole), a regular file only (not a symlink to a
 * device or a pipe), and a URL's redirects only on its own origin.
 */
import { createHash } from "node:crypto";
import { type FSWatcher, type StatWatcher, unwatchFile, watch, watchFile } from "node:fs";
import { open } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { messageOf } from "../../model/error-message.js";

export interface SpecWatchOptions {
  /** A file path, or an http(s) URL. */
  source: string;
  /** How often a URL is asked whether it changed (and a file, where the system cannot watch). */
  intervalMs: number;
  /** Bytes of the spec read at the most (the loader's `--max-spec-bytes`). */
  maxBytes: number;
  /** How long file events settle before the file is read (default 100 ms). */
  debounceMs?: number;
  /** The spec's bytes changed. */
  onChange(): void;
  /** The spec cannot be read or fetched now (said once until it can again). */
  onProblem(message: string): void;
}

export interface SpecWatch {
  close(): void;
}

export const DEFAULT_DEBOUNCE_MS = 100;

export function watchSpec(options: SpecWatchOptions): SpecWatch {
  return /^https?:\/\//i.test(options.source) ? pollUrl(options) : watchFileSource(options);
}

function fingerprint(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Says a problem once, until things work again. */
function createProblemReporter(onProblem: (message: string) => void) {
  let said: string | undefined;
  return {
    report(message: string) {
      if (said === message) return;
      said = message;
      onProblem(message);
    },
    clear() {
      said = undefined;
    },
  };
}

function watchFileSource(options: SpecWatchOptions): SpecWatch {
  const file = resolve(options.source);
  const name = basename(file);
  const problems = createProblemReporter(options.onProblem);
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let checking = Promise.resolve();

  const check = async () => {
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(file, options.maxBytes);
    } catch (error) {
      // Mid-save (the old file gone, the new one not yet there): the next event reads it.
      problems.report(`cannot read ${options.source}: ${messageOf(error)}`);
      return;
    }
    problems.clear();
    const print = fingerprint(bytes);
    if (last === undefined) {
      last = print;
      return;
    }
    if (print === last || closed) return;
    last = print;
    options.onChange();
  };
  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      checking = checking.then(check);
    }, options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    timer.unref();
  };
  checking = check();

  let watcher: FSWatcher | undefined;
  let poller: StatWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) schedule();
    });
    watcher.on("error", (error) => problems.report(`cannot watch ${options.source}: ${error.message}`));
  } catch (error) {
    // No watch to be had (no inotify room left, an unusual file system): look every interval.
    problems.report(
      `cannot watch ${options.source} (${messageOf(error)}); checking it every ${options.intervalMs} ms`,
    );
    poller = watchFile(file, { interval: options.intervalMs, persistent: false }, schedule);
  }
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
      if (poller !== undefined) unwatchFile(file, schedule);
    },
  };
}

function pollUrl(options: SpecWatchOptions): SpecWatch {
  const problems = createProblemReporter(options.onProblem);
  let etag: string | undefined;
  let modified: string | undefined;
  let last: string | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const poll = async () => {
    const headers: Record<string, string> = {};
    if (etag !== undefined) headers["if-none-match"] = etag;
    if (modified !== undefined) headers["if-modified-since"] = modified;
    try {
      const response = await fetchOnOrigin(
        options.source,
        headers,
        AbortSignal.timeout(Math.max(1000, Math.min(options.intervalMs, 30_000))),
      );
      if (response.status === 304) {
        await response.body?.cancel();
        problems.clear();
        return;
      }
      if (!response.ok) {
        await response.body?.cancel();
        problems.report(`${options.source} answered ${response.status}`);
        return;
      }
      const bytes = await readCapped(response, options.maxBytes);
      problems.clear();
      etag = response.headers.get("etag") ?? undefined;
      modified = response.headers.get("last-modified") ?? undefined;
      const print = fingerprint(bytes);
      if (last !== undefined && print !== last && !closed) {
        last = print;
        options.onChange();
      }
      last = print;
    } catch (error) {
      problems.report(`cannot fetch ${options.source}: ${messageOf(error)}`);
    }
  };
  const loop = () => {
    if (closed) return;
    timer = setTimeout(() => {
      void poll().then(loop);
    }, options.intervalMs);
    timer.unref();
  };
  void poll().then(loop);
  return {
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/** A file's bytes, when it is a regular file of at most `maxBytes`. */
async function readRegularFile(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error("it is not a regular file");
    if (stat.size > maxBytes) throw new Error(`it is larger than ${maxBytes} bytes (--max-spec-bytes)`);
    // Read one byte more than allowed: a file that grew since its stat is still caught.
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, size);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw new Error(`it is larger than ${maxBytes} bytes (--max-spec-bytes)`);
      if (size === buffer.length) break;
    }
    return buffer.subarray(0, size);
  } finally {
    await handle.close();
  }
}

/** Redirects followed on the URL's own origin only (at most five), as the loader follows them. */
async function fetchOnOrigin(
  source: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  const origin = new URL(source).origin;
  let url = source;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { headers, redirect: "manual", signal });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.origin !== origin) throw new Error(`it redirects to another origin (${next.origin})`);
    if (hop >= 5) throw new Error("it redirects more than five times");
    url = next.href;
  }
}

/** An answer's body, at most `maxBytes` of it: more is a problem, and the rest is never read. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`the answer is larger than ${maxBytes} bytes (--max-spec-bytes)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
