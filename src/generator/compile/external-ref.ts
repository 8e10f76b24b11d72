/**
 * Whether a spec file's bytes hold a `$ref` whose value does not start with `#` (JSON or YAML):
 * the spec is not self-contained, so the model cache, which hashes this one file, cannot key it.
 * The key starts a token (Graph's paths such as `"/groups/{id}/members/$ref":` end in `$ref` and
 * are no reference) and its value is a scalar, not a schema object or list.
 *
 * Read on the bytes, each `$ref` found by Buffer.indexOf and looked at around it: a regular
 * expression over the whole text needed the file decoded first (GitHub's 13 MB, with a few
 * characters beyond ASCII, became a two-byte string) and tried its pattern at every position;
 * together 10% of a `generate` from the model cache. A byte beyond ASCII next to the key is
 * read as possible white space (Unicode has some): the answer can only lean to "not
 * self-contained", which costs the cache, never a wrong model.
 */

const KEY = Buffer.from("$ref", "latin1");
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const COLON = 0x3a;
const HASH = 0x23;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;

export function hasExternalRef(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(KEY); at !== -1; at = bytes.indexOf(KEY, at + KEY.length)) {
    if (isExternalRefAt(bytes, at)) return true;
  }
  return false;
}

/** The `$ref` at `at` starts a token, is a key, and its value starts with something but `#`. */
function isExternalRefAt(bytes: Buffer, at: number): boolean {
  let before = at - 1;
  if (isQuote(bytes[before])) before--;
  const lead = bytes[before];
  if (lead !== undefined && !isSpace(lead) && lead !== OPEN_BRACE && lead !== COMMA && lead < 0x80)
    return false;
  let after = at + KEY.length;
  if (isQuote(bytes[after])) after++;
  after = skipSpaces(bytes, after);
  if (bytes[after] !== COLON) return bytes[after] !== undefined && bytes[after]! >= 0x80;
  after = skipSpaces(bytes, after + 1);
  if (isQuote(bytes[after])) after++;
  const first = bytes[after];
  if (first === undefined) return false;
  if (first >= 0x80) return true;
  return (
    first !== HASH &&
    !isSpace(first) &&
    !isQuote(first) &&
    first !== COMMA &&
    first !== OPEN_BRACE &&
    first !== CLOSE_BRACE &&
    first !== OPEN_BRACKET
  );
}

function skipSpaces(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}

/** ASCII white space as a regular expression's `\s` reads it. */
function isSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

function isQuote(byte: number | undefined): boolean {
  return byte === QUOTE || byte === APOSTROPHE;
}
