/**
 * TypeScript printing. Emitters describe a module as plain data (module-spec.ts: imports,
 * interfaces, type aliases, constants with JSON-like values); this printer writes it with its
 * code writer (indentation, blocks; code-writer.ts), checks the result with its tokeniser
 * (token-check.ts), then fills in the constants' values, which are plain data printed by
 * `valueText` (value-text.ts).
 *
 * Every piece of spec text that reaches the output passes through `escapeText` here: string
 * literals, TSDoc text and quoted property names. Emitters never build code from spec text;
 * the only raw code they pass (`code` declarations, `Expression`s) is fixed text of the
 * generator or identifiers it made safe itself.
 */

import { CodeWriter, needsStringTracking } from "./code-writer.js";
import { escapeText } from "./escape.js";
import type { DeclarationSpec, ImportSpec, ModuleSpec, TypeNode, TypeProperty } from "./module-spec.js";
import { checkTokens, type Filling, PLACEHOLDER_PREFIX } from "./token-check.js";
import { appendValue, createScalarTexts, numberText, propertyName, type ScalarTexts } from "./value-text.js";

/** Unions with more members than this are printed one member a line. */
const INLINE_UNION_MEMBERS = 4;
const INLINE_UNION_CHARS = 80;

export interface Printer {
  printModule(path: string, module: ModuleSpec): string;
}

/** The checks and options every module is printed with; one printer serves a whole generation. */
export function createPrinter(): Printer {
  const texts = createScalarTexts();
  const docs = new Map<string, string[]>();
  /** Fixed code blocks already checked on their own (the same hooks stub goes into every module). */
  const checkedCode = new Set<string>();
  return {
    printModule(path, module) {
      let fillings = new Map<string, Filling>();
      let skeleton = writeSkeleton(path, module, docs, fillings, new CodeWriter());
      if (needsStringTracking(skeleton)) {
        // A string ending in an escaped backslash: written again as ts-morph's writer did (see code-writer.ts).
        fillings = new Map<string, Filling>();
        skeleton = writeSkeleton(path, module, docs, fillings, new CodeWriter({ followStrings: true }));
      }
      for (const filling of fillings.values()) {
        if (filling.kind === "code" && !checkedCode.has(filling.text)) {
          checkTokens(path, filling.text, new Map(), { comments: true });
          checkedCode.add(filling.text);
        }
      }
      const splices = checkTokens(path, skeleton, fillings);
      // The fillings (constant values are data, often most of the file; documentation; the
      // hooks stub) are put in after the check, each replacing its placeholder, in order.
      const parts: string[] = [];
      let at = 0;
      for (const splice of splices) {
        parts.push(skeleton.slice(at, splice.start));
        appendFilling(parts, skeleton, splice.start, splice.filling, texts);
        at = splice.end;
      }
      parts.push(skeleton.slice(at));
      return parts.join("");
    },
  };
}

/** The module with a placeholder for each filling (added to `fillings`). */
function writeSkeleton(
  path: string,
  module: ModuleSpec,
  docs: Map<string, string[]>,
  fillings: Map<string, Filling>,
  writer: CodeWriter,
): string {
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
  return writer.toString();
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

function importText(spec: ImportSpec): string {
  const clauses: string[] = [];
  if (spec.namespace !== undefined) clauses.push(`* as ${spec.namespace}`);
  if (spec.named !== undefined) clauses.push(`{ ${spec.named.join(", ")} }`);
  const kind = spec.typeOnly === true ? "import type" : "import";
  return `${kind} ${clauses.join(", ")} from ${escapeText(spec.module, "string")};`;
}

/** One module being printed: its writer, and where fillings get their placeholders. */
interface Output {
  writer: CodeWriter;
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
    case "text":
      return type.text;
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
