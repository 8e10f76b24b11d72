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
 */
import { createHash } from "node:crypto";
import { type FSWatcher, type StatWatcher, unwatchFile, watch, watchFile } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { messageOf } from "../../model/error-message.js";

export interface SpecWatchOptions {
  /** A file path, or an http(s) URL. */
  source: string;
  /** How often a URL is asked whether it changed (and a file, where the system cannot watch). */
  intervalMs: number;
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
      bytes = await readFile(file);
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
      const response = await fetch(options.source, {
        headers,
        redirect: "follow",
        signal: AbortSignal.timeout(Math.max(1000, Math.min(options.intervalMs, 30_000))),
      });
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
      const bytes = new Uint8Array(await response.arrayBuffer());
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
