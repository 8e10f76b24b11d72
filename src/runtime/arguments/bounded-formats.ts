/**
 * The bridge's Ajv instances, made in one place: every schema the model holds is JSON Schema
 * 2020-12 (model/types.ts), so input schemas (compile-schema.ts) and output schemas (the MCP
 * SDK's validator, which the engine hands `createOutputAjv()`) are compiled by Ajv2020, with
 * spec regexes (`pattern`, `patternProperties`, the regex formats) run by the bounded engine
 * (regex/bounded-regexp.ts) and patterns written for other regex dialects ignored rather than
 * breaking the tool. Loaded with the runtime: the MCP SDK's own validator loads ajv and
 * ajv-formats anyway.
 */
import type { Ajv, Format } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { boundedRegExp } from "../regex/bounded-regexp.js";
import { INPUT_AJV_OPTIONS } from "./input-ajv-options.js";

/**
 * ajv-formats, with each format that is a regular expression run by the bounded engine: the
 * `url` one backtracks polynomially (8,000 characters take 90 ms, and it grows with the cube).
 */
export function addBoundedFormats(ajv: Ajv | Ajv2020): void {
  ajvFormats.default(ajv);
  for (const [name, format] of Object.entries(fullFormats)) {
    const regex = format instanceof RegExp ? format : isRegexFormat(format) ? format.validate : undefined;
    if (!regex) continue;
    const bounded = boundedRegExp(regex.source, regex.flags.includes("u") ? regex.flags : `${regex.flags}u`);
    ajv.addFormat(name, { type: "string", validate: (value: string) => bounded.test(value) });
  }
}

function isRegexFormat(format: Format): format is { validate: RegExp } {
  return typeof format === "object" && !(format instanceof RegExp) && format.validate instanceof RegExp;
}

/**
 * A JSON Schema 2020-12 Ajv with the bounded regex engine and formats. Schemas are not
 * meta-validated (the planner emits them; checking each would cost more than compiling it) and
 * not strict (specs carry keywords of their own).
 */
function createBoundedAjv2020(): Ajv2020 {
  const ajv = new Ajv2020(INPUT_AJV_OPTIONS);
  addBoundedFormats(ajv);
  return ajv;
}

/** The Ajv input schemas (tool arguments) are compiled by. */
export function createInputAjv(): Ajv2020 {
  return createBoundedAjv2020();
}

/**
 * The Ajv output schemas are compiled by (the MCP SDK's validator takes one): an upstream
 * answer is checked against the same dialect, spec patterns and formats as the arguments.
 * Typed as the SDK's `Ajv` parameter: Ajv2020 and Ajv share their core and differ only in the
 * dialect they are built with.
 */
export function createOutputAjv(): Ajv {
  return createBoundedAjv2020() as unknown as Ajv;
}
