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
 * exact UTF-8; undefined otherwise (decode them as UTF-8). `room`: bytes after `bytes` in their
 * memory that are this function's to write (readFileWithRoom's); with enough of it the text is
 * escaped in place and the bytes put back as they were, instead of escaped into a new buffer
 * of the document's size (whose first writes cost more than the rest of this: a fresh 47 MB
 * buffer takes about 0.3 s of page faults on the benchmark machine, moving the bytes in memory
 * already touched a few ms). `bytes` are the same when this returns, either way.
 */
export function readJsonBytesAsAscii(bytes: Buffer, room = 0): string | undefined {
  const start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
  if (!startsLikeJson(bytes, start)) return undefined;
  const beyond: number[] = [];
  for (let chunk = start; chunk < bytes.length; chunk += CHUNK_BYTES) {
    const end = Math.min(bytes.length, chunk + CHUNK_BYTES);
    if (isAscii(bytes.subarray(chunk, end))) continue;
    for (let i = chunk; i < end; i++) if (bytes[i]! >= 0x80) beyond.push(i);
  }
  if (beyond.length === 0) return bytes.toString("latin1", start, bytes.length);
  const characters = readCharacters(bytes, beyond);
  if (characters === undefined) return undefined;
  let growth = 0;
  for (const { length, escaped } of characters) growth += escaped.length - length;
  return growth <= room
    ? escapeInPlace(bytes, start, characters, growth)
    : escapeIntoCopy(bytes, start, characters, growth);
}

/** A character beyond ASCII: where its UTF-8 bytes are, how many, and its `\uXXXX` escapes. */
interface Character {
  at: number;
  length: number;
  escaped: string;
}

/** The characters that start at `beyond`'s bytes; undefined when some bytes are not exact UTF-8. */
function readCharacters(bytes: Buffer, beyond: number[]): Character[] | undefined {
  const characters: Character[] = [];
  let next = 0;
  for (const at of beyond) {
    if (at < next) continue; // a continuation byte of the character just read
    const length = sequenceLength(bytes[at]!);
    if (length === 0 || at + length > bytes.length) return undefined;
    const character = bytes.toString("utf8", at, at + length);
    // Exact UTF-8 only: a sequence the decoder would replace (overlong, a surrogate, cut short)
    // does not encode back to the same bytes.
    if (!Buffer.from(character, "utf8").equals(bytes.subarray(at, at + length))) return undefined;
    let escaped = "";
    for (let unit = 0; unit < character.length; unit++) {
      escaped += `\\u${character.charCodeAt(unit).toString(16).padStart(4, "0")}`;
    }
    characters.push({ at, length, escaped });
    next = at + length;
  }
  return characters;
}

function escapeIntoCopy(bytes: Buffer, start: number, characters: Character[], growth: number): string {
  const out = Buffer.allocUnsafe(bytes.length - start + growth);
  let written = 0;
  let copied = start;
  for (const { at, length, escaped } of characters) {
    written += bytes.copy(out, written, copied, at);
    written += out.write(escaped, written, "latin1");
    copied = at + length;
  }
  written += bytes.copy(out, written, copied, bytes.length);
  return out.toString("latin1", 0, written);
}

/**
 * Escapes in `bytes`' own memory, the text between the characters moved right from the last to
 * the first (each part to where the escapes before it end), read as text, then moved back.
 */
function escapeInPlace(bytes: Buffer, start: number, characters: Character[], growth: number): string {
  const memory = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length + growth);
  const originals = characters.map(({ at, length }) => Buffer.from(bytes.subarray(at, at + length)));
  // `shift`: how far the text after character i moves (the growth of characters 0..i).
  let shift = growth;
  for (let i = characters.length - 1; i >= 0; i--) {
    const { at, length, escaped } = characters[i]!;
    const end = i === characters.length - 1 ? bytes.length : characters[i + 1]!.at;
    memory.copyWithin(at + length + shift, at + length, end);
    shift -= escaped.length - length;
    memory.write(escaped, at + shift, "latin1");
  }
  const text = memory.toString("latin1", start, bytes.length + growth);
  // Back as they were: each part moved left again, each character's bytes written back.
  shift = 0;
  for (let i = 0; i < characters.length; i++) {
    const { at, length, escaped } = characters[i]!;
    shift += escaped.length - length;
    const end = i === characters.length - 1 ? bytes.length : characters[i + 1]!.at;
    memory.copyWithin(at + length, at + length + shift, end + shift);
    originals[i]!.copy(memory, at);
  }
  return text;
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
