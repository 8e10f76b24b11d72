/**
 * TypeScript text of a type as data (schema-types.ts), for code mode's signatures: on one line
 * without documentation (search results), or one property a line with its TSDoc (the full
 * declarations of describe). The generated project prints the same types through its code
 * printer (codegen/print); this is the runtime's small printer, which loads no package.
 *
 * Spec text reaches the output only as string literals (JSON strings, which are TypeScript
 * strings), quoted property names and comments, whose `*\/` is broken up.
 */
import type { TypeNode, TypeProperty } from "./schema-types.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Where a type stands: inside a union, intersection or array a union needs parentheses. */
type Position = "inline" | "member";

export interface TypeTextOptions {
  /** One property a line with its docs, indented by this much per level; absent: one line. */
  indent?: string;
}

/** A property name as TypeScript writes it: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Text for inside a comment: it cannot end the comment. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** The TSDoc lines of `docs` at `indent` (none for no text). */
export function docLines(docs: string | undefined, indent: string): string[] {
  if (docs === undefined || docs.trim() === "") return [];
  const lines = commentText(docs.trim()).split("\n");
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [
    `${indent}/**`,
    ...lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`),
    `${indent} */`,
  ];
}

/** The text of `type`; `level` is the indentation level of the line it starts on. */
export function typeText(type: TypeNode, options: TypeTextOptions = {}, level = 0): string {
  return write(type, options, level, "inline");
}

function write(type: TypeNode, options: TypeTextOptions, level: number, position: Position): string {
  switch (type.kind) {
    case "keyword":
      return type.name;
    case "literal":
      return typeof type.value === "string" ? JSON.stringify(type.value) : String(type.value);
    case "ref":
      return type.name;
    case "text":
      return type.text;
    case "array":
      // A union or intersection item comes back in parentheses: `(A | B)[]`.
      return `${write(type.items, options, level, "member")}[]`;
    case "tuple": {
      const items = type.items.map((item) => write(item, options, level, "inline"));
      if (type.rest !== undefined) items.push(`...Array<${write(type.rest, options, level, "inline")}>`);
      return `[${items.join(", ")}]`;
    }
    case "object":
      return objectText(type.properties, type.index, options, level);
    case "union":
    case "intersection": {
      const text = type.members
        .map((member) => write(member, options, level, "member"))
        .join(type.kind === "union" ? " | " : " & ");
      return position === "member" ? `(${text})` : text;
    }
  }
}

/** An object type's body, or `Record<string, T>` when it names no property. */
export function objectText(
  properties: TypeProperty[],
  index: TypeNode | undefined,
  options: TypeTextOptions,
  level = 0,
): string {
  if (properties.length === 0) {
    return `Record<string, ${index === undefined ? "never" : write(index, options, level, "inline")}>`;
  }
  const members = properties.map((property) => ({
    docs: property.docs,
    text: `${propertyKey(property.name)}${property.optional ? "?" : ""}: ${write(property.type, options, level + 1, "inline")}`,
  }));
  if (index !== undefined) {
    members.push({ docs: undefined, text: `[key: string]: ${write(index, options, level + 1, "inline")}` });
  }
  if (options.indent === undefined) return `{ ${members.map((m) => m.text).join("; ")} }`;
  const inner = options.indent.repeat(level + 1);
  const lines = members.flatMap((m) => [...docLines(m.docs, inner), `${inner}${m.text};`]);
  return `{\n${lines.join("\n")}\n${options.indent.repeat(level)}}`;
}
