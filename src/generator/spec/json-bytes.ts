/**
 * A JSON document's bytes as a text of one-byte characters: every character beyond ASCII written
 * as its `\uXXXX` escape, which JSON reads as the very same character. V8 keeps a text with no
 * such character one byte a character, and decodes and parses it faster: a real spec with a
 * handful of accented names or typographic quotes (GitHub's 13 MB: 140 bytes beyond ASCII;
 * Microsoft Graph beta's 47 MB: 473) otherwise becomes a two-byte text of twice the size, slower
 * to decode, to parse and to hand to the validation worker.
 *
 * In valid JSON a character beyond ASCII can only stand inside a string, where its escape means
 * the same; anywhere else the document is no JSON either way, and the caller parses the text as
 * written instead (parse-text.ts), for YAML and for its error's place. Bytes that are not exact
 * UTF-8 are left to the plain decoder, which replaces them as it always did.
 */
import { isAscii } from "node:buffer";

/** Bytes checked at once for any beyond ASCII: most chunks of a real spec have none. */
const CHUNK_BYTES = 16 * 1024;
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * The escaped text when `bytes` (after a byte-order mark) start like JSON (`{` or `[`) and are
 * exact UTF-8; undefined otherwise (decode them as UTF-8).
 */
export function readJsonBytesAsAscii(bytes: Buffer): string | undefined {
  const start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
  if (!startsLikeJson(bytes, start)) return undefined;
  const beyond: number[] = [];
  for (let chunk = start; chunk < bytes.length; chunk += CHUNK_BYTES) {
    const end = Math.min(bytes.length, chunk + CHUNK_BYTES);
    if (isAscii(bytes.subarray(chunk, end))) continue;
    for (let i = chunk; i < end; i++) if (bytes[i]! >= 0x80) beyond.push(i);
  }
  if (beyond.length === 0) return bytes.toString("latin1", start, bytes.length);
  // An escape is 6 bytes for each UTF-16 unit: at most 6 for each byte it replaces.
  const out = Buffer.allocUnsafe(bytes.length - start + beyond.length * 6);
  let written = 0;
  let copied = start;
  for (const at of beyond) {
    if (at < copied) continue; // a continuation byte of the character just escaped
    const length = sequenceLength(bytes[at]!);
    if (length === 0 || at + length > bytes.length) return undefined;
    const character = bytes.toString("utf8", at, at + length);
    // Exact UTF-8 only: a sequence the decoder would replace (overlong, a surrogate, cut short)
    // does not encode back to the same bytes.
    if (!Buffer.from(character, "utf8").equals(bytes.subarray(at, at + length))) return undefined;
    written += bytes.copy(out, written, copied, at);
    for (let unit = 0; unit < character.length; unit++) {
      written += out.write(
        `\\u${character.charCodeAt(unit).toString(16).padStart(4, "0")}`,
        written,
        "latin1",
      );
    }
    copied = at + length;
  }
  written += bytes.copy(out, written, copied, bytes.length);
  return out.toString("latin1", 0, written);
}

function startsLikeJson(bytes: Buffer, start: number): boolean {
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b || byte === 0x5b; // { or [
  }
  return false;
}

/** The bytes of the UTF-8 sequence a lead byte starts; 0 for a byte no sequence starts with. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}
