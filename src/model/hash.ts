/** Short stable hashes that keep generated names unique and the same from run to run. */
import * as crypto from "node:crypto";

/**
 * `crypto.hash` (Node 20.12 and later) hashes in one call, without a Hash object: several
 * times cheaper for the short texts hashed here by the thousand (a contract digest for each
 * tool of a tools/list). createHash where it is missing.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "hex")
    : (text) => crypto.createHash("sha256").update(text).digest("hex");

/** A short stable hash (8 hex characters) of any text. */
export function hashShort(text: string, length = 8): string {
  return sha256Hex(text).slice(0, length);
}
