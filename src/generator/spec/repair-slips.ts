/**
 * The slips real specs have that leave no doubt about what was meant, read as meant: a number or
 * a boolean written as a string where the keyword takes only a number or a boolean
 * (`"maximum": "50"`, `"required": "true"` on a parameter, `"additionalProperties": "true"`).
 * Without this a whole spec is refused, or, unvalidated, its schemas do not compile. Anything
 * else (a string that is not a number, `required: "true"` in a schema, where it must be a list)
 * is left for validation to report. `--strict` skips this step.
 */
import { createDiagnostic } from "../../model/diagnostics.js";
import { escapePointerToken } from "../../model/pointer.js";
import type { Diagnostic, SpecVersion } from "../../model/types.js";

/** What a repaired value became: each kind gets one warning. */
type SlipKind = "number" | "boolean" | "default";

/** Keywords that take any number (schemas; Swagger 2.0 parameters and items too). */
const NUMBER_KEYWORDS = new Set(["maximum", "minimum", "multipleOf"]);
/** Keywords that take a whole number of at least 0. */
const COUNT_KEYWORDS = new Set([
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "maxProperties",
  "minProperties",
  "maxContains",
  "minContains",
]);
/**
 * Keywords that take a boolean wherever OpenAPI has them (`additionalProperties` and its kin
 * take a schema too, which no string is).
 */
const BOOLEAN_KEYWORDS = new Set([
  "nullable",
  "readOnly",
  "writeOnly",
  "deprecated",
  "uniqueItems",
  "allowEmptyValue",
  "explode",
  "allowReserved",
  "additionalProperties",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
/** Booleans before OpenAPI 3.1, numbers in 3.1 (JSON Schema 2020-12). */
const EXCLUSIVE_BOUNDS = new Set(["exclusiveMaximum", "exclusiveMinimum"]);

/** Keys whose values are data, never keywords: nothing inside them is repaired. */
export const SLIP_DATA_KEYS = new Set(["example", "examples", "default", "const", "enum", "value"]);
/** Keys whose values map names to objects: a child's key is a name, not a keyword. */
export const SLIP_NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "headers",
  "requestBodies",
  "securitySchemes",
  "paths",
  "content",
  "encoding",
  "variables",
  "callbacks",
  "webhooks",
  "pathItems",
  "links",
]);

const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

interface KindTally {
  count: number;
  keywords: Set<string>;
  /** The first place repaired, and what was written there. */
  first: { pointer: string; keyword: string; text: string; value: number | boolean };
}

/**
 * The slips of a document, found object by object in the order a walk meets them, and made
 * (written into their objects) only by `repair`: a walk that also does other work
 * (document-scan.ts) finds them before the document is final, and they are made only if it did
 * not change meanwhile. No repair decides on a value another repair writes (`in` and `type` are
 * never repaired), so finding them all first and making them after changes nothing.
 */
export interface SlipFinder {
  /** An object that is no name map, before its keys: a scalar schema's default written as a string. */
  checkDefault(holder: Record<string, unknown>): void;
  /** A string under a key that is neither data nor an extension, in an object that is no name map. */
  checkEntry(holder: Record<string, unknown>, key: string, text: string): void;
  /** Writes every slip found as meant; one warning per kind of slip, none when there was none. */
  repair(file: string): Diagnostic[];
}

/**
 * A finder for a document of `version`; `tokens` is the walk's path to the object it is at
 * (kept by the walk), read only to name the first place of each kind.
 */
export function createSlipFinder(version: SpecVersion, tokens: readonly (string | number)[]): SlipFinder {
  const tallies = new Map<SlipKind, KindTally>();
  const numericExclusive = version.startsWith("3.1");
  const holders: Record<string, unknown>[] = [];
  const keys: string[] = [];
  const values: (number | boolean)[] = [];
  const pointerTo = (key: string) =>
    [...tokens, key].map((t) => `/${escapePointerToken(String(t))}`).join("");

  const record = (
    holder: Record<string, unknown>,
    kind: SlipKind,
    keyword: string,
    text: string,
    value: number | boolean,
  ) => {
    holders.push(holder);
    keys.push(keyword);
    values.push(value);
    const tally = tallies.get(kind);
    if (tally) {
      tally.count += 1;
      tally.keywords.add(keyword);
    } else {
      const first = { pointer: pointerTo(keyword), keyword, text, value };
      tallies.set(kind, { count: 1, keywords: new Set([keyword]), first });
    }
  };

  return {
    checkEntry(holder, key, text) {
      const target = expectedKind(holder, key, numericExclusive);
      if (target === undefined) return;
      const value = target === "count" || target === "number" ? readNumber(text, target) : readBoolean(text);
      if (value === undefined) return;
      record(holder, typeof value === "boolean" ? "boolean" : "number", key, text, value);
    },
    // A default is data, but of a schema of one scalar type a string can only be a slip.
    checkDefault(holder) {
      const text = holder.default;
      if (typeof text !== "string") return;
      const type = holder.type;
      let value: number | boolean | undefined;
      if (type === "boolean") value = readBoolean(text);
      else if (type === "number") value = readNumber(text, "number");
      else if (type === "integer") {
        value = readNumber(text, "number");
        if (value !== undefined && !Number.isInteger(value)) value = undefined;
      }
      if (value === undefined) return;
      record(holder, "default", "default", text, value);
    },
    repair(file) {
      for (let i = 0; i < holders.length; i++) holders[i]![keys[i]!] = values[i];
      return describeRepairs(tallies, file);
    },
  };
}

/**
 * Repairs the document in place; returns one warning per kind of slip repaired (with the count,
 * the keywords and the first place), none when there was nothing to repair.
 */
export function repairSlips(
  doc: unknown,
  version: SpecVersion,
  file: string,
  options: { tree?: boolean } = {},
): Diagnostic[] {
  // A bundled document may hold one object in two places: each is visited once. A document
  // straight from the parser is a tree, and remembering its millions of nodes in a WeakSet was
  // most of this walk's time (Graph beta: about 0.3 s of a cold start).
  const seen = options.tree === true ? undefined : new WeakSet<object>();
  // The path to the node being visited; a pointer is made of it only for a first repair.
  // Array indexes stay numbers until a pointer is made: no string per array element visited.
  const tokens: (string | number)[] = [];
  const finder = createSlipFinder(version, tokens);

  const visit = (node: unknown, parentKey: string | undefined): void => {
    if (node === null || typeof node !== "object") return;
    if (seen !== undefined) {
      if (seen.has(node)) return;
      seen.add(node);
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child === null || typeof child !== "object") continue;
        tokens.push(i);
        visit(child, undefined);
        tokens.pop();
      }
      return;
    }
    const holder = node as Record<string, unknown>;
    const isNameMap = parentKey !== undefined && SLIP_NAME_MAPS.has(parentKey);
    if (!isNameMap) finder.checkDefault(holder);
    for (const key of Object.keys(holder)) {
      const child = holder[key];
      if (!isNameMap && (SLIP_DATA_KEYS.has(key) || key.startsWith("x-"))) continue;
      if (typeof child === "string") {
        if (!isNameMap) finder.checkEntry(holder, key, child);
      } else {
        tokens.push(key);
        visit(child, isNameMap ? undefined : key);
        tokens.pop();
      }
    }
  };
  visit(doc, undefined);
  return finder.repair(file);
}

function describeRepairs(tallies: Map<SlipKind, KindTally>, file: string): Diagnostic[] {
  return [...tallies].map(([kind, tally]) => {
    const { first } = tally;
    const keywords = [...tally.keywords].sort().join(", ");
    const others = tally.count > 1 ? ` and ${tally.count - 1} more` : "";
    const written = tally.count === 1 ? "written as a string" : "written as strings";
    const what =
      kind === "default"
        ? `${tally.count} default${plural(tally.count)} of a number, integer or boolean schema ${written} read as meant`
        : `${tally.count} ${kind}${plural(tally.count)} ${written} read as ${kind}${plural(tally.count)} (${keywords})`;
    return createDiagnostic(
      "OMB_SPEC_REPAIRED",
      `${what}: "${first.keyword}": ${JSON.stringify(first.text)} read as ${String(first.value)} here${others}`,
      { file, pointer: first.pointer },
    );
  });
}

/**
 * What `holder[key]` must be, when a string there can only be a slip: `required` is a boolean
 * only on a parameter, a header or a request body (in a schema it lists property names).
 */
function expectedKind(
  holder: Record<string, unknown>,
  key: string,
  numericExclusive: boolean,
): "number" | "count" | "boolean" | undefined {
  if (NUMBER_KEYWORDS.has(key)) return "number";
  if (COUNT_KEYWORDS.has(key)) return "count";
  if (BOOLEAN_KEYWORDS.has(key)) return "boolean";
  if (EXCLUSIVE_BOUNDS.has(key)) return numericExclusive ? "number" : "boolean";
  if (key === "required" && isParameterLike(holder)) return "boolean";
  return undefined;
}

/**
 * A parameter (it has `in`), a header or a request body (it has `content` but no `type`, and
 * is no schema: no `properties`); these take `required` as a boolean.
 */
function isParameterLike(holder: Record<string, unknown>): boolean {
  if (typeof holder.in === "string") return true;
  const schemaLike = "type" in holder || "properties" in holder || "items" in holder || "allOf" in holder;
  return !schemaLike && ("schema" in holder || "content" in holder);
}

function readNumber(text: string, target: "number" | "count"): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER_TEXT.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return undefined;
  if (target === "count" && !(Number.isInteger(value) && value >= 0)) return undefined;
  return value;
}

function readBoolean(text: string): boolean | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === "true") return true;
  if (trimmed === "false") return false;
  return undefined;
}

function plural(count: number): string {
  return count === 1 ? "" : "s";
}
