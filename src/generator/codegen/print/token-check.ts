/**
 * The printer's checks on what it wrote: the TypeScript scanner tokenises each module skeleton,
 * which must hold balanced brackets, no template literal and no stray text, and says where each
 * placeholder is, so that values, docs and fixed code can be put in after the check.
 */

import type { ValueNode } from "./module-spec.js";
import type { TypeScript } from "./printer-parts.js";

/**
 * The token kinds checkTokens looks for, read once: `ts.SyntaxKind` is a getter in the
 * bundled compiler, too slow to call for every token.
 */
interface TokenKinds {
  end: TypeScript.SyntaxKind;
  openBrace: TypeScript.SyntaxKind;
  openParen: TypeScript.SyntaxKind;
  openBracket: TypeScript.SyntaxKind;
  closeBrace: TypeScript.SyntaxKind;
  closeParen: TypeScript.SyntaxKind;
  closeBracket: TypeScript.SyntaxKind;
  template: TypeScript.SyntaxKind;
  templateHead: TypeScript.SyntaxKind;
  unknown: TypeScript.SyntaxKind;
  identifier: TypeScript.SyntaxKind;
}

export function readTokenKinds(ts: typeof TypeScript): TokenKinds {
  const kind = ts.SyntaxKind;
  return {
    end: kind.EndOfFileToken,
    openBrace: kind.OpenBraceToken,
    openParen: kind.OpenParenToken,
    openBracket: kind.OpenBracketToken,
    closeBrace: kind.CloseBraceToken,
    closeParen: kind.CloseParenToken,
    closeBracket: kind.CloseBracketToken,
    template: kind.NoSubstitutionTemplateLiteral,
    templateHead: kind.TemplateHead,
    unknown: kind.Unknown,
    identifier: kind.Identifier,
  };
}

/**
 * What replaces a placeholder identifier once the skeleton is checked: a constant's value, a
 * TSDoc block (its lines, indented like the placeholder), or fixed generator code.
 */
export type Filling =
  | { kind: "value"; value: ValueNode }
  | { kind: "docs"; lines: string[] }
  | { kind: "code"; text: string };

/**
 * Placeholders start with U+01C2, a letter TypeScript takes in identifiers but that no printed
 * name can hold (property names that are not ASCII identifiers are quoted, type names are
 * ASCII): a placeholder can only be one the printer wrote.
 */
export const PLACEHOLDER_PREFIX = "\u01c2";

interface Splice {
  start: number;
  end: number;
  filling: Filling;
}

/**
 * Every module goes through the TypeScript scanner as it is printed: a string or comment that
 * does not end where the printer meant it to, a template literal (the printer never writes
 * one, so a backtick outside a string or comment means spec text escaped), or unbalanced
 * brackets stop the generation; nothing is written. The skeleton is scanned with a placeholder
 * for each filling, and returns where each is: values are printed by `valueText` (escaped
 * strings, balanced brackets by construction), documentation blocks are checked not to end
 * early (see blockCommentLines), and each distinct fixed code block is scanned once on its own
 * (it starts and ends at the top level, so it scans the same wherever it is put).
 * (Tokenizing is a third of the cost of a full parse; the tests type-check the output.)
 */
export function checkTokens(
  kinds: TokenKinds,
  scanner: TypeScript.Scanner,
  path: string,
  text: string,
  fillings: Map<string, Filling>,
): Splice[] {
  let problem: string | undefined;
  scanner.setOnError((message) => {
    problem ??= message.message;
  });
  scanner.setText(text);
  const splices: Splice[] = [];
  const found = new Set<string>();
  const open: TypeScript.SyntaxKind[] = [];
  for (let kind = scanner.scan(); kind !== kinds.end; kind = scanner.scan()) {
    if (kind === kinds.openBrace || kind === kinds.openParen || kind === kinds.openBracket) {
      open.push(kind);
    } else if (kind === kinds.closeBrace || kind === kinds.closeParen || kind === kinds.closeBracket) {
      const opener =
        kind === kinds.closeBrace
          ? kinds.openBrace
          : kind === kinds.closeParen
            ? kinds.openParen
            : kinds.openBracket;
      if (open.pop() !== opener) problem ??= `unbalanced ${scanner.getTokenText()}`;
    } else if (kind === kinds.template || kind === kinds.templateHead) {
      problem ??= "a template literal";
    } else if (kind === kinds.unknown) {
      problem ??= `an unexpected character ${JSON.stringify(scanner.getTokenText())}`;
    } else if (kind === kinds.identifier) {
      const name = scanner.getTokenValue();
      if (name.startsWith(PLACEHOLDER_PREFIX)) {
        const filling = fillings.get(name);
        if (filling === undefined || found.has(name)) problem ??= `a stray placeholder ${name}`;
        else {
          found.add(name);
          splices.push({ start: scanner.getTokenStart(), end: scanner.getTokenEnd(), filling });
        }
      }
    }
    if (problem !== undefined) break;
  }
  scanner.setOnError(undefined);
  if (problem === undefined && open.length > 0) problem = "an unclosed bracket";
  if (problem === undefined && found.size !== fillings.size) problem = "a constant without its value";
  if (problem !== undefined) throw new Error(`generated ${path} is not well-formed: ${problem}`);
  return splices;
}
