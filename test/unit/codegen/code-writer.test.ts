/**
 * The printer's code writer writes what ts-morph's code writer (code-block-writer, which the
 * printer used before) writes for the same calls, byte for byte: with `followStrings` for any
 * text at all (strings, comments, regular expressions, escaped quotes, line breaks inside), and
 * without it for the text a skeleton is made of (strings on one line, no slash outside them),
 * as long as no backslash comes right before a quote (needsStringTracking, which makes the
 * printer write the module again with `followStrings`). Random calls from a fixed seed.
 */
import CodeBlockWriter from "code-block-writer";
import { describe, expect, it } from "vitest";
import { createRandom } from "../../../bench/fuzz-inputs.mjs";
import { CodeWriter, needsStringTracking } from "../../../src/generator/codegen/print/code-writer.js";
import type { ModuleSpec } from "../../../src/generator/codegen/print/module-spec.js";
import { createPrinter } from "../../../src/generator/codegen/print/printer.js";

/** The calls the printer makes, on either writer. */
interface Writer {
  write(text: string): unknown;
  writeLine(text: string): unknown;
  newLine(): unknown;
  newLineIfLastNot(): unknown;
  blankLineIfLastNot(): unknown;
  indent(timesOrBlock: number | (() => void)): unknown;
  getLength(): number;
}

type Call = (writer: Writer) => void;

/** Random calls, with texts made of `pieces`, blocks nested up to `depth`. */
function makeCalls(random: () => number, pieces: string[], count: number, depth = 0): Call[] {
  const text = (): string => {
    let out = "";
    const length = Math.floor(random() * 6);
    for (let i = 0; i < length; i++) out += pieces[Math.floor(random() * pieces.length)];
    return out;
  };
  const calls: Call[] = [];
  for (let i = 0; i < count; i++) {
    const pick = Math.floor(random() * 8);
    if (pick <= 1) {
      const t = text();
      calls.push((w) => w.write(t));
    } else if (pick === 2) {
      const t = text();
      calls.push((w) => w.writeLine(t));
    } else if (pick === 3) calls.push((w) => w.newLine());
    else if (pick === 4) calls.push((w) => w.newLineIfLastNot());
    else if (pick === 5) calls.push((w) => w.blankLineIfLastNot());
    else if (pick === 6) {
      const times = Math.floor(random() * 3);
      calls.push((w) => w.indent(times));
    } else if (depth < 3) {
      const inner = makeCalls(random, pieces, Math.floor(random() * 6), depth + 1);
      calls.push((w) =>
        w.indent(() => {
          for (const call of inner) call(w);
        }),
      );
    }
  }
  return calls;
}

function run(writer: Writer, calls: Call[]): string {
  for (const call of calls) call(writer);
  return String(writer);
}

function createReference(): Writer {
  return new CodeBlockWriter({ indentNumberOfSpaces: 2, newLine: "\n", useSingleQuote: false });
}

describe("CodeWriter", () => {
  it("following strings, writes what code-block-writer writes, whatever the text", () => {
    const pieces = [
      "a",
      "b1",
      " ",
      '"',
      "'",
      "`",
      "\\",
      "/",
      "*",
      "{",
      "}",
      "$",
      "${",
      "\n",
      "\r\n",
      ";",
      "//",
      "/*",
      "*/",
    ];
    const random = createRandom(26);
    for (let round = 0; round < 3000; round++) {
      const calls = makeCalls(random, pieces, 1 + Math.floor(random() * 12));
      expect(run(new CodeWriter({ followStrings: true }), calls), `round ${round}`).toBe(
        run(createReference(), calls),
      );
    }
  });

  it("without following strings, writes what code-block-writer writes for a skeleton's text", () => {
    // Names, punctuation and one-line strings, some with escapes: what the printer writes.
    const pieces = [
      "Args",
      "x?: ",
      "string",
      ";",
      "{",
      "}",
      " | ",
      '"a b"',
      '"\\u2028"',
      '"\\\\"',
      '"x\\"y"',
      "'q'",
      '"`"',
      `"\${a}"`,
      "[]",
      "Array<",
      ">",
      "ǂ0",
    ];
    const random = createRandom(62);
    let compared = 0;
    for (let round = 0; round < 3000; round++) {
      const calls = makeCalls(random, pieces, 1 + Math.floor(random() * 12));
      const expected = run(createReference(), calls);
      if (needsStringTracking(expected)) continue; // written again with followStrings
      compared++;
      expect(run(new CodeWriter(), calls), `round ${round}`).toBe(expected);
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("asks for string tracking where an escaped backslash ends a string", () => {
    expect(needsStringTracking('x: "a\\\\";')).toBe(true);
    expect(needsStringTracking('x: "a\\"b";')).toBe(true);
    expect(needsStringTracking('x: "a\\nb";')).toBe(false);
  });
  it("a printed module with strings ending in a backslash is what the earlier printer wrote, its quirks included", () => {
    const literal = (value: string) => ({ kind: "literal" as const, value });
    const module: ModuleSpec = {
      imports: [{ module: "./x.js", named: ["A"], typeOnly: true }],
      declarations: [
        {
          kind: "interface",
          name: "Args",
          docs: "The args.",
          properties: [
            {
              name: "a\\",
              optional: false,
              type: { kind: "union", members: [literal("x`y"), { kind: "keyword", name: "string" }] },
              docs: "First.",
            },
            {
              name: "b",
              optional: true,
              type: {
                kind: "object",
                properties: [
                  { name: "c'\\", optional: false, type: literal("q\\") },
                  {
                    name: "d",
                    optional: false,
                    type: { kind: "union", members: ["a", "b", "c", "d", "e", "f`"].map(literal) },
                  },
                ],
              },
              docs: "Second.",
            },
            {
              name: "e",
              optional: true,
              type: { kind: "keyword", name: "number" },
              docs: "Third.\nTwo lines.",
            },
          ],
        },
        {
          kind: "type",
          name: "T",
          type: { kind: "union", members: ["a\\", "b`", "c", "d", "e"].map(literal) },
        },
        { kind: "const", name: "tool", value: { a: 1, "b\\": ["x`", "y\\"] } },
        { kind: "code", text: "/** c */\nexport type H = A;" },
      ],
    };
    // Printed by 225aadd's printer (code-block-writer): after `"a\\"` that writer thought a string
    // was open, so lines went unindented until the next string put it right.
    expect(createPrinter().printModule("m.ts", module)).toBe(
      [
        'import type { A } from "./x.js";',
        "",
        "/** The args. */",
        "export interface Args {",
        "  /** First. */",
        '  "a\\\\": "x`y" | string;',
        "/** Second. */",
        "b?: {",
        '"c\'\\\\": "q\\\\";',
        "d:",
        '  | "a"',
        '  | "b"',
        '  | "c"',
        '  | "d"',
        '  | "e"',
        '  | "f`";',
        "  };",
        "  /**",
        "   * Third.",
        "   * Two lines.",
        "   */",
        "  e?: number;",
        "}",
        "",
        "export type T =",
        '  | "a\\\\"',
        '  | "b`"',
        '  | "c"',
        '  | "d"',
        '  | "e";',
        "",
        "export const tool = {",
        "  a: 1,",
        '  "b\\\\": ["x`", "y\\\\"],',
        "};",
        "",
        "/** c */",
        "export type H = A;",
        "",
      ].join("\n"),
    );
  });
});
