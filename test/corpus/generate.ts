/**
 * Valid tool arguments from a tool's input schema (JSON Schema 2020-12, local `$defs`), for the
 * corpus harness: what a careful client would send.
 *
 * Deterministic (no randomness: the same schema always gives the same arguments) and small on
 * purpose. It honours `type` (first non-null type of a list), `const`, `enum` (first value),
 * `format`, `pattern` (a sampler for the common regular-expression subset, checked with the real
 * RegExp, then fallbacks), `minLength`/`maxLength`, `minimum`/`maximum`/`exclusive*`/`multipleOf`,
 * `items`/`prefixItems`/`minItems`/`maxItems`/`uniqueItems`, `properties`/`required`/
 * `minProperties`/`maxProperties`/`additionalProperties`, `allOf` (merged), `oneOf`/`anyOf` (the
 * first branch whose value the whole schema accepts), `contentEncoding: base64` and local `$ref`s.
 *
 * Optional properties are included too (every top-level argument, nested ones down to
 * `optionalDepth`), so every parameter location and body shape of an operation is exercised.
 * `readOnly` properties are never generated (they are not sent in requests).
 *
 * Why not json-schema-faker: it is random by design (seedable, but its output changes with its
 * version and option defaults), it is Prism's own generator (the judge should not share code
 * with the candidate's inputs), and it is far larger than what is needed here.
 */

type Schema = Record<string, unknown>;

export interface GenerateOptions {
  /**
   * Include optional properties down to this object depth (0 = only the top-level arguments;
   * -1 = none at all: the minimal call, required properties only at every depth).
   */
  optionalDepth: number;
  /** Stop descending past this depth (recursive schemas); deeper required values get a minimum. */
  maxDepth: number;
  /** Checks a candidate value against a sub-schema (used to choose oneOf/anyOf branches). */
  accepts?: (schema: Schema, value: unknown) => boolean;
}

const DEFAULTS: GenerateOptions = { optionalDepth: 3, maxDepth: 10 };

const FORMAT_VALUES: Record<string, string> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  duration: "P1D",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/a",
  url: "https://example.com/a",
  iri: "https://example.com/a",
  "uri-reference": "https://example.com/a",
  "iri-reference": "https://example.com/a",
  "uri-template": "https://example.com/{a}",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  "json-pointer": "/a",
  "relative-json-pointer": "0/a",
  regex: "^a$",
  byte: "aGVsbG8=",
  binary: "aGVsbG8=",
  base64: "aGVsbG8=",
  password: "secret-1",
  int32: "1",
  int64: "1",
  float: "1.5",
  double: "1.5",
  decimal: "1.5",
};

const STRING_FALLBACKS = ["string", "a", "1", "abc", "A", "abc123", "a1", "0", "x-1", "example"];

export function generateValue(
  root: Schema,
  schema: unknown,
  options: Partial<GenerateOptions> = {},
): unknown {
  const generator = new ValueGenerator(root, { ...DEFAULTS, ...options });
  return generator.value(schema, 0, 0);
}

/** Arguments for a tool: an object with every top-level property the input schema declares. */
export function generateArguments(
  inputSchema: Schema,
  options: Partial<GenerateOptions> = {},
): Record<string, unknown> {
  const value = generateValue(inputSchema, inputSchema, options);
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

class ValueGenerator {
  constructor(
    private readonly root: Schema,
    private readonly options: GenerateOptions,
  ) {}

  /** `variant` makes sibling array items differ (uniqueItems) without randomness. */
  value(input: unknown, depth: number, variant: number): unknown {
    if (input === true || input === undefined) return variant === 0 ? "string" : `string${variant}`;
    if (input === false || input === null || typeof input !== "object") return null;
    const schema = this.flatten(input as Schema, 0);
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      // Values of the declared type first: real specs list "" in a number enum, say.
      const values = schema.enum.filter((v) => v !== null && fitsType(schema.type, v));
      const pool = values.length > 0 ? values : schema.enum.filter((v) => v !== null);
      const all = pool.length > 0 ? pool : schema.enum;
      return all[variant % all.length];
    }
    const branches = (schema.oneOf ?? schema.anyOf) as unknown;
    if (Array.isArray(branches) && branches.length > 0)
      return this.chooseBranch(schema, branches, depth, variant);
    if (depth > this.options.maxDepth + 10) return null;
    switch (this.typeOf(schema)) {
      case "null":
        return null;
      case "boolean":
        return variant % 2 === 0;
      case "integer":
        return this.number(schema, true, variant);
      case "number":
        return this.number(schema, false, variant);
      case "array":
        return this.array(schema, depth, variant);
      case "object":
        return this.object(schema, depth, variant);
      default:
        return this.string(schema, variant);
    }
  }

  /** Resolves `$ref`s and merges `allOf` into one schema (sibling keywords kept). */
  private flatten(schema: Schema, hops: number): Schema {
    let current = schema;
    if (typeof current.$ref === "string" && hops < 50) {
      const target = this.resolve(current.$ref);
      const { $ref: _ref, ...siblings } = current;
      current = this.merge(this.flatten(target, hops + 1), siblings);
    }
    if (Array.isArray(current.allOf) && hops < 50) {
      const { allOf, ...rest } = current;
      let merged: Schema = rest;
      for (const part of allOf) {
        if (part !== null && typeof part === "object")
          merged = this.merge(merged, this.flatten(part as Schema, hops + 1));
      }
      current = merged;
    }
    return current;
  }

  private resolve(ref: string): Schema {
    if (!ref.startsWith("#")) return {};
    const tokens = ref
      .slice(1)
      .split("/")
      .slice(1)
      .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
    let node: unknown = this.root;
    for (const token of tokens) {
      if (node === null || typeof node !== "object") return {};
      node = (node as Record<string, unknown>)[token];
    }
    return node !== null && typeof node === "object" ? (node as Schema) : {};
  }

  /** Both schemas at once (the `allOf` of two): the narrower bound of each keyword wins. */
  private merge(a: Schema, b: Schema): Schema {
    const out: Schema = { ...a };
    for (const [key, value] of Object.entries(b)) {
      const mine = out[key];
      if (mine === undefined) {
        out[key] = value;
        continue;
      }
      switch (key) {
        case "properties": {
          const props = { ...(mine as Schema) };
          for (const [name, schema] of Object.entries(value as Schema)) {
            props[name] = props[name] === undefined ? schema : { allOf: [props[name], schema] };
          }
          out[key] = props;
          break;
        }
        case "required":
          out[key] = [...new Set([...(mine as string[]), ...(value as string[])])];
          break;
        case "type": {
          const left = Array.isArray(mine) ? mine : [mine];
          const right = Array.isArray(value) ? value : [value];
          const both = left.filter((t) => right.includes(t) || (t === "number" && right.includes("integer")));
          out[key] =
            both.length > 0
              ? both.map((t) => (t === "number" && right.includes("integer") ? "integer" : t))
              : right;
          break;
        }
        case "minimum":
        case "exclusiveMinimum":
        case "minLength":
        case "minItems":
        case "minProperties":
          out[key] = Math.max(mine as number, value as number);
          break;
        case "maximum":
        case "exclusiveMaximum":
        case "maxLength":
        case "maxItems":
        case "maxProperties":
          out[key] = Math.min(mine as number, value as number);
          break;
        case "enum": {
          const allowed = (mine as unknown[]).filter((v) =>
            (value as unknown[]).some((w) => JSON.stringify(w) === JSON.stringify(v)),
          );
          out[key] = allowed.length > 0 ? allowed : value;
          break;
        }
        case "oneOf":
        case "anyOf":
          out.allOf = [...((out.allOf as unknown[]) ?? []), { [key]: value }];
          break;
        default:
          break;
      }
    }
    return out;
  }

  private chooseBranch(schema: Schema, branches: unknown[], depth: number, variant: number): unknown {
    const { oneOf: _oneOf, anyOf: _anyOf, ...base } = schema;
    const candidates: unknown[] = [];
    const ordered = [...branches].sort((x, y) => nullRank(x) - nullRank(y));
    for (const branch of ordered) {
      if (branch === null || typeof branch !== "object") continue;
      const value = this.value(this.merge(base, this.flatten(branch as Schema, 0)), depth, variant);
      if (!this.options.accepts || this.options.accepts(schema, value)) return value;
      candidates.push(value);
    }
    return candidates[0] ?? null;
  }

  private typeOf(schema: Schema): string {
    const type = schema.type;
    if (typeof type === "string") return type;
    if (Array.isArray(type)) {
      const real = type.filter((t) => t !== "null");
      return (real[0] as string | undefined) ?? "null";
    }
    if (schema.properties !== undefined || schema.additionalProperties !== undefined || schema.required)
      return "object";
    if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
    if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined)
      return "number";
    return "string";
  }

  private number(schema: Schema, integer: boolean, variant: number): number {
    const step =
      typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : 1;
    let lo = typeof schema.minimum === "number" ? schema.minimum : undefined;
    let hi = typeof schema.maximum === "number" ? schema.maximum : undefined;
    const exLo = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
    const exHi = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
    if (exLo !== undefined && (lo === undefined || exLo >= lo))
      lo = exLo + (integer ? 1 : Math.min(step, 0.5));
    if (exHi !== undefined && (hi === undefined || exHi <= hi))
      hi = exHi - (integer ? 1 : Math.min(step, 0.5));
    if (integer) {
      if (lo !== undefined) lo = Math.ceil(lo);
      if (hi !== undefined) hi = Math.floor(hi);
    }
    let value = lo ?? (hi !== undefined ? Math.min(hi, 1) : 1);
    value += variant * step;
    if (step !== 1 || integer) value = Math.ceil(value / step - 1e-9) * step;
    if (hi !== undefined && value > hi) value = Math.floor(hi / step + 1e-9) * step;
    if (lo !== undefined && value < lo) value = lo;
    return Number(value.toPrecision(12));
  }

  private string(schema: Schema, variant: number): string {
    const format = typeof schema.format === "string" ? schema.format : undefined;
    const pattern = typeof schema.pattern === "string" ? compilePattern(schema.pattern) : undefined;
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
    const fits = (text: string) => {
      const length = [...text].length;
      return length >= min && length <= max && (pattern === undefined || pattern.test(text));
    };
    const candidates: string[] = [];
    if (schema.contentEncoding === "base64") candidates.push("aGVsbG8=");
    if (format !== undefined && FORMAT_VALUES[format] !== undefined) candidates.push(FORMAT_VALUES[format]);
    if (pattern !== undefined) {
      const sampled = samplePattern(schema.pattern as string, min);
      if (sampled !== undefined) candidates.push(sampled);
    }
    for (const key of ["default", "example"]) {
      if (typeof schema[key] === "string") candidates.push(schema[key] as string);
    }
    if (Array.isArray(schema.examples)) {
      for (const example of schema.examples) if (typeof example === "string") candidates.push(example);
    }
    candidates.push(...STRING_FALLBACKS);
    // An empty default or example ("") says nothing and cannot fill a path segment: last resort.
    candidates.sort((a, b) => Number(a === "") - Number(b === ""));
    const varied = (text: string) => (variant === 0 ? text : `${text}${variant}`);
    for (const candidate of candidates) if (fits(varied(candidate))) return varied(candidate);
    for (const candidate of candidates) if (fits(candidate)) return candidate;
    // Repeat or cut a candidate to the length bounds.
    for (const candidate of candidates) {
      let text = varied(candidate);
      while ([...text].length < min) text += text;
      if (Number.isFinite(max)) text = [...text].slice(0, max).join("");
      if (fits(text)) return text;
    }
    const plain = "a".repeat(Math.max(min, 1));
    return Number.isFinite(max) ? plain.slice(0, max) : plain;
  }

  private array(schema: Schema, depth: number, variant: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
    // Two items where allowed: one item cannot tell a delimiter or an exploded form from none.
    let count = Math.max(min, prefix.length, 2);
    if (count > max) count = max;
    if (depth >= this.options.maxDepth) count = Math.min(count, Math.max(min, 0));
    const items: unknown[] = [];
    const unique = schema.uniqueItems === true;
    for (let i = 0; i < count; i++) {
      const itemSchema = i < prefix.length ? prefix[i] : schema.items;
      items.push(this.value(itemSchema, depth + 1, unique ? variant + i : variant));
    }
    return items;
  }

  private object(schema: Schema, depth: number, variant: number): Record<string, unknown> {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const out: Record<string, unknown> = {};
    const includeOptional = depth <= this.options.optionalDepth && depth < this.options.maxDepth;
    const maxProperties =
      typeof schema.maxProperties === "number" ? schema.maxProperties : Number.POSITIVE_INFINITY;
    const names = [
      ...Object.keys(properties).filter((n) => required.has(n)),
      ...Object.keys(properties).filter((n) => !required.has(n)),
    ];
    for (const name of names) {
      const isRequired = required.has(name);
      if (!isRequired && (!includeOptional || Object.keys(out).length >= maxProperties)) continue;
      const propertySchema = properties[name];
      if (!isRequired && this.readOnly(propertySchema)) continue;
      out[name] = this.value(propertySchema, depth + 1, variant);
    }
    for (const name of required) {
      if (!(name in out)) out[name] = this.value(this.additional(schema), depth + 1, variant);
    }
    const minProperties = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    for (let i = 0; Object.keys(out).length < minProperties && i < 100; i++) {
      const extra = this.additional(schema);
      if (extra === false) break;
      out[`key${i + 1}`] = this.value(extra, depth + 1, variant + i);
    }
    return out;
  }

  private readOnly(schema: unknown): boolean {
    return (
      schema !== null && typeof schema === "object" && this.flatten(schema as Schema, 0).readOnly === true
    );
  }

  private additional(schema: Schema): unknown {
    const extra = schema.additionalProperties;
    return extra === undefined ? true : extra;
  }
}

function fitsType(type: unknown, value: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    switch (t) {
      case "integer":
        return Number.isInteger(value);
      case "number":
        return typeof value === "number";
      case "string":
        return typeof value === "string";
      case "boolean":
        return typeof value === "boolean";
      case "array":
        return Array.isArray(value);
      case "object":
        return value !== null && typeof value === "object" && !Array.isArray(value);
      default:
        return value === null;
    }
  });
}

/** Branches that allow something besides null first: a null says little about the request. */
function nullRank(branch: unknown): number {
  if (branch === null || typeof branch !== "object") return 2;
  const type = (branch as Schema).type;
  return type === "null" ? 1 : 0;
}

function compilePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/**
 * A string the regular expression matches, for the subset real specs use: literals, escapes
 * (`\d \w \s \.`...), classes (`[a-z0-9_]`, negated), groups, alternation (first branch),
 * quantifiers (the minimum count, at least `minLength` overall), anchors and `.`. Undefined when
 * the pattern uses something else or the sample does not match.
 */
export function samplePattern(pattern: string, minLength = 0): string | undefined {
  const regex = compilePattern(pattern);
  if (!regex) return undefined;
  for (const stretch of [0, 1, 2, 4, 8, 16, 32, 64]) {
    let text: string;
    try {
      const parser = new PatternSampler(pattern, stretch);
      text = parser.sample();
    } catch {
      return undefined;
    }
    if (regex.test(text) && [...text].length >= minLength) return text;
    if ([...text].length >= minLength && stretch > 0) break;
  }
  return undefined;
}

class PatternSampler {
  private index = 0;

  constructor(
    private readonly source: string,
    /** Extra repetitions for open quantifiers (`*`, `+`, `{n,}`), to reach a minimum length. */
    private readonly stretch: number,
  ) {}

  sample(): string {
    const text = this.alternation();
    if (this.index < this.source.length) throw new Error("unsupported pattern");
    return text;
  }

  private alternation(): string {
    const first = this.sequence();
    while (this.peek() === "|") {
      this.index++;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let out = "";
    while (this.index < this.source.length && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.atom();
      if (atom === undefined) continue;
      const [min, max] = this.quantifier();
      let count = min;
      if (max > min) count = Math.min(max, min + this.stretch);
      for (let i = 0; i < count; i++) out += typeof atom === "function" ? atom(i) : atom;
    }
    return out;
  }

  private peek(): string | undefined {
    return this.source[this.index];
  }

  /** One atom: a string, a generator per repetition, or undefined for anchors. */
  private atom(): string | ((i: number) => string) | undefined {
    const char = this.source[this.index++]!;
    switch (char) {
      case "^":
      case "$":
        return undefined;
      case ".":
        return "a";
      case "(": {
        if (this.source.startsWith("?:", this.index)) this.index += 2;
        else if (
          this.source.startsWith("?<", this.index) &&
          !/^\?<[=!]/.test(this.source.slice(this.index))
        ) {
          this.index = this.source.indexOf(">", this.index) + 1;
        } else if (this.peek() === "?") throw new Error("lookaround");
        const inner = this.alternation();
        if (this.source[this.index++] !== ")") throw new Error("unbalanced");
        return inner;
      }
      case "[":
        return this.charClass();
      case "\\":
        return this.escape(false);
      case "*":
      case "+":
      case "?":
      case "{":
        throw new Error("dangling quantifier");
      default:
        return char;
    }
  }

  private escape(inClass: boolean): string {
    const next = this.source[this.index++];
    switch (next) {
      case "d":
        return "1";
      case "D":
        return "a";
      case "w":
        return "a";
      case "W":
        return "-";
      case "s":
        return " ";
      case "S":
        return "a";
      case "b":
        if (inClass) return "\b";
        return "";
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "u": {
        const hex = this.source.slice(this.index, this.index + 4);
        this.index += 4;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case "x": {
        const hex = this.source.slice(this.index, this.index + 2);
        this.index += 2;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case "p":
      case "P": {
        const end = this.source.indexOf("}", this.index);
        this.index = end + 1;
        return next === "p" ? "a" : "1";
      }
      case undefined:
        throw new Error("trailing backslash");
      default:
        if (/[1-9]/.test(next)) throw new Error("backreference");
        return next;
    }
  }

  private charClass(): string {
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.index++;
    }
    const members: string[] = [];
    const ranges: [number, number][] = [];
    let first = true;
    while (this.index < this.source.length && (this.peek() !== "]" || first)) {
      first = false;
      let char = this.source[this.index++]!;
      if (char === "\\") {
        const escaped = this.source[this.index];
        if (escaped && "dDwWsS".includes(escaped)) {
          this.index++;
          members.push(...classEscapeMembers(escaped));
          continue;
        }
        char = this.escape(true);
      }
      if (this.peek() === "-" && this.source[this.index + 1] !== "]" && this.index + 1 < this.source.length) {
        this.index++;
        let end = this.source[this.index++]!;
        if (end === "\\") end = this.escape(true);
        ranges.push([char.codePointAt(0)!, end.codePointAt(0)!]);
      } else {
        members.push(char);
      }
    }
    if (this.source[this.index++] !== "]") throw new Error("unterminated class");
    const inClass = (c: string) =>
      members.includes(c) || ranges.some(([lo, hi]) => c.codePointAt(0)! >= lo && c.codePointAt(0)! <= hi);
    if (negated) {
      for (const c of "aA1b_-x") if (!inClass(c)) return c;
      throw new Error("negated class");
    }
    const preferred = "aA1bcxyz0_-";
    for (const c of preferred) if (inClass(c)) return c;
    if (members[0] !== undefined) return members[0];
    if (ranges[0] !== undefined) return String.fromCodePoint(ranges[0][0]);
    throw new Error("empty class");
  }

  private quantifier(): [number, number] {
    const char = this.peek();
    let range: [number, number] = [1, 1];
    if (char === "*") range = [0, Number.POSITIVE_INFINITY];
    else if (char === "+") range = [1, Number.POSITIVE_INFINITY];
    else if (char === "?") range = [0, 1];
    else if (char === "{") {
      const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.index));
      if (!match) return range;
      const min = Number(match[1]);
      const max =
        match[2] === undefined ? min : match[3] === "" ? Number.POSITIVE_INFINITY : Number(match[3]);
      this.index += match[0].length;
      if (this.peek() === "?" || this.peek() === "+") this.index++;
      return [min, max];
    } else return range;
    this.index++;
    if (this.peek() === "?" || this.peek() === "+") this.index++;
    return range;
  }
}

function classEscapeMembers(letter: string): string[] {
  switch (letter) {
    case "d":
      return ["1", "0"];
    case "w":
      return ["a", "A", "1", "_"];
    case "s":
      return [" "];
    case "D":
      return ["a"];
    case "W":
      return ["-"];
    default:
      return ["a"];
  }
}
