/**
 * Ajv compilation of input schemas: spec regexes (`pattern`, `patternProperties`, the regex
 * formats) run in bounded time (regex/bounded-regexp.ts), lenient about patterns written for
 * other regex dialects, shared per schema object, and spread over fresh Ajv instances so that
 * no instance grows with every schema a long-running bridge ever compiled.
 */
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import type { JsonSchema } from "../../model/types.js";
import { createInputAjv } from "./bounded-formats.js";

/**
 * Ajv keeps every schema it compiled in its instance (code scope), so one instance per process
 * would grow with every schema ever compiled. Instead a fresh instance takes over after this many
 * compilations; an old one is freed once no validator compiled by it is referenced any more.
 */
const COMPILES_PER_AJV = 200;

interface AjvSlot {
  ajv: Ajv2020;
  compiled: number;
}

let currentSlot: AjvSlot | undefined;

/** Validators shared by every validator built for the same schema object. */
const compiledBySchema = new WeakMap<object, ValidateFunction>();

export function compileSchema(schema: JsonSchema): ValidateFunction {
  if (!currentSlot || currentSlot.compiled >= COMPILES_PER_AJV)
    currentSlot = { ajv: createInputAjv(), compiled: 0 };
  currentSlot.compiled += 1;
  const { ajv } = currentSlot;
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
  }
}

export function compileOrError(schema: JsonSchema): ValidateFunction | Error {
  const known = compiledBySchema.get(schema);
  if (known) return known;
  try {
    const validate = compileSchema(schema);
    compiledBySchema.set(schema, validate);
    return validate;
  } catch (error) {
    return new Error(`Cannot compile the tool's input schema: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Optional properties of strict-profile schemas
