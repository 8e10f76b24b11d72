/** Short stable hashes that keep generated names unique and the same from run to run. */
import { createHash } from "node:crypto";

/** A short stable hash (8 hex characters) of any text. */
export function hashShort(text: string, length = 8): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}
