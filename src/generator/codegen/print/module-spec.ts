/**
 * A module as data, the way emitters describe it to the printer: imports, interfaces, type
 * aliases and constants with JSON-like values. Spec text goes only into names, docs and values,
 * which the printer escapes; `Expression`s and `code` are fixed text of the generator.
 */
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
