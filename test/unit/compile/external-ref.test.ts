/**
 * hasExternalRef reads the spec's bytes as the regular expression it replaced read the decoded
 * text (kept here as the reference): the same verdict on every case below and on seeded random
 * mixtures of the pieces around a `$ref`, but where a byte beyond ASCII stands next to the key,
 * where it may only say "external" (the model is then planned without the cache).
 */
import { describe, expect, it } from "vitest";
import { createRandom } from "../../../bench/fuzz-inputs.mjs";
import { hasExternalRef } from "../../../src/generator/compile/external-ref.js";

const REFERENCE = /(?:^|[\s{,])["']?\$ref["']?\s*:\s*["']?(?!#)[^\s"',}{[]/m;

describe("hasExternalRef", () => {
  it.each([
    ['{"$ref": "#/components/schemas/Pet"}', false],
    ['{"$ref": "pet.yaml#/Pet"}', true],
    ['{"$ref":"./pet.json"}', true],
    ["$ref: ./pet.yaml", true],
    ["  $ref: '#/definitions/Pet'", false],
    ["  $ref: 'common.yaml#/Error'", true],
    ['"/groups/{id}/members/$ref": {"get": {}}', false],
    ['{"a": 1, "$ref" : "https://example.com/s.json"}', true],
    ['{"$ref": {"type": "object"}}', false],
    ['{"$ref": ["x"]}', false],
    ['{"$ref": ""}', false],
    ['{"x":"$ref: y"}', false],
    ["$ref", false],
    ["$ref:", false],
    ['"$ref":', false],
    ["description: the $ref keyword\n$ref: other.yaml", true],
    ['{"x": "\u00e9", "$ref": "#/a"}', false],
    ['{"x": "\u00e9", "$ref": "b.json"}', true],
    ["", false],
  ])("%j: %s", (text, external) => {
    expect(REFERENCE.test(text)).toBe(external);
    expect(hasExternalRef(Buffer.from(text, "utf8"))).toBe(external);
  });

  it("agrees with the reference on 20,000 random ASCII mixtures around $ref", () => {
    const random = createRandom(7);
    const pieces = [
      "$ref",
      '"',
      "'",
      ":",
      " ",
      "\n",
      "\t",
      "#",
      ",",
      "{",
      "}",
      "[",
      "]",
      "a",
      "/",
      "x.json",
      "$",
      "ref",
    ];
    for (let i = 0; i < 20_000; i++) {
      let text = "";
      const length = 1 + Math.floor(random() * 12);
      for (let j = 0; j < length; j++) text += pieces[Math.floor(random() * pieces.length)];
      expect(hasExternalRef(Buffer.from(text, "latin1")), JSON.stringify(text)).toBe(REFERENCE.test(text));
    }
  });

  it("beside a byte beyond ASCII, says external whenever the reference does", () => {
    for (const text of [
      "\u00a0$ref: a.yaml",
      '"$ref"\u00a0: "a.yaml"',
      '"$ref":\u3000"#/a"',
      "\u2028$ref: x",
    ]) {
      if (REFERENCE.test(text)) expect(hasExternalRef(Buffer.from(text, "utf8"))).toBe(true);
    }
  });
});
