/**
 * Keeps a cache folder bounded: the model cache and the code cache both drop their oldest
 * entries (by modification time) beyond a fixed count once they write a new one. Any problem
 * (an entry already gone, another process pruning at the same time) is ignored: a pruned entry
 * is only a cache miss.
 */
import { readdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/** Removes the oldest files of `dir` whose names end with `suffix`, keeping `keep` of them. */
export function pruneOldestFiles(dir: string, suffix: string, keep: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(suffix));
  } catch {
    return [];
  }
  if (names.length <= keep) return [];
  const entries = names.map((name) => ({ name, time: modifiedAt(join(dir, name)) }));
  entries.sort((a, b) => a.time - b.time || (a.name < b.name ? -1 : 1));
  const removed: string[] = [];
  for (const entry of entries.slice(0, entries.length - keep)) {
    try {
      unlinkSync(join(dir, entry.name));
      removed.push(entry.name);
    } catch {
      // gone already
    }
  }
  return removed;
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
