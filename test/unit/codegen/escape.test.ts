// biome-ignore-all lint/suspicious/noTemplateCurlyInString: hostile spec text, on purpose
/**
 * escapeText, the one function spec text goes through on its way into generated files: each
 * hostile input, in each context, must keep its value (strings), never end the construct it is
 * placed in early (comments, Markdown, lines), and show invisible characters.
 */
import MarkdownIt from "markdown-it";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { escapeText } from "../../../src/generator/codegen/print/escape.js";

const HOSTILE: [string, string][] = [
  ["plain", "Find a pet by its id"],
  ["backticks and ${", "`${process.exit(1)}`"],
  ["comment end", "*/ process.exit(1) /*"],
  ["double quotes", '"; process.exit(1); "'],
  ["single quotes", "'; process.exit(1); '"],
  ["backslashes", "C:\\path\\ \\"],
  ["trailing backslash", "ends with \\"],
  ["newlines", "one\ntwo\r\nthree\rfour"],
  ["line separators", "a\u2028b\u2029c\u0085d"],
  ["script tags", "</script><script>alert(1)</script><!-- x -->"],
  ["bidi controls", "abc\u202edcba\u202c \u2066x\u2069"],
  ["zero width and BOM", "a\u200bb\ufeffc\u200d"],
  ["control characters", "bell\u0007 nul\u0000 esc\u001b del\u007f"],
  ["unicode", "café 日本語 🚀 naïve"],
  ["lone surrogates", "bad\ud800 end \udc00x"],
  ["tabs", "a\tb"],
  ["empty", ""],
];

/** The value of the string literal `literal`, read by the TypeScript parser, or an error. */
function parseStringLiteral(literal: string): string {
  const file = ts.createSourceFile("x.ts", `const x = ${literal};`, ts.ScriptTarget.Latest, true);
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (diagnostics.length > 0) throw new Error(`does not parse: ${literal}`);
  expect(file.statements).toHaveLength(1);
  const statement = file.statements[0]!;
  if (!ts.isVariableStatement(statement)) throw new Error("not a variable statement");
  const initializer = statement.declarationList.declarations[0]!.initializer!;
  if (!ts.isStringLiteral(initializer)) throw new Error(`not one string literal: ${literal}`);
  return initializer.text;
}

describe("escapeText: string literals", () => {
  it.each(HOSTILE)("%s keeps its value and stays one literal", (_name, text) => {
    const literal = escapeText(text, "string");
    expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
    const expected = text.replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "\ufffd",
    );
    expect(parseStringLiteral(literal)).toBe(expected);
    expect(literal).not.toMatch(/[\n\r\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b]/);
    expect(literal).not.toContain("</");
  });

  it("leaves ordinary text readable", () => {
    expect(escapeText("Find pets (café)", "string")).toBe('"Find pets (café)"');
    expect(escapeText("a\nb", "string")).toBe('"a\\nb"');
    expect(escapeText("a\u202eb", "string")).toBe('"a\\u202eb"');
  });
});

describe("escapeText: TSDoc comments", () => {
  it.each(HOSTILE)("%s cannot end the comment", (_name, text) => {
    const body = escapeText(text, "comment");
    expect(body).not.toContain("*/");
    expect(body).not.toMatch(/[\r\u2028\u2029\u0085\u202a-\u202e\u2066-\u2069]/);
    const source = `/**\n${body
      .split("\n")
      .map((line) => ` * ${line}`)
      .join("\n")}\n */\nexport const x = 1;\n`;
    const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest, true);
    expect((file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([]);
    expect(file.statements).toHaveLength(1);
  });

  it("shows invisible characters as escapes and keeps lines", () => {
    expect(escapeText("a\u202eb", "comment")).toBe("a\\u202eb");
    expect(escapeText("one\r\ntwo\u2028three", "comment")).toBe("one\ntwo\nthree");
    expect(escapeText("*/ x", "comment")).toBe("*\\/ x");
  });
});

describe("escapeText: Markdown", () => {
  it.each(HOSTILE)("%s leaves no raw HTML and no invisible characters", (_name, text) => {
    const block = escapeText(text, "markdown");
    const inline = escapeText(text, "inline");
    for (const out of [block, inline]) {
      expect(out).not.toContain("<");
      // biome-ignore lint/suspicious/noControlCharactersInRegex: they must not survive
      expect(out).not.toMatch(/[\r\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u0000-\u0008]/);
    }
    expect(inline).not.toContain("\n");
    expect(inline).not.toMatch(/(^|[^\\])[|`]/);
  });

  it("neutralises an unclosed code fence and headings, keeps closed fences", () => {
    expect(escapeText("text\n```js\nrest", "markdown")).toBe("text\n\\```js\nrest");
    expect(escapeText("```\ncode\n```", "markdown")).toBe("```\ncode\n```");
    expect(escapeText("# Title\n---", "markdown")).toBe("\\# Title\n\\---");
    expect(escapeText("a &amp; b & c", "markdown")).toBe("a &amp; b &amp; c");
  });
});

// Each destination a browser would run or load instead of navigating, in the disguises CommonMark
// and browsers see through: case, entities, leading spaces and controls, tabs inside the scheme.
const UNSAFE_LINKS: [string, string][] = [
  ["inline link", "[docs](javascript:alert(1))"],
  ["image", "![logo](data:text/html;base64,PHNjcmlwdD4=)"],
  ["upper case", "[x](JavaScript:alert(1))"],
  ["vbscript", "[x](vbscript:msgbox(1))"],
  ["file", "[x](file:///etc/passwd)"],
  ["numeric entity", "[x](&#106;avascript:alert(1))"],
  ["hex entity", "[x](&#x6A;avascript&#x3A;alert(1))"],
  ["named colon", "[x](javascript&colon;alert(1))"],
  ["pointy brackets", "[x](<javascript:alert(1)>)"],
  ["leading space", "[x](   javascript:alert(1))"],
  ["destination on the next line", "[x](\njavascript:alert(1))"],
  ["reference definition", "[x]\n\n[x]: javascript:alert(1)"],
  ["reference definition, next line", "[x]\n\n[x]:\n  data:text/html,hi"],
];

describe("escapeText: links in Markdown", () => {
  const markdown = new MarkdownIt({ html: true, linkify: false });
  const unsafeUrl = /^\s*(javascript|vbscript|data|file):/i;

  function readUrls(html: string): string[] {
    return [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => decodeURIComponent(m[1]!));
  }

  it.each(UNSAFE_LINKS)("%s is no longer a link", (_name, text) => {
    // Without escaping a CommonMark renderer (told to allow every scheme) would link it: the case is real.
    const permissive = new MarkdownIt({ html: true });
    permissive.validateLink = () => true;
    expect(readUrls(permissive.render(text)).some((url) => unsafeUrl.test(url.replace(/[\t\n]/g, "")))).toBe(
      true,
    );
    const rendered = permissive.render(escapeText(text, "markdown"));
    expect(readUrls(rendered).filter((url) => unsafeUrl.test(url.replace(/[\t\n]/g, "")))).toEqual([]);
    expect(rendered).not.toMatch(/<a |<img /);
  });

  it.each([
    ["https link", "[docs](https://example.com/a_(b))", "https://example.com/a_(b)"],
    ["relative link", "[guide](./guide.md)", "./guide.md"],
    ["mailto", "[mail](mailto:api@example.com)", "mailto:api@example.com"],
  ])("%s stays a link", (_name, text, url) => {
    expect(readUrls(markdown.render(escapeText(text, "markdown")))).toEqual([url]);
  });
});

describe("escapeText: single lines", () => {
  it.each(HOSTILE)("%s stays on one line", (_name, text) => {
    const line = escapeText(text, "line");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: they must not survive
    expect(line).not.toMatch(/[\n\r\u2028\u2029\u0085\u0000-\u001f\u202a-\u202e]/);
  });

  it("cannot start a new assignment in a .env file", () => {
    expect(escapeText("key\nOPENAPI_MCP_BASE_URL=http://attacker.invalid", "line")).toBe(
      "key OPENAPI_MCP_BASE_URL=http://attacker.invalid",
    );
  });
});
