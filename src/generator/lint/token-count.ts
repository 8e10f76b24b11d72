/**
 * A real tokenizer for `lint`: OpenAI's o200k_base (GPT-4o and later) through js-tiktoken, pure
 * JavaScript (no native or WASM build). Loaded only when `lint` runs: its rank table is a few MB
 * that `serve` and `generate` never need, and it is an optional dependency (21 MB installed).
 */
import { failMissingPackages, isMissingPackageError } from "../shared/optional-package.js";

export const TOKENIZER_NAME = "o200k_base (js-tiktoken)";

/** The tokenizer; OMB_OPTIONAL_PACKAGE_MISSING when js-tiktoken (an optional dependency) is not installed. */
export async function loadTokenCounter(): Promise<(text: string) => number> {
  const [{ Tiktoken }, ranks] = await Promise.all([
    import("js-tiktoken/lite"),
    import("js-tiktoken/ranks/o200k_base"),
  ]).catch((error: unknown) => {
    if (isMissingPackageError(error, "js-tiktoken")) failMissingPackages("lint", ["js-tiktoken"]);
    throw error;
  });
  const encoder = new Tiktoken(ranks.default);
  // A spec's text is text: `<|endoftext|>` in a description counts as the characters it is
  // (js-tiktoken throws on special tokens by default, which ended `lint` on openai.com's spec).
  return (text) => encoder.encode(text, [], []).length;
}
