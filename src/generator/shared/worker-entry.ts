/**
 * Whether a worker thread's entry file exists. Workers run compiled code only (dist/): run
 * from source (the tests, `tsx`), their `.js` entry is not there and callers do the work in
 * the calling thread instead. Answered once per file.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new Map<string, boolean>();

export function hasWorkerEntry(url: URL): boolean {
  let found = built.get(url.href);
  if (found === undefined) {
    found = existsSync(fileURLToPath(url));
    built.set(url.href, found);
  }
  return found;
}
