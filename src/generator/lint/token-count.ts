/**
 * A real tokenizer for `lint`: OpenAI's o200k_base (GPT-4o and later) through js-tiktoken, pure
 * JavaScript (no native or WASM build). Loaded only when `lint` runs: its rank table is a few MB
 * that `serve` and `generate` never need.
 */
export const TOKENIZER_NAME = "o200k_base (js-tiktoken)";

export async function loadTokenCounter(): Promise<(text: string) => number> {
  const [{ Tiktoken }, ranks] = await Promise.all([
    import("js-tiktoken/lite"),
    import("js-tiktoken/ranks/o200k_base"),
  ]);
  const encoder = new Tiktoken(ranks.default);
  return (text) => encoder.encode(text).length;
}
