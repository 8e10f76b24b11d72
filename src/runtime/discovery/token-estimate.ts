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

/** About how many o200k_base tokens `text` is. */
export function estimateTokens(text: string): number {
  // One pass over the characters (a regular expression's matches cost about 8x as much: the
  // estimate runs over every tool's input schema at each start, for --mode auto).
  let pieces = 0;
  let kind = SPACE;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const next = classifyCharacter(text.charCodeAt(i));
    if (next !== kind || next === SPACE) {
      pieces += countPieces(kind, length);
      kind = next;
      length = 0;
    }
    if (next !== SPACE) length++;
  }
  pieces += countPieces(kind, length);
  return Math.round(pieces / PIECES_PER_TOKEN);
}

const SPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const SYMBOL = 3;

/** The kind of a UTF-16 unit: an ASCII letter, a digit, white space (as `\s` has it), or else a symbol. */
function classifyCharacter(c: number): number {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return LETTER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || c === 0xfeff) return SPACE;
  if ((c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f)
    return SPACE;
  return c === 0x3000 ? SPACE : SYMBOL;
}

/** Pieces of one run of `length` characters of a kind. */
function countPieces(kind: number, length: number): number {
  if (length === 0) return 0;
  return Math.ceil(
    length / (kind === LETTER ? LETTERS_PER_TOKEN : kind === DIGIT ? DIGITS_PER_TOKEN : SYMBOLS_PER_TOKEN),
  );
}
