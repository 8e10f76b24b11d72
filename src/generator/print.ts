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
import type { CodeBlockWriter as CodeBlockWriterType, ts as TypeScript } from "ts-morph";

/**
 * ts-morph (and the TypeScript compiler inside it, 9 MB of CommonJS) is loaded with `require`:
 * an ESM `import` would first scan all of it for export names, which costs more than half a
 * second on every generation.
 */
const { CodeBlockWriter, ts } = createRequire(import.meta.url)("ts-morph") as {
  CodeBlockWriter: typeof CodeBlockWriterType;
  ts: typeof TypeScript;
};
type CodeBlockWriter = CodeBlockWriterType;

import { escapeText } from "./escape.js";

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

/** The checks and options every module is printed with; one printer serves a whole generation. */
export function createPrinter(): Printer {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard);
  return {
    printModule(path, module) {
      const writer = newWriter();
      if (module.docs !== undefined && module.docs.trim() !== "") writer.writeLine(blockComment(module.docs));
      for (const spec of module.imports) writer.writeLine(importText(spec));
      const values = new Map<string, ValueNode>();
      for (const declaration of module.declarations) {
        if (writer.getLength() > 0) writer.blankLineIfLastNot();
        writeDeclaration(writer, declaration);
        writer.newLineIfLastNot();
        if (declaration.kind === "const") values.set(valuePlaceholder(declaration.name), declaration.value);
      }
      const skeleton = writer.toString();
      const splices = checkTokens(scanner, path, skeleton, values);
      // Constant values (data, often most of the file) are printed by valueText afterwards,
      // each replacing its placeholder.
      let text = skeleton;
      for (const splice of splices.sort((a, b) => b.start - a.start)) {
        text = text.slice(0, splice.start) + valueText(splice.value, "") + text.slice(splice.end);
      }
      return text;
    },
  };
}

const CLOSERS: Partial<Record<TypeScript.SyntaxKind, TypeScript.SyntaxKind>> = {
  [ts.SyntaxKind.CloseBraceToken]: ts.SyntaxKind.OpenBraceToken,
  [ts.SyntaxKind.CloseParenToken]: ts.SyntaxKind.OpenParenToken,
  [ts.SyntaxKind.CloseBracketToken]: ts.SyntaxKind.OpenBracketToken,
};

/**
 * Every module goes through the TypeScript scanner as it is printed: a string or comment that
 * does not end where the printer meant it to, a template literal (the printer never writes
 * one, so a backtick outside a string or comment means spec text escaped), or unbalanced
 * brackets stop the generation; nothing is written. Returns where each constant's placeholder
 * is. (Tokenizing is a third of the cost of a full parse; the tests type-check the output.)
 */
function checkTokens(
  scanner: TypeScript.Scanner,
  path: string,
  text: string,
  values: Map<string, ValueNode>,
): { start: number; end: number; value: ValueNode }[] {
  let problem: string | undefined;
  scanner.setOnError((message) => {
    problem ??= message.message;
  });
  scanner.setText(text);
  const splices: { start: number; end: number; value: ValueNode }[] = [];
  const open: TypeScript.SyntaxKind[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (
      kind === ts.SyntaxKind.OpenBraceToken ||
      kind === ts.SyntaxKind.OpenParenToken ||
      kind === ts.SyntaxKind.OpenBracketToken
    ) {
      open.push(kind);
    } else if (CLOSERS[kind] !== undefined) {
      if (open.pop() !== CLOSERS[kind]) problem ??= `unbalanced ${scanner.getTokenText()}`;
    } else if (kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral || kind === ts.SyntaxKind.TemplateHead) {
      problem ??= "a template literal";
    } else if (kind === ts.SyntaxKind.Unknown) {
      problem ??= `an unexpected character ${JSON.stringify(scanner.getTokenText())}`;
    } else if (kind === ts.SyntaxKind.Identifier) {
      const value = values.get(scanner.getTokenValue());
      if (value !== undefined)
        splices.push({ start: scanner.getTokenStart(), end: scanner.getTokenEnd(), value });
    }
    if (problem !== undefined) break;
  }
  scanner.setOnError(undefined);
  if (problem === undefined && open.length > 0) problem = "an unclosed bracket";
  if (problem === undefined && splices.length !== values.size) problem = "a constant without its value";
  if (problem !== undefined) throw new Error(`generated ${path} is not well-formed: ${problem}`);
  return splices;
}

function newWriter(): CodeBlockWriter {
  return new CodeBlockWriter({ indentNumberOfSpaces: 2, newLine: "\n", useSingleQuote: false });
}

function importText(spec: ImportSpec): string {
  const clauses: string[] = [];
  if (spec.namespace !== undefined) clauses.push(`* as ${spec.namespace}`);
  if (spec.named !== undefined) clauses.push(`{ ${spec.named.join(", ")} }`);
  const kind = spec.typeOnly === true ? "import type" : "import";
  return `${kind} ${clauses.join(", ")} from ${escapeText(spec.module, "string")};`;
}

function writeDeclaration(writer: CodeBlockWriter, declaration: DeclarationSpec): void {
  switch (declaration.kind) {
    case "interface":
      writeDocs(writer, declaration.docs);
      writer.write(`export interface ${declaration.name} `);
      if (declaration.properties.length === 0 && declaration.index === undefined) writer.write("{}");
      else writeObjectBody(writer, declaration.properties, declaration.index);
      return;
    case "type":
      writeDocs(writer, declaration.docs);
      writeAnnotated(writer, `export type ${declaration.name} =`, declaration.type);
      writer.write(";");
      return;
    case "const":
      writeDocs(writer, declaration.docs);
      writer.write(`export const ${declaration.name}`);
      if (declaration.type !== undefined) writer.write(`: ${declaration.type}`);
      writer.write(` = ${valuePlaceholder(declaration.name)};`);
      return;
    case "code":
      writer.write(declaration.text.replace(/\n+$/, ""));
      return;
  }
}

function blockComment(text: string): string {
  const lines = escapeText(text, "comment").split("\n");
  return ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"].join("\n");
}

function writeDocs(writer: CodeBlockWriter, text: string | undefined): void {
  if (text === undefined) return;
  const escaped = escapeText(text, "comment");
  if (escaped === "") return;
  const lines = escaped.split("\n");
  if (lines.length === 1) {
    writer.writeLine(`/** ${lines[0]} */`);
    return;
  }
  writer.writeLine("/**");
  for (const line of lines) writer.writeLine(line === "" ? " *" : ` * ${line}`);
  writer.writeLine(" */");
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

/** `head` (`name?:`, `export type X =`) and the type: on the same line, or one union member a line. */
function writeAnnotated(writer: CodeBlockWriter, head: string, type: TypeNode): void {
  const lines = multilineUnion(type);
  if (lines === undefined) {
    writer.write(`${head} `);
    writeType(writer, type, "inline");
    return;
  }
  writer.write(head);
  for (const line of lines) {
    writer.newLine();
    writer.indent(1);
    writer.write(`| ${line}`);
  }
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

function writeType(writer: CodeBlockWriter, type: TypeNode, position: TypePosition): void {
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
        writeType(writer, type.items, "inline");
        writer.write(">");
      }
      return;
    }
    case "tuple": {
      writer.write("[");
      type.items.forEach((item, index) => {
        if (index > 0) writer.write(", ");
        writeType(writer, item, "inline");
      });
      if (type.rest !== undefined) {
        if (type.items.length > 0) writer.write(", ");
        writer.write("...Array<");
        writeType(writer, type.rest, "inline");
        writer.write(">");
      }
      writer.write("]");
      return;
    }
    case "object":
      writeObjectType(writer, type.properties, type.index);
      return;
    case "union":
    case "intersection": {
      const separator = type.kind === "union" ? " | " : " & ";
      const parenthesise = position === "member";
      if (parenthesise) writer.write("(");
      type.members.forEach((member, index) => {
        if (index > 0) writer.write(separator);
        writeType(writer, member, "member");
      });
      if (parenthesise) writer.write(")");
      return;
    }
    default:
      throw new Error(`unknown type node ${(type as { kind: string }).kind}`);
  }
}

function writeObjectType(
  writer: CodeBlockWriter,
  properties: TypeProperty[],
  index: TypeNode | undefined,
): void {
  if (properties.length === 0) {
    writer.write("Record<string, ");
    if (index === undefined) writer.write("never");
    else writeType(writer, index, "inline");
    writer.write(">");
    return;
  }
  writeObjectBody(writer, properties, index);
}

function writeObjectBody(
  writer: CodeBlockWriter,
  properties: TypeProperty[],
  index: TypeNode | undefined,
): void {
  writer.write("{").newLine();
  writer.indent(() => {
    for (const property of properties) {
      writeDocs(writer, property.docs);
      writeAnnotated(writer, `${propertyName(property.name)}${property.optional ? "?" : ""}:`, property.type);
      writer.write(";").newLine();
    }
    if (index !== undefined) {
      writer.write("[key: string]: ");
      writeType(writer, index, "inline");
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

function scalarText(value: null | boolean | number | string | Expression): string {
  if (value === null) return "null";
  if (value instanceof Expression) return value.code;
  if (typeof value === "string") return escapeText(value, "string");
  if (typeof value === "number") return numberText(value);
  return String(value);
}

function valuePlaceholder(name: string): string {
  return `__omb_value_${name}__`;
}

/**
 * A value as a TypeScript literal, one property or item a line (short scalar arrays inline),
 * two-space indentation from `indent`, trailing commas. Plain string building: the values of a
 * large API are megabytes.
 */
export function valueText(value: ValueNode, indent: string): string {
  if (value === null || typeof value !== "object" || value instanceof Expression) return scalarText(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.length <= 8 && value.every(isShortScalar)) {
      const inline = `[${value.map((v) => scalarText(v as null | boolean | number | string | Expression)).join(", ")}]`;
      if (inline.length <= 80) return inline;
    }
    let out = "[\n";
    for (const item of value) out += `${inner}${valueText(item, inner)},\n`;
    return `${out}${indent}]`;
  }
  let out = "";
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item !== undefined) out += `${inner}${keyText(key)}: ${valueText(item, inner)},\n`;
  }
  return out === "" ? "{}" : `{\n${out}${indent}}`;
}
