/**
 * The one way spec text reaches a generated file. Descriptions, names, examples and enum values
 * come from documents nobody here wrote; each place they land has its own rules, and all of them
 * are here so that a backtick, `${`, `*\/`, a quote, a newline, a bidi control or `</script>`
 * can never end a string or a comment early or turn into code.
 *
 * - `string`: a complete double-quoted TypeScript string literal with the same value.
 * - `comment`: text for the inside of a `/** ... *\/` block comment (the printer adds ` * `).
 * - `markdown`: a Markdown block (README); raw HTML is neutralised, unbalanced code fences too.
 * - `inline`: one line of Markdown (a table cell, a list item), `|` and backticks escaped.
 * - `line`: one line of plain text (a `.env` comment, a Dockerfile label): no line breaks, no
 *   control characters.
 */

export type TextContext = "string" | "comment" | "markdown" | "inline" | "line";

/**
 * Characters that change how text is displayed or where a line ends without being visible:
 * C0/C1 controls (tab and newline are handled per context), bidi embeddings and isolates
 * (CVE-2021-42574, "Trojan Source"), zero-width marks, the byte order mark, and U+2028/U+2029,
 * which end a `//` comment in JavaScript.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this finds them to escape them
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LINE_BREAK = /\r\n|\r|\u2028|\u2029|\u0085/g;

function hex4(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Shows an invisible character as its `\uXXXX` escape, so a reader sees it is there. */
function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, hex4).replace(LONE_SURROGATE, hex4);
}

/** Text that needs nothing escaped in a double-quoted literal (the common case, checked first). */
const PLAIN_STRING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that need escaping
  /^[^"\\\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff<]*$/;

/** What a double-quoted literal escapes: the quote, the backslash, line breaks, tabs and INVISIBLE. */
const STRING_ESCAPED = new RegExp(`["\\\\\\n\\r\\t]|${INVISIBLE.source}`, "g");

function escapeStringChar(char: string): string {
  switch (char) {
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      return hex4(char);
  }
}

function toStringLiteral(text: string): string {
  if (PLAIN_STRING.test(text)) return `"${text}"`;
  // One pass of the regular expression engine (a lone surrogate becomes U+FFFD first).
  const out = text.replace(LONE_SURROGATE, "\ufffd").replace(STRING_ESCAPED, escapeStringChar);
  // `</script>` and `<!--` are harmless in TypeScript, but not if the text is ever pasted into
  // HTML; `<\/` has the same value.
  return `"${out.replace(/<\//g, "<\\/").replace(/<!--/g, "<\\!--")}"`;
}

/**
 * Text a comment takes as it is (the common case, checked first): no line break but `\n`, no
 * tab, nothing invisible, no surrogate, not a leading line break; `*\/`, whitespace at a line's
 * end and a trailing line break are checked apart (blank lines inside are fine).
 */
const PLAIN_COMMENT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters toComment rewrites
  /^(?!\n)[^\r\t\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff]*$/;
const TRAILING_SPACE = /[^\S\n](?:\n|$)|\n$/;

function toComment(text: string): string {
  if (PLAIN_COMMENT.test(text) && !text.includes("*/") && !TRAILING_SPACE.test(text)) return text;
  return revealInvisible(text.replace(LINE_BREAK, "\n").replace(/\t/g, "  "))
    .replace(/\*\//g, "*\\/")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/^\n+|\n+$/g, "");
}

function escapeHtml(text: string): string {
  return text
    .replace(/&(?![a-zA-Z][a-zA-Z0-9]{1,31};|#[0-9]{1,7};|#x[0-9a-fA-F]{1,6};)/g, "&amp;")
    .replace(/</g, "&lt;");
}

/**
 * URL schemes a README viewer would run or load instead of navigating: a spec's description
 * must not turn a click in the generated README into script.
 */
const UNSAFE_SCHEME = /^(?:javascript|vbscript|data|file):/;

/** Numeric and the few named character references CommonMark decodes inside a link destination. */
function decodeReferences(text: string): string {
  return text
    .replace(/&#(\d{1,7});?/g, (_m, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)))
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_m, n: string) =>
      String.fromCodePoint(Math.min(Number.parseInt(n, 16), 0x10ffff)),
    )
    .replace(/&colon;/gi, ":")
    .replace(/&(?:tab|newline);/gi, "");
}

/** Whether a link destination, as a browser would read it, names an unsafe scheme. */
function isUnsafeDestination(destination: string): boolean {
  const url = decodeReferences(destination.replace(/^(?:<|&lt;)/, ""))
    // Browsers drop tabs, line breaks and leading controls or spaces before reading the scheme.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what browsers drop
    .replace(/\\u00[01][0-9a-f]|[\u0000-\u0020\\]/gi, "")
    .toLowerCase();
  return UNSAFE_SCHEME.test(url);
}

/**
 * Inline links and images (`[x](javascript:...)`) and reference definitions (`[x]: data:...`)
 * whose destination has an unsafe scheme stop being links: the `(` or the `[` is escaped, so the
 * text stays readable and nothing is clickable. Autolinks and raw HTML are already escaped.
 */
function neutraliseUnsafeLinks(body: string): string {
  return body
    .replace(/\]\(([ \t]*\n?[ \t]*)([^\s)]{0,2048})/g, (match, space: string, destination: string) =>
      isUnsafeDestination(destination) ? `]\\(${space}${destination}` : match,
    )
    .replace(
      /^( {0,3})\[([^\]\n]{0,999})\]:([ \t]*\n?[ \t]*)(\S{0,2048})/gm,
      (match, indent: string, label: string, space: string, destination: string) =>
        isUnsafeDestination(destination) ? `${indent}\\[${label}]:${space}${destination}` : match,
    );
}

function toMarkdown(text: string): string {
  let body = escapeHtml(revealInvisible(text.replace(LINE_BREAK, "\n")))
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/^\n+|\n+$/g, "")
    .replace(/\n{3,}/g, "\n\n");
  // An unclosed fence would swallow the rest of the README: then no fence stays a fence.
  const fences = body.match(/^ {0,3}(```|~~~)/gm)?.length ?? 0;
  if (fences % 2 === 1)
    body = body.replace(/^( {0,3})(```|~~~)/gm, (_m, indent: string, fence: string) => `${indent}\\${fence}`);
  body = neutraliseUnsafeLinks(body);
  // A line starting with `#` or `---` would restructure the README around the description.
  return body.replace(/^( {0,3})(#{1,6}\s|-{3,}\s*$|={3,}\s*$)/gm, "$1\\$2");
}

function toInline(text: string): string {
  return escapeHtml(revealInvisible(text.replace(LINE_BREAK, " ").replace(/[\n\t]/g, " ")))
    .replace(/\s{2,}/g, " ")
    .trim()
    .replace(/\\/g, "\\\\")
    .replace(/([|`*_[\]])/g, "\\$1");
}

function toLine(text: string): string {
  return text
    .replace(LINE_BREAK, " ")
    .replace(/[\n\t]/g, " ")
    .replace(INVISIBLE, "")
    .replace(LONE_SURROGATE, "")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** Spec text → text safe to place in `context`. */
export function escapeText(text: string, context: TextContext): string {
  switch (context) {
    case "string":
      return toStringLiteral(text);
    case "comment":
      return toComment(text);
    case "markdown":
      return toMarkdown(text);
    case "inline":
      return toInline(text);
    case "line":
      return toLine(text);
  }
}
