/**
 * ajv-formats for the bridge's Ajv instances (input and output schemas), with every format that
 * is a regular expression run by the bounded engine; and the Ajv the output checks use. Loaded
 * with the runtime: the MCP SDK's own validator loads ajv and ajv-formats anyway.
 */
import { Ajv, type Format } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { boundedRegExp, boundedRegExpEngine } from "../regex/bounded-regexp.js";

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
 * An Ajv for output schemas (the MCP SDK's validator takes one), with the same bounded regex
 * engine and formats: an upstream answer is checked against spec patterns too.
 */
export function createOutputAjv(): Ajv {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: boundedRegExpEngine },
  });
  addBoundedFormats(ajv);
  return ajv;
}
