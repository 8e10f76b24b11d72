/**
 * Tokens of tool definitions, estimated without a tokenizer: the runtime decides `--mode auto`
 * at every start, and loading a real tokenizer (o200k_base's rank table is a few MB) would cost
 * that start more than the decision is worth.
 *
 * The text is cut the way BPE pre-tokenizers cut it (runs of letters, of digits, of other
 * symbols; whitespace joins the next piece), each run counted by its length, and the sum scaled.
 * Calibrated against js-tiktoken's o200k_base on the tools of GitHub, Gitea, petstore and 55
 * specs of the corpus (name + description + input schema JSON): the estimate is within -9% and
 * +5% of the real count on every one of them (characters / 4 is off by -20% to +20%). The test
 * test/unit/runtime/discovery/token-estimate.test.ts checks it against the tokenizer.
 */

/** Characters of one token, by kind of run: long words split, digits pair up, symbols pair up. */
const LETTERS_PER_TOKEN = 7;
const DIGITS_PER_TOKEN = 2;
const SYMBOLS_PER_TOKEN = 2;
/** The estimate's pieces per real token, measured (median over the calibration specs). */
const PIECES_PER_TOKEN = 1.275;

const RUN = /[A-Za-z]+|[0-9]+|[^\sA-Za-z0-9]+/g;

/** About how many o200k_base tokens `text` is. */
export function estimateTokens(text: string): number {
  let pieces = 0;
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    const c = run.charCodeAt(0);
    const isLetter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    const isDigit = c >= 48 && c <= 57;
    const per = isLetter ? LETTERS_PER_TOKEN : isDigit ? DIGITS_PER_TOKEN : SYMBOLS_PER_TOKEN;
    pieces += Math.ceil(run.length / per);
  }
  return Math.round(pieces / PIECES_PER_TOKEN);
}
