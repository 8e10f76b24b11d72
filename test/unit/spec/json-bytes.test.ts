/**
 * A JSON spec's bytes read as a one-byte text: the same value as the UTF-8 text parses to, for
 * every character beyond ASCII; the plain decoder for anything that is not exact UTF-8 or not
 * JSON-looking; and the text as written for flow-style YAML and for JSON errors.
 */
import { describe, expect, it } from "vitest";
import { readJsonBytesAsAscii } from "../../../src/generator/spec/json-bytes.js";
import { parseSpec } from "../../../src/generator/spec/parse-text.js";
import { BridgeError } from "../../../src/model/diagnostics.js";

const bytesOf = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))),
  );

describe("readJsonBytesAsAscii", () => {
  it.each([
    { name: "ASCII only", bytes: bytesOf('{"a": "plain", "n": [1, 2.5, null]}') },
    { name: "two-byte characters", bytes: bytesOf('{"name": "Café Zürich", "ñ": "é"}') },
    { name: "three-byte characters", bytes: bytesOf('{"quote": "“smart” — 日本語"}') },
    { name: "four-byte characters (surrogate pairs)", bytes: bytesOf('{"emoji": "ok 👍🏽 𝄞"}') },
    { name: "a byte-order mark", bytes: bytesOf([0xef, 0xbb, 0xbf], '{"é": 1}') },
    { name: "an array at the top, after white space", bytes: bytesOf('\n\t [ "ü", {"x": "€"} ]') },
    {
      name: "escapes already in the text beside raw characters",
      bytes: bytesOf('{"s": "\\u00e9 é \\" \\\\ é"}'),
    },
    { name: "U+FFFD itself, written as UTF-8", bytes: bytesOf('{"r": "\uFFFD"}') },
  ])("gives a one-byte text that parses to the same value: $name", ({ bytes }) => {
    const text = readJsonBytesAsAscii(bytes);
    expect(text).toBeDefined();
    expect([...text!].every((character) => character.charCodeAt(0) < 0x80)).toBe(true);
    const asWritten = bytes.toString("utf8").replace(/^\uFEFF/, "");
    expect(JSON.parse(text!)).toEqual(JSON.parse(asWritten));
  });

  it.each([
    { name: "YAML", bytes: bytesOf("openapi: 3.1.0\ninfo: {title: Café}\n") },
    { name: "an empty file", bytes: bytesOf("") },
    { name: "a lone continuation byte", bytes: bytesOf('{"a": "', [0x80], '"}') },
    { name: "an overlong encoding", bytes: bytesOf('{"a": "', [0xc0, 0xaf], '"}') },
    { name: "an encoded surrogate", bytes: bytesOf('{"a": "', [0xed, 0xa0, 0x80], '"}') },
    { name: "a sequence cut short by a quote", bytes: bytesOf('{"a": "', [0xe2, 0x80], '"}') },
    { name: "a sequence cut short by the end", bytes: bytesOf('{"a": "', [0xf0, 0x9f, 0x91]) },
  ])("leaves the bytes to the UTF-8 decoder: $name", ({ bytes }) => {
    expect(readJsonBytesAsAscii(bytes)).toBeUndefined();
  });
});

describe("parseSpec with the text as written", () => {
  const parseBoth = (bytes: Buffer) => {
    const asWritten = bytes.toString("utf8");
    const escaped = readJsonBytesAsAscii(bytes)!;
    expect(escaped).toBeDefined();
    const outcome = (run: () => unknown) => {
      try {
        return { value: run() };
      } catch (error) {
        return { error: error instanceof BridgeError ? error.diagnostics : String(error) };
      }
    };
    return {
      escaped: outcome(() => parseSpec(escaped, "spec.json", () => asWritten).value),
      plain: outcome(() => parseSpec(asWritten, "spec.json").value),
    };
  };

  it("reads flow-style YAML that starts like JSON as written, not escaped", () => {
    const { escaped, plain } = parseBoth(bytesOf('{openapi: 3.1.0, info: {title: Café, version: "1"}}'));
    expect(escaped).toEqual(plain);
    expect(escaped.value).toMatchObject({ info: { title: "Café" } });
  });

  it("places a JSON error as in the text as written (a character beyond ASCII before it)", () => {
    const { escaped, plain } = parseBoth(bytesOf('{\n  "title": "Café — ☕",\n  "broken": [1, 2,,]\n}'));
    expect(plain.error).toBeDefined();
    expect(escaped).toEqual(plain);
  });
});

describe("readJsonBytesAsAscii with room after the bytes", () => {
  /** `bytes` copied into memory with `room` bytes after them, filled with a marker. */
  function withRoom(bytes: Buffer, room: number): Buffer {
    const memory = Buffer.alloc(bytes.length + room, 0x7e);
    bytes.copy(memory);
    return memory.subarray(0, bytes.length);
  }

  it.each([
    bytesOf('{"name": "Café Zürich", "ñ": "é"}'),
    bytesOf('{"quote": "“smart” — 日本語", "emoji": "👍🏽𝄞"}'),
    bytesOf([0xef, 0xbb, 0xbf], '{"é": 1}'),
    bytesOf('["é"]'),
    bytesOf('{"a":"ééé","b":"', "x".repeat(5000), 'ü"}'),
  ])("escapes in place to the text a copy gives, and leaves the bytes as they were (%#)", (bytes) => {
    const copy = readJsonBytesAsAscii(bytes);
    for (const room of [0, 1, 4, 64, 1024]) {
      const inPlace = withRoom(bytes, room);
      expect(readJsonBytesAsAscii(inPlace, room)).toBe(copy);
      expect(inPlace.equals(bytes)).toBe(true);
    }
  });

  it("leaves bytes that are not exact UTF-8 untouched, whatever the room", () => {
    const bytes = bytesOf('{"a": "é', [0xc3, 0x28], '"}');
    const inPlace = withRoom(bytes, 64);
    expect(readJsonBytesAsAscii(inPlace, 64)).toBeUndefined();
    expect(inPlace.equals(bytes)).toBe(true);
  });
});
