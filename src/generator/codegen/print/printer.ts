/**
 * TypeScript printing: the only module that touches ts-morph. Emitters describe a module as
 * plain data (imports, interfaces, type aliases, constants with JSON-like values); this printer
 * writes it with ts-morph's code writer (indentation, blocks, comments), checks the result with
 * the scanner of the TypeScript compiler ts-morph ships (see checkTokens), then fills in the
 * constants' values, which are plain data printed by `valueText`.
 *
 * Every piece of spec text that reaches the output passes through `escapeText` here: string
 * literals, TSDoc text and quoted property names. Emitters never build code from spec text;
 * the only raw code they pass (`code` declarations, `Expression`s) is fixed text of the
 * generator or identifiers it made safe itself.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { CodeBlockWriter as CodeBlockWriterType, ts as TypeScript } from "ts-morph";

import { preloadWithCodeCache } from "./code-cache.js";
import { escapeText } from "./escape.js";

type TsMorphParts = {
  CodeBlockWriter: typeof CodeBlockWriterType;
  ts: typeof TypeScript;
  saveCodeCache: () => void;
};

/**
 * The two parts of ts-morph the printer uses: its code writer (the code-block-writer package)
 * and the TypeScript compiler it bundles (for the scanner). Both are required from ts-morph's
 * own install, so they are the very modules `require("ts-morph")` hands out, without the rest
 * of ts-morph (its project and AST layers, their glob and path dependencies: some 4 MB more
 * of CommonJS, a third of the load). The compiler (9 MB) goes through V8's code cache
 * (code-cache.ts). `require`, not `import`: an ESM import would first scan all of it for
 * export names, which costs more than half a second. Should ts-morph be laid out differently,
 * the whole package is loaded the usual way.
 */
function loadTsMorph(): TsMorphParts {
  const requireHere = createRequire(import.meta.url);
  try {
    const entry = requireHere.resolve("ts-morph");
    const requireFromTsMorph = createRequire(entry);
    const typescript = join(dirname(requireFromTsMorph.resolve("@ts-morph/common")), "typescript.js");
    const saveCodeCache = preloadWithCodeCache([typescript]);
    const ts = requireFromTsMorph(typescript) as typeof TypeScript;
    const writer = requireFromTsMorph("code-block-writer") as { default?: typeof CodeBlockWriterType };
    if (typeof ts.createScanner === "function" && typeof writer.default === "function") {
      return { CodeBlockWriter: writer.default, ts, saveCodeCache };
    }
  } catch {
    // laid out differently: loaded the usual way below
  }
  return {
    ...(requireHere("ts-morph") as Omit<TsMorphParts, "saveCodeCache">),
    saveCodeCache: () => undefined,
  };
}

/**
 * ts-morph, once the first printer is made: importing this module (for its types, `Expression`
 * or `valueText`) does not load it, so a thread that only plans never pays for it.
 */
let tsMorph: TsMorphParts | undefined;
type CodeBlockWriter = CodeBlockWriterType;
/** Saves the code cache once, after the first module printed (its functions compiled by then). */
let saveCodeCache: (() => void) | undefined;

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

function readTokenKinds(ts: typeof TypeScript): TokenKinds {
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

/** A TypeScript type, as data. `ref` names must be identifiers the emitter declared. */
export type TypeNode =
  | { kind: "keyword"; name: "string" | "number" | "boolean" | "null" | "unknown" | "never" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "ref"; name: string }
  | { kind: "array"; items: TypeNode }
  | { kind: "tuple"; items: TypeNode[]; rest?: TypeNode }
  | { kind: "object"; properties: TypeProperty[]; index?: TypeNode }
  | { kind: "union"; members: TypeNode[] }
  | { kind: "intersection"; members: TypeNode[] };

export interface TypeProperty {
  /** Any text: printed bare when it is an identifier, else as an escaped string literal. */
  name: string;
  optional: boolean;
  type: TypeNode;
  /** Spec text for the property's TSDoc. */
  docs?: string;
}

/** Code written by the generator itself (an identifier, `x.tool`), never spec text. */
export class Expression {
  constructor(readonly code: string) {}
}

/** A value printed as a TypeScript literal: JSON, plus generator-made expressions. */
export type ValueNode =
  | null
  | boolean
  | number
  | string
  | Expression
  | ValueNode[]
  | { [key: string]: ValueNode | undefined };

export interface ImportSpec {
  module: string;
  named?: string[];
  namespace?: string;
  typeOnly?: boolean;
}

export type DeclarationSpec =
  | { kind: "interface"; name: string; docs?: string; properties: TypeProperty[]; index?: TypeNode }
  | { kind: "type"; name: string; docs?: string; type: TypeNode }
  | { kind: "const"; name: string; docs?: string; type?: string; value: ValueNode }
  /** Fixed source text of the generator (hook stubs, helpers); never contains spec text. */
  | { kind: "code"; text: string };

export interface ModuleSpec {
  /** Spec text for the file's leading TSDoc block. */
  docs?: string;
  imports: ImportSpec[];
  declarations: DeclarationSpec[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Unions with more members than this are printed one member a line. */
const INLINE_UNION_MEMBERS = 4;
const INLINE_UNION_CHARS = 80;

export interface Printer {
  printModule(path: string, module: ModuleSpec): string;
}

/**
 * What replaces a placeholder identifier once the skeleton is checked: a constant's value, a
 * TSDoc block (its lines, indented like the placeholder), or fixed generator code.
 */
type Filling =
  | { kind: "value"; value: ValueNode }
  | { kind: "docs"; lines: string[] }
  | { kind: "code"; text: string };

/**
 * Placeholders start with U+01C2, a letter TypeScript takes in identifiers but that no printed
 * name can hold (property names that are not ASCII identifiers are quoted, type names are
 * ASCII): a placeholder can only be one the printer wrote.
 */
const PLACEHOLDER_PREFIX = "\u01c2";

/** The checks and options every module is printed with; one printer serves a whole generation. */
export function createPrinter(): Printer {
  if (tsMorph === undefined) {
    tsMorph = loadTsMorph();
    saveCodeCache = tsMorph.saveCodeCache;
  }
  const { CodeBlockWriter, ts } = tsMorph;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard);
  const kinds = readTokenKinds(ts);
  const texts = createScalarTexts();
  const docs = new Map<string, string[]>();
  const newWriter = (): CodeBlockWriter =>
    new CodeBlockWriter({ indentNumberOfSpaces: 2, newLine: "\n", useSingleQuote: false });
  /** Fixed code blocks already checked on their own (the same hooks stub goes into every module). */
  const checkedCode = new Set<string>();
  return {
    printModule(path, module) {
      const writer = newWriter();
      const fillings = new Map<string, Filling>();
      const output: Output = {
        writer,
        path,
        docs,
        placeholder(filling) {
          const name = `${PLACEHOLDER_PREFIX}${fillings.size}`;
          fillings.set(name, filling);
          return name;
        },
      };
      if (module.docs !== undefined && module.docs.trim() !== "") {
        writer.writeLine(output.placeholder({ kind: "docs", lines: blockCommentLines(path, module.docs) }));
      }
      for (const spec of module.imports) writer.writeLine(importText(spec));
      for (const declaration of module.declarations) {
        if (writer.getLength() > 0) writer.blankLineIfLastNot();
        writeDeclaration(output, declaration);
        writer.newLineIfLastNot();
      }
      for (const filling of fillings.values()) {
        if (filling.kind === "code" && !checkedCode.has(filling.text)) {
          checkTokens(kinds, scanner, path, filling.text, new Map());
          checkedCode.add(filling.text);
        }
      }
      const skeleton = writer.toString();
      const splices = checkTokens(kinds, scanner, path, skeleton, fillings).sort((a, b) => a.start - b.start);
      // The fillings (constant values are data, often most of the file; documentation; the
      // hooks stub) are put in after the check, each replacing its placeholder.
      const parts: string[] = [];
      let at = 0;
      for (const splice of splices) {
        parts.push(skeleton.slice(at, splice.start));
        appendFilling(parts, skeleton, splice.start, splice.filling, texts);
        at = splice.end;
      }
      parts.push(skeleton.slice(at));
      if (saveCodeCache !== undefined) {
        const save = saveCodeCache;
        saveCodeCache = undefined;
        save();
      }
      return parts.join("");
    },
  };
}

function appendFilling(
  parts: string[],
  skeleton: string,
  start: number,
  filling: Filling,
  texts: ScalarTexts,
): void {
  switch (filling.kind) {
    case "value":
      appendValue(parts, filling.value, "", texts);
      return;
    case "code":
      parts.push(filling.text);
      return;
    case "docs": {
      // The writer indented the placeholder's line: every line of the block gets that indentation.
      const indent = skeleton.slice(skeleton.lastIndexOf("\n", start - 1) + 1, start);
      parts.push(filling.lines.join(`\n${indent}`));
      return;
    }
  }
}

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
function checkTokens(
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

function importText(spec: ImportSpec): string {
  const clauses: string[] = [];
  if (spec.namespace !== undefined) clauses.push(`* as ${spec.namespace}`);
  if (spec.named !== undefined) clauses.push(`{ ${spec.named.join(", ")} }`);
  const kind = spec.typeOnly === true ? "import type" : "import";
  return `${kind} ${clauses.join(", ")} from ${escapeText(spec.module, "string")};`;
}

/** One module being printed: its writer, and where fillings get their placeholders. */
interface Output {
  writer: CodeBlockWriter;
  placeholder(filling: Filling): string;
  /** For error messages. */
  path: string;
  /**
   * The TSDoc lines of each documentation text printed so far (empty: nothing to write): the
   * same parameter descriptions come back in operation after operation.
   */
  docs: Map<string, string[]>;
}

function writeDeclaration(out: Output, declaration: DeclarationSpec): void {
  const { writer } = out;
  switch (declaration.kind) {
    case "interface":
      writeDocs(out, declaration.docs);
      writer.write(`export interface ${declaration.name} `);
      if (declaration.properties.length === 0 && declaration.index === undefined) writer.write("{}");
      else writeObjectBody(out, declaration.properties, declaration.index);
      return;
    case "type":
      writeDocs(out, declaration.docs);
      writeAnnotated(out, `export type ${declaration.name} =`, declaration.type, ";");
      return;
    case "const":
      writeDocs(out, declaration.docs);
      writer.write(`export const ${declaration.name}`);
      if (declaration.type !== undefined) writer.write(`: ${declaration.type}`);
      writer.write(` = ${out.placeholder({ kind: "value", value: declaration.value })};`);
      return;
    case "code":
      writer.write(out.placeholder({ kind: "code", text: declaration.text.replace(/\n+$/, "") }));
      return;
  }
}

/** Escaped documentation text; throws if it could end its comment early. */
function commentText(path: string, text: string): string {
  const escaped = escapeText(text, "comment");
  if (escaped.includes("*/")) throw new Error(`generated ${path} is not well-formed: a comment ends early`);
  return escaped;
}

/** A file's leading block comment, line by line. */
function blockCommentLines(path: string, text: string): string[] {
  const lines = commentText(path, text).split("\n");
  return ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"];
}

/** A TSDoc block on its own line(s) (one line when the text is one), or nothing for no text. */
function writeDocs(out: Output, text: string | undefined): void {
  if (text === undefined) return;
  let block = out.docs.get(text);
  if (block === undefined) {
    block = docsLines(out.path, text);
    out.docs.set(text, block);
  }
  if (block.length > 0) out.writer.writeLine(out.placeholder({ kind: "docs", lines: block }));
}

function docsLines(path: string, text: string): string[] {
  const escaped = commentText(path, text);
  if (escaped === "") return [];
  const lines = escaped.split("\n");
  return lines.length === 1
    ? [`/** ${lines[0]} */`]
    : ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"];
}

export function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : escapeText(name, "string");
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`cannot print the number ${value}`);
  return Object.is(value, -0) ? "-0" : String(value);
}

/** `member`: inside a union or intersection, where a union needs parentheses. */
type TypePosition = "inline" | "member";

/** The members of a union of simple types too long for one line, else undefined. */
function multilineUnion(type: TypeNode): string[] | undefined {
  if (type.kind !== "union") return undefined;
  const members = type.members.map(inlineType);
  if (!members.every((m): m is string => m !== undefined)) return undefined;
  const long = members.length > INLINE_UNION_MEMBERS || members.join(" | ").length > INLINE_UNION_CHARS;
  return long ? members : undefined;
}

/**
 * `head` (`name?:`, `export type X =`), the type and `tail` (`;`): on the same line, or one
 * union member a line. A simple type goes to the writer in one piece with its head and tail.
 */
function writeAnnotated(out: Output, head: string, type: TypeNode, tail: string): void {
  const { writer } = out;
  const lines = multilineUnion(type);
  if (lines === undefined) {
    const simple = inlineType(type);
    if (simple !== undefined) {
      writer.write(`${head} ${simple}${tail}`);
      return;
    }
    writer.write(`${head} `);
    writeType(out, type, "inline");
    writer.write(tail);
    return;
  }
  writer.write(head);
  lines.forEach((line, i) => {
    writer.newLine();
    writer.indent(1);
    writer.write(i === lines.length - 1 ? `| ${line}${tail}` : `| ${line}`);
  });
}

function inlineType(type: TypeNode): string | undefined {
  switch (type.kind) {
    case "keyword":
      return type.name;
    case "literal":
      return typeof type.value === "string"
        ? escapeText(type.value, "string")
        : typeof type.value === "number"
          ? numberText(type.value)
          : String(type.value);
    case "ref":
      return type.name;
    default:
      return undefined;
  }
}

function writeType(out: Output, type: TypeNode, position: TypePosition): void {
  const { writer } = out;
  const simple = inlineType(type);
  if (simple !== undefined) {
    writer.write(simple);
    return;
  }
  switch (type.kind) {
    case "array": {
      const item = inlineType(type.items);
      if (item !== undefined) writer.write(`${item}[]`);
      else {
        writer.write("Array<");
        writeType(out, type.items, "inline");
        writer.write(">");
      }
      return;
    }
    case "tuple": {
      writer.write("[");
      type.items.forEach((item, index) => {
        if (index > 0) writer.write(", ");
        writeType(out, item, "inline");
      });
      if (type.rest !== undefined) {
        if (type.items.length > 0) writer.write(", ");
        writer.write("...Array<");
        writeType(out, type.rest, "inline");
        writer.write(">");
      }
      writer.write("]");
      return;
    }
    case "object":
      writeObjectType(out, type.properties, type.index);
      return;
    case "union":
    case "intersection": {
      const separator = type.kind === "union" ? " | " : " & ";
      const parenthesise = position === "member";
      if (parenthesise) writer.write("(");
      type.members.forEach((member, index) => {
        if (index > 0) writer.write(separator);
        writeType(out, member, "member");
      });
      if (parenthesise) writer.write(")");
      return;
    }
    default:
      throw new Error(`unknown type node ${(type as { kind: string }).kind}`);
  }
}

function writeObjectType(out: Output, properties: TypeProperty[], index: TypeNode | undefined): void {
  const { writer } = out;
  if (properties.length === 0) {
    writer.write("Record<string, ");
    if (index === undefined) writer.write("never");
    else writeType(out, index, "inline");
    writer.write(">");
    return;
  }
  writeObjectBody(out, properties, index);
}

function writeObjectBody(out: Output, properties: TypeProperty[], index: TypeNode | undefined): void {
  const { writer } = out;
  writer.write("{").newLine();
  writer.indent(() => {
    for (const property of properties) {
      writeDocs(out, property.docs);
      writeAnnotated(
        out,
        `${propertyName(property.name)}${property.optional ? "?" : ""}:`,
        property.type,
        ";",
      );
      writer.newLine();
    }
    if (index !== undefined) {
      writer.write("[key: string]: ");
      writeType(out, index, "inline");
      writer.write(";").newLine();
    }
  });
  writer.write("}");
}

/** Keys an object literal cannot hold as plain own properties. */
function keyText(key: string): string {
  if (key === "__proto__") return '["__proto__"]';
  return propertyName(key);
}

function isShortScalar(value: ValueNode): boolean {
  return (
    value === null ||
    typeof value === "boolean" ||
    typeof value === "number" ||
    (typeof value === "string" && value.length <= 40) ||
    value instanceof Expression
  );
}

/**
 * The printed keys and short strings of values: the same few (`type`, `properties`, `"string"`)
 * come back in every schema of every module, so one printer keeps each one's text.
 */
interface ScalarTexts {
  keys: Map<string, string>;
  strings: Map<string, string>;
}

function createScalarTexts(): ScalarTexts {
  return { keys: new Map(), strings: new Map() };
}

/** Strings up to this length are kept in ScalarTexts. */
const KEPT_STRING_CHARS = 64;

function cachedKeyText(key: string, texts: ScalarTexts): string {
  let text = texts.keys.get(key);
  if (text === undefined) {
    text = keyText(key);
    texts.keys.set(key, text);
  }
  return text;
}

function scalarText(value: null | boolean | number | string | Expression, texts?: ScalarTexts): string {
  if (value === null) return "null";
  if (value instanceof Expression) return value.code;
  if (typeof value === "string") {
    if (texts === undefined || value.length > KEPT_STRING_CHARS) return escapeText(value, "string");
    let text = texts.strings.get(value);
    if (text === undefined) {
      text = escapeText(value, "string");
      texts.strings.set(value, text);
    }
    return text;
  }
  if (typeof value === "number") return numberText(value);
  return String(value);
}

/**
 * A value as a TypeScript literal, one property or item a line (short scalar arrays inline),
 * two-space indentation from `indent`, trailing commas. Plain string building: the values of a
 * large API are megabytes.
 */
export function valueText(value: ValueNode, indent: string): string {
  const parts: string[] = [];
  appendValue(parts, value, indent, createScalarTexts());
  return parts.join("");
}

/** valueText's pieces, pushed onto `parts` (joined once, by the caller). */
function appendValue(parts: string[], value: ValueNode, indent: string, texts: ScalarTexts): void {
  if (value === null || typeof value !== "object" || value instanceof Expression) {
    parts.push(scalarText(value, texts));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      parts.push("[]");
      return;
    }
    if (value.length <= 8 && value.every(isShortScalar)) {
      const inline = `[${value.map((v) => scalarText(v as null | boolean | number | string | Expression, texts)).join(", ")}]`;
      if (inline.length <= 80) {
        parts.push(inline);
        return;
      }
    }
    const inner = `${indent}  `;
    parts.push("[\n");
    for (const item of value) {
      parts.push(inner);
      appendValue(parts, item, inner, texts);
      parts.push(",\n");
    }
    parts.push(indent, "]");
    return;
  }
  const inner = `${indent}  `;
  const open = parts.length;
  parts.push("{\n");
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    parts.push(inner, cachedKeyText(key, texts), ": ");
    appendValue(parts, item, inner, texts);
    parts.push(",\n");
  }
  if (parts.length === open + 1) {
    parts[open] = "{}";
    return;
  }
  parts.push(indent, "}");
}
