/**
 * A module as data, the way emitters describe it to the printer: imports, interfaces, type
 * aliases and constants with JSON-like values. Spec text goes only into names, docs and values,
 * which the printer escapes; `Expression`s and `code` are fixed text of the generator.
 */
import type { TypeNode, TypeProperty } from "../../../runtime/code/schema-types.js";

/** Types as data come from the one JSON Schema → TypeScript conversion, shared with code mode. */
export type { TypeNode, TypeProperty };

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
