/**
 * An XML answer read into JSON, so the model reads compact JSON (no closing tags) and `fields`,
 * the budget's JSON cuts and continuation work for XML APIs (AWS EC2 and the query protocol,
 * others) as they do for JSON ones. One forward pass over the text, linear in its length, no
 * regular expression run on it, no recursion.
 *
 * The mapping:
 * - the root element's name is dropped: the answer is its content. A document has one root, and
 *   its name only repeats the operation (`DescribeInstancesResponse`); keeping it would add a
 *   step to every `fields` path (`reservationSet[].instancesSet[].instanceId`, not
 *   `DescribeInstancesResponse.reservationSet[]...`);
 * - an element with child elements is an object of them, a name that repeats is a list;
 *   attributes are `"@name"` keys, and the text of an element that has attributes `"#text"`;
 * - an element with only text is that string, as written (entities decoded): XML has no types,
 *   and guessing numbers would turn ids such as `0012` or `1e5` into other values;
 * - an element without attributes whose children are all `item` or all `member` is a list of
 *   them, even of one: how AWS wraps its lists (`<instancesSet><item/></instancesSet>`,
 *   `<Users><member/></Users>`), so one item has the shape of many;
 * - an empty element is "";
 * - an element named in `lists` (the spec's lists, generator/compile/xml-lists.ts) is a list even
 *   of one or none: without attributes and with children of one name (or none), it wraps the
 *   list (`[]` when empty); otherwise it is one item of a list that repeats it unwrapped;
 * - namespace declarations (`xmlns`, `xmlns:p`) are dropped; prefixes are kept as written
 *   (`soap:Body`): stripping them could merge two names into one, and `fields` paths then use
 *   the names the model reads.
 *
 * It refuses (undefined: the answer stays text) whatever it cannot read exactly: a DOCTYPE (no
 * entity is ever expanded beyond the five predefined ones and character references), an
 * encoding other than UTF-8, malformed markup, mixed content (text beside child elements, where
 * JSON has no place for the order), nesting deeper than MAX_JSON_DEPTH.
 */
import { isDeeperThan, MAX_JSON_DEPTH } from "../../model/json-depth.js";

interface Frame {
  name: string;
  /** `"@name"` keys and values, namespace declarations left out. */
  attributes: [string, string][];
  /** Child values by element name, names in the order they first appear (made for the first). */
  children: Map<string, unknown[]> | undefined;
  /** Names of children that are items of an unwrapped list: a list even when one. */
  listed: Set<string> | undefined;
  text: string;
}

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** `&#x10FFFF;` is the longest reference read: a longer one is malformed. */
const MAX_REFERENCE_CHARS = 10;

/**
 * The XML text as a JSON value, or undefined when it is not XML this reads exactly. `lists`:
 * element names that hold lists.
 */
export function readXmlAsJson(text: string, lists?: ReadonlySet<string>): unknown {
  const stack: Frame[] = [];
  let root: { value: unknown } | undefined;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const start = i;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const end = lt < 0 ? text.length : lt;
    if (end > i) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (!isBlank(text, i, end)) return undefined;
      } else {
        const decoded = decodeCharacterData(text.slice(i, end));
        if (decoded === undefined) return undefined;
        top.text += decoded;
      }
      i = end;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    if (text.startsWith("<!--", i)) {
      const close = text.indexOf("-->", i + 4);
      if (close < 0) return undefined;
      i = close + 3;
    } else if (text.startsWith("<![CDATA[", i)) {
      const close = text.indexOf("]]>", i + 9);
      const top = stack[stack.length - 1];
      if (close < 0 || top === undefined) return undefined;
      top.text += normaliseLineEnds(text.slice(i + 9, close));
      i = close + 3;
    } else if (next === 0x21 /* ! */) {
      // A DOCTYPE (a DTD can define entities: none is ever expanded) or another declaration.
      return undefined;
    } else if (next === 0x3f /* ? */) {
      const close = text.indexOf("?>", i + 2);
      if (close < 0) return undefined;
      if (i === start && isDeclaration(text, i) && !isUtf8Declaration(text.slice(i, close))) return undefined;
      i = close + 2;
    } else if (next === 0x2f /* / */) {
      const nameEnd = readName(text, i + 2);
      const top = stack.pop();
      if (top === undefined || text.slice(i + 2, nameEnd) !== top.name) return undefined;
      const close = skipBlanks(text, nameEnd);
      if (text.charCodeAt(close) !== 0x3e /* > */) return undefined;
      i = close + 1;
      const parent = stack[stack.length - 1];
      const value = finishElement(top, parent, lists);
      if (value === REFUSED) return undefined;
      if (parent === undefined) root = { value };
    } else {
      if (root !== undefined) return undefined;
      const tag = readStartTag(text, i);
      if (tag === undefined) return undefined;
      i = tag.end;
      const frame: Frame = {
        name: tag.name,
        attributes: tag.attributes,
        children: undefined,
        listed: undefined,
        text: "",
      };
      const parent = stack[stack.length - 1];
      if (!tag.empty) {
        if (stack.length >= MAX_JSON_DEPTH) return undefined;
        stack.push(frame);
      } else {
        const value = finishElement(frame, parent, lists);
        if (parent === undefined) root = { value };
      }
    }
  }
  if (root === undefined || stack.length > 0) return undefined;
  // Lists add a level of their own: the JSON can nest deeper than the elements.
  return isDeeperThan(root.value, MAX_JSON_DEPTH) ? undefined : root.value;
}

/** A value no JSON has: the element is mixed content. */
const REFUSED = Symbol("refused");

/** The closed element's value, added to its parent's children; REFUSED for mixed content. */
function finishElement(
  frame: Frame,
  parent: Frame | undefined,
  lists: ReadonlySet<string> | undefined,
): unknown {
  const listed = lists?.has(frame.name) === true;
  const wraps = listed && isWrapper(frame);
  const value = wraps ? (frame.children?.values().next().value ?? []) : toElementValue(frame);
  if (value !== REFUSED && parent !== undefined) addChild(parent, frame.name, value, listed && !wraps);
  return value;
}

function toElementValue(frame: Frame): unknown {
  const { text, children, attributes } = frame;
  if (children === undefined) {
    if (attributes.length === 0) return text;
    const value: Record<string, unknown> = {};
    for (const [key, attribute] of attributes) value[key] = attribute;
    if (text !== "") value["#text"] = text;
    return value;
  }
  if (!isBlank(text, 0, text.length)) return REFUSED;
  if (attributes.length === 0 && children.size === 1) {
    const [name, values] = children.entries().next().value!;
    if (name === "item" || name === "member") return values;
  }
  const value: Record<string, unknown> = {};
  for (const [key, attribute] of attributes) value[key] = attribute;
  for (const [name, values] of children) {
    defineKey(value, name, values.length === 1 && !frame.listed?.has(name) ? values[0] : values);
  }
  return value;
}

/** No attributes, no text, and children of one name or none: it wraps a list. */
function isWrapper(frame: Frame): boolean {
  if (frame.attributes.length > 0 || !isBlank(frame.text, 0, frame.text.length)) return false;
  return frame.children === undefined || frame.children.size === 1;
}

/** `record[key] = value`, for `__proto__` too (an assignment would set the prototype). */
function defineKey(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else record[key] = value;
}

/** `item`: the value is one item of a list that repeats its element unwrapped. */
function addChild(parent: Frame, name: string, value: unknown, item: boolean): void {
  if (item) {
    parent.listed ??= new Set();
    parent.listed.add(name);
  }
  parent.children ??= new Map();
  const values = parent.children.get(name);
  if (values) values.push(value);
  else parent.children.set(name, [value]);
}

/** `<name attr="v" ...>` or `<name .../>` from `at` (its `<`), or undefined when malformed. */
function readStartTag(
  text: string,
  at: number,
): { name: string; attributes: [string, string][]; empty: boolean; end: number } | undefined {
  const nameEnd = readName(text, at + 1);
  if (nameEnd === at + 1) return undefined;
  const attributes: [string, string][] = [];
  let seen: Set<string> | undefined;
  let i = nameEnd;
  for (;;) {
    const after = skipBlanks(text, i);
    const code = text.charCodeAt(after);
    if (code === 0x3e /* > */)
      return { name: text.slice(at + 1, nameEnd), attributes, empty: false, end: after + 1 };
    if (code === 0x2f /* / */) {
      if (text.charCodeAt(after + 1) !== 0x3e) return undefined;
      return { name: text.slice(at + 1, nameEnd), attributes, empty: true, end: after + 2 };
    }
    // Attributes are separated by white space.
    if (after === i) return undefined;
    const attrEnd = readName(text, after);
    if (attrEnd === after) return undefined;
    const name = text.slice(after, attrEnd);
    const equals = skipBlanks(text, attrEnd);
    if (text.charCodeAt(equals) !== 0x3d /* = */) return undefined;
    const open = skipBlanks(text, equals + 1);
    const quote = text[open];
    if (quote !== '"' && quote !== "'") return undefined;
    const close = text.indexOf(quote, open + 1);
    seen ??= new Set();
    if (close < 0 || seen.has(name)) return undefined;
    seen.add(name);
    const raw = text.slice(open + 1, close);
    if (raw.includes("<")) return undefined;
    // Attribute values are normalised: each line end, tab or newline is a space (XML 1.0 §3.3.3).
    const value = decodeCharacterData(normaliseLineEnds(raw).replace(/[\t\n]/g, " "));
    if (value === undefined) return undefined;
    if (name !== "xmlns" && !name.startsWith("xmlns:")) attributes.push([`@${name}`, value]);
    i = close + 1;
  }
}

/** The end of the XML name starting at `at` (`at` itself when there is none). */
function readName(text: string, at: number): number {
  if (!isNameStart(text.charCodeAt(at))) return at;
  let i = at + 1;
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

function isNameStart(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x5f ||
    code === 0x3a ||
    code >= 0x80
  );
}

function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e;
}

function skipBlanks(text: string, at: number): number {
  let i = at;
  while (i < text.length && isBlankCode(text.charCodeAt(i))) i++;
  return i;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isBlankCode(text.charCodeAt(i))) return false;
  return true;
}

function isBlankCode(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** `<?xml ` (the declaration), not another processing instruction such as `<?xml-stylesheet`. */
function isDeclaration(text: string, at: number): boolean {
  return text.startsWith("<?xml", at) && isBlankCode(text.charCodeAt(at + 5));
}

/** The body was decoded as UTF-8: a declaration naming another encoding cannot be read exactly. */
function isUtf8Declaration(declaration: string): boolean {
  const at = declaration.indexOf("encoding");
  if (at < 0) return true;
  const equals = skipBlanks(declaration, at + 8);
  if (declaration[equals] !== "=") return false;
  const open = skipBlanks(declaration, equals + 1);
  const name = declaration.slice(open + 1, open + 10).toLowerCase();
  return ["utf-8", "utf8", "us-ascii"].some((encoding) => name.startsWith(`${encoding}${declaration[open]}`));
}

/** XML reads every line end as a newline (XML 1.0 §2.11). */
function normaliseLineEnds(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** Character data with its references decoded, or undefined when one is malformed or unknown. */
function decodeCharacterData(raw: string): string | undefined {
  const text = normaliseLineEnds(raw);
  let amp = text.indexOf("&");
  if (amp < 0) return text;
  let out = "";
  let from = 0;
  while (amp >= 0) {
    const semi = text.indexOf(";", amp + 1);
    if (semi < 0 || semi - amp > MAX_REFERENCE_CHARS) return undefined;
    const decoded = decodeReference(text.slice(amp + 1, semi));
    if (decoded === undefined) return undefined;
    out += text.slice(from, amp) + decoded;
    from = semi + 1;
    amp = text.indexOf("&", from);
  }
  return out + text.slice(from);
}

/** `amp`, `#38` or `#x26` → its character; anything else (a DTD's entity) undefined. */
function decodeReference(name: string): string | undefined {
  if (!name.startsWith("#")) return Object.hasOwn(PREDEFINED, name) ? PREDEFINED[name] : undefined;
  const hex = name[1] === "x";
  const digits = name.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  return isXmlChar(code) ? String.fromCodePoint(code) : undefined;
}

/** The characters a document may hold (XML 1.0 §2.2): no NUL, other C0 controls or surrogates. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
