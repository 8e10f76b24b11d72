/**
 * The options of the Ajv that compiles input schemas, apart from Ajv itself so that the planner
 * (generator/compile/input-schema-check.ts) compiles each tool's input schema at build time
 * exactly as a call will, without loading the runtime's packages through it.
 */
import { boundedRegExpEngine } from "../regex/bounded-regexp.js";

export const INPUT_AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: true,
  validateSchema: false,
  verbose: true,
  logger: false,
  addUsedSchema: false,
  code: { regExp: boundedRegExpEngine },
} as const;
