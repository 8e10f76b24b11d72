/** JSON text without whitespace between tokens: strings and numbers exactly as written. */
import { describe, expect, it } from "vitest";
import { compactJsonText } from "../../../../src/runtime/results/body-text.js";

describe("compactJsonText", () => {
  it.each([
    ["indented object", '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}', '{"a":1,"b":[true,null]}'],
    ["already compact", '{"a":1}', '{"a":1}'],
    ["spaces inside strings kept", '{ "name" : "Ada  Lovelace\\n" }', '{"name":"Ada  Lovelace\\n"}'],
    [
      "escaped quotes and backslashes",
      '[ "say \\"hi\\" ", "C:\\\\ dir\\\\" ]',
      '["say \\"hi\\" ","C:\\\\ dir\\\\"]',
    ],
    [
      "numbers as written",
      '{ "id": 12345678901234567890, "x": 1.50 }',
      '{"id":12345678901234567890,"x":1.50}',
    ],
    ["tabs and CRLF", "[\r\n\t1,\r\n\t2\r\n]", "[1,2]"],
    // Compact already, spaces only inside strings (kept as they are, without a replacement).
    ["compact with spaces in strings", '{"a":"x y","b":["say \\" hi"]}', '{"a":"x y","b":["say \\" hi"]}'],
    ["a space after an escaped backslash", '["a\\\\", 1]', '["a\\\\",1]'],
    ["a bare string", '  "a b"  ', '"a b"'],
  ])("%s", (_label, text, want) => {
    expect(compactJsonText(text)).toBe(want);
    // The same value, fewer characters.
    expect(JSON.parse(compactJsonText(text))).toEqual(JSON.parse(text));
  });
});
