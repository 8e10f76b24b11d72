/**
 * describe_operations within the result budget (`--max-result-chars`): an operation whose
 * description would not fit is summarised, step by step and largest first, until the answer
 * fits: its argument schema becomes its top-level properties with their types (required
 * first), each nested object or list of objects an `expand` pointer; longer texts are
 * clipped, then dropped; the output schema is summarised, then left to a pointer; `returns`
 * (the answer's field names, describe-returns.ts) names fewer, breadth first, and is the first
 * thing shortened, before any schema. A follow-up
 * describe of one operation with `pointer` (`/inputSchema/properties/body`) shows that part,
 * summarised the same way when it is large itself. A `$ref` inside a schema becomes the
 * pointer of its `$defs` entry. Nothing is left out without a pointer that shows it.
 *
 * The text of an error status (401, 403, 429...) that several operations of one answer share
 * is said once, in `responseTexts`, not per operation; and each operation says each thing once
 * (showOperation).
 */

import { isErrorStatus } from "../../model/error-status.js";
import { escapePointerToken, splitPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { JsonSchema, ResultFieldsNode } from "../../model/types.js";
import { isGenericStatusText } from "../results/generic-status-text.js";
import { showReturns } from "./describe-returns.js";
import { splitWords } from "./search/tokenize.js";

/** What the budget reads of a described operation (describe-result.ts's DescribedOperation). */
interface DescribedOperation {
  name: string;
  title?: string;
  tags?: string[];
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  responses: { status: string; description: string; mediaTypes?: string[] }[];
  annotations?: { title?: string; openWorldHint?: boolean };
  needsConfirmation?: boolean;
  resultFields?: ResultFieldsNode;
  apiWide?: string[];
}

/** How far one operation is summarised: 0 as it is, up to MAX_LEVEL. */
interface Level {
  /** Characters of a property's description (0: none). */
  propertyText: number;
  /** Characters of the operation's description. */
  operationText: number;
  /** Enum values shown. */
  enumValues: number;
  /** Optional top-level properties shown (required ones always). */
  optionalProperties: number;
  /** The output schema: summarised, or only its pointer. */
  output: "summary" | "pointer";
  /** Characters of `returns`, the names of the answer's fields. */
  returns: number;
}

/** Characters of `returns` in an answer that needs no summary. */
export const RETURNS_CHARS = 600;
/** Characters of `returns` in the first step of a summary, before any schema is summarised. */
const SHORT_RETURNS_CHARS = 240;

const LEVELS: Level[] = [
  {
    propertyText: 400,
    operationText: 2000,
    enumValues: 30,
    optionalProperties: 200,
    output: "summary",
    returns: RETURNS_CHARS,
  },
  {
    propertyText: 160,
    operationText: 800,
    enumValues: 15,
    optionalProperties: 120,
    output: "summary",
    returns: 400,
  },
  {
    propertyText: 60,
    operationText: 300,
    enumValues: 8,
    optionalProperties: 60,
    output: "pointer",
    returns: 240,
  },
  {
    propertyText: 0,
    operationText: 160,
    enumValues: 5,
    optionalProperties: 30,
    output: "pointer",
    returns: 120,
  },
  {
    propertyText: 0,
    operationText: 100,
    enumValues: 3,
    optionalProperties: 0,
    output: "pointer",
    returns: 60,
  },
];

/** Schema keywords a summary keeps as they are: short and needed to write a value. */
const KEPT_KEYWORDS = [
  "format",
  "default",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "deprecated",
  "readOnly",
  "writeOnly",
] as const;

/** What a summarised operation holds instead of its full schemas. */
export interface SummaryNote {
  summarized: string;
}

export interface BudgetedDescribe {
  operations: Record<string, unknown>[];
  /** Error statuses' text said once for the answer: status → text. */
  responseTexts?: Record<string, string>;
  /**
   * The API's options (Google's `alt`, `prettyPrint`, `quotaUser`): arguments nearly every
   * operation takes, their schemas said once for the answer instead of in each input schema.
   */
  apiOptions?: Record<string, unknown>;
  /** Set when any operation was summarised: how to see the rest. */
  expand?: string;
}

const clipText = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;

/** The text that tells how to expand a pointer, in this mode's words. */
export function expandHint(describeTool: string): string {
  return `Some schemas are summarised to fit: call ${describeTool} again with one name and "pointer" (an "expand" value, e.g. "/inputSchema/properties/body") to see that part.`;
}

/**
 * The answer for these operations, within `budget` characters of JSON text when summaries can
 * make it fit.
 */
export function fitDescribed(
  given: DescribedOperation[],
  budget: number,
  describeTool: string,
): BudgetedDescribe {
  const shared = shareApiOptions(given);
  const found = shared.found;
  const { apiOptions } = shared;
  const { operations, responseTexts } = shareResponseTexts(found);
  const answer = (ops: Record<string, unknown>[], summarized: boolean): BudgetedDescribe => ({
    operations: ops,
    ...(apiOptions ? { apiOptions } : {}),
    ...(responseTexts ? { responseTexts } : {}),
    ...(summarized ? { expand: expandHint(describeTool) } : {}),
  });
  const full = answer(operations, false);
  if (!Number.isFinite(budget) || budget <= 0 || JSON.stringify(full).length <= budget) return full;
  // Summarise the largest operation one step further until the whole fits or none can go further;
  // its first step only shortens `returns` (-2 → -1): the names help, the arguments are needed.
  const levels = found.map((op) => (op.resultFields !== undefined ? -2 : -1));
  const shown = [...operations];
  const sizes = shown.map((op) => JSON.stringify(op).length);
  const overhead = JSON.stringify(answer([], true)).length;
  for (;;) {
    const total = overhead + sizes.reduce((sum, size) => sum + size + 1, 0);
    if (total <= budget) break;
    let largest = -1;
    for (let i = 0; i < shown.length; i++) {
      if (levels[i]! < LEVELS.length - 1 && (largest < 0 || sizes[i]! > sizes[largest]!)) largest = i;
    }
    if (largest < 0) break;
    levels[largest]!++;
    const op = found[largest]!;
    shown[largest] =
      levels[largest] === -1 && op.resultFields !== undefined
        ? { ...operations[largest]!, returns: showReturns(op.resultFields, SHORT_RETURNS_CHARS) }
        : summarizeOperation(operations[largest]!, op, LEVELS[levels[largest]!]!);
    sizes[largest] = JSON.stringify(shown[largest]).length;
  }
  return answer(
    shown,
    levels.some((level) => level >= 0),
  );
}

/**
 * The operations with their API-wide options (`apiWide`) taken out of their input schemas and
 * said once: ten Google standard parameters in every schema were ~1,000 characters an operation.
 * A schema that refers to the operation's `$defs` stays where it is (its `$ref` would not
 * resolve outside), as does one that differs from another operation's of the same name.
 */
function shareApiOptions(found: DescribedOperation[]): {
  found: DescribedOperation[];
  apiOptions?: Record<string, unknown>;
} {
  const options: Record<string, unknown> = {};
  const texts = new Map<string, string>();
  const shared = found.map((op) => {
    const properties = op.inputSchema.properties;
    if (op.apiWide === undefined || !isRecord(properties)) return op;
    const own: Record<string, unknown> = { ...properties };
    for (const name of op.apiWide) {
      const schema = own[name];
      if (schema === undefined) continue;
      const text = JSON.stringify(schema);
      if (text.includes('"$ref"') || (texts.has(name) && texts.get(name) !== text)) continue;
      texts.set(name, text);
      options[name] = schema;
      delete own[name];
    }
    return { ...op, inputSchema: { ...op.inputSchema, properties: own } as JsonSchema };
  });
  return Object.keys(options).length === 0 ? { found } : { found: shared, apiOptions: options };
}

/**
 * Each operation as the answer shows it (showOperation), with the text of an error status
 * that two or more operations of the answer share said once, in `responseTexts`.
 */
function shareResponseTexts(found: DescribedOperation[]): {
  operations: Record<string, unknown>[];
  responseTexts?: Record<string, string>;
} {
  const seen = new Map<string, { text: string; count: number; differs: boolean }>();
  for (const op of found) {
    for (const response of op.responses) {
      if (!isErrorStatus(response.status)) continue;
      const entry = seen.get(response.status);
      if (!entry) seen.set(response.status, { text: response.description, count: 1, differs: false });
      else {
        entry.count++;
        if (entry.text !== response.description) entry.differs = true;
      }
    }
  }
  const shared = new Map([...seen].filter(([, e]) => e.count >= 2 && !e.differs && e.text !== ""));
  const operations = found.map((op) => showOperation(op, shared));
  if (shared.size === 0) return { operations };
  return {
    operations,
    responseTexts: Object.fromEntries([...shared].map(([status, e]) => [status, e.text])),
  };
}

/** What an operation's shared error status says in its own `responses`. */
export const SHARED_RESPONSE_TEXT = "(responseTexts)";

/**
 * One operation as the answer shows it: what calling it takes, each thing said once. The title
 * only when it says something (isSaidElsewhere); no tags (search filters by them, a call
 * needs none); the annotations without their title and without `openWorldHint` when true (an
 * API call always reaches outside); `needsConfirmation` only when the user is asked; and the
 * responses as one map of status to text, with the media types of a success that is not JSON
 * (an error's media type changes nothing for the caller).
 */
export function showOperation(
  op: DescribedOperation,
  shared: ReadonlyMap<string, unknown> = new Map(),
): Record<string, unknown> {
  const {
    title,
    tags: _tags,
    annotations,
    needsConfirmation,
    responses,
    resultFields,
    apiWide: _apiWide,
    ...rest
  } = op;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    shown[key] = value;
    if (key === "path" && title !== undefined && !isSaidElsewhere(title, op)) shown.title = title;
  }
  if (resultFields !== undefined) shown.returns = showReturns(resultFields, RETURNS_CHARS);
  shown.responses = Object.fromEntries(
    responses.map((r) => [r.status, shared.has(r.status) ? SHARED_RESPONSE_TEXT : showResponse(r)]),
  );
  if (annotations !== undefined) {
    const { title: _title, openWorldHint, ...hints } = annotations;
    shown.annotations = openWorldHint === false ? { ...hints, openWorldHint } : hints;
  }
  if (needsConfirmation === true) shown.needsConfirmation = true;
  return shown;
}

/**
 * A title that says nothing the answer does not: empty, the start of the description, or the
 * operation's name in words (EC2's `GET_CreateSecurityGroup`, "Get create security group").
 */
function isSaidElsewhere(title: string, op: DescribedOperation): boolean {
  return title === "" || op.description.startsWith(title) || isNameInWords(title, op.name);
}

/** `Get create security group` for `GET_CreateSecurityGroup`: a text generated from the name. */
export function isNameInWords(text: string, name: string): boolean {
  return splitWords(text).join(" ") === splitWords(name).join(" ");
}

function showResponse(response: { status: string; description: string; mediaTypes?: string[] }): string {
  const types = response.mediaTypes ?? [];
  const json = types.length === 0 || (types.length === 1 && types[0] === "application/json");
  // "Successful response.", "Error response.": the status says as much.
  const description = isGenericStatusText(response.description) ? "" : response.description;
  return /^2/.test(response.status) && !json
    ? `${description}${description === "" ? "" : " "}(${types.join(", ")})`
    : description;
}

function summarizeOperation(
  shown: Record<string, unknown>,
  op: DescribedOperation,
  level: Level,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...shown };
  out.description = clipText(op.description, level.operationText);
  out.inputSchema = summarizeSchema(op.inputSchema, op.inputSchema, "/inputSchema", level, true);
  if (op.outputSchema !== undefined) {
    out.outputSchema =
      level.output === "summary"
        ? summarizeSchema(op.outputSchema, op.outputSchema, "/outputSchema", level, true)
        : { expand: "/outputSchema" };
  }
  if (op.resultFields !== undefined) out.returns = showReturns(op.resultFields, level.returns);
  if (isRecord(shown.responses)) {
    out.responses = Object.fromEntries(
      Object.entries(shown.responses).map(([status, text]) => [
        status,
        typeof text === "string" ? clipText(text, Math.max(80, level.propertyText)) : text,
      ]),
    );
  }
  return out;
}

/**
 * A schema as its top-level properties (required first) with types and short docs; nested
 * objects, lists of objects and alternatives as `expand` pointers. `base` is the pointer of
 * `schema` in the described operation; `root` the schema whose `$defs` its `$ref`s name.
 */
export function summarizeSchema(
  schema: JsonSchema,
  root: JsonSchema,
  base: string,
  level: Level = LEVELS[0]!,
  top = true,
): Record<string, unknown> {
  const { schema: target, pointer } = followRef(schema, root, base);
  const out: Record<string, unknown> = {};
  const type = typeOf(target);
  if (type !== undefined) out.type = type;
  const description = typeof target.description === "string" ? target.description : undefined;
  if (!top && description && level.propertyText > 0)
    out.description = clipText(description, level.propertyText);
  if (!top) return out;
  const properties = isRecord(target.properties) ? (target.properties as Record<string, JsonSchema>) : {};
  const required = Array.isArray(target.required)
    ? (target.required as string[]).filter((n) => n in properties)
    : [];
  if (required.length > 0) out.required = required;
  const optional = Object.keys(properties).filter((name) => !required.includes(name));
  const names = [...required, ...optional.slice(0, level.optionalProperties)];
  const shownProperties: Record<string, unknown> = {};
  for (const name of names) {
    shownProperties[name] = summarizeProperty(
      properties[name]!,
      root,
      `${pointer}/properties/${escapePointerToken(name)}`,
      level,
    );
  }
  if (names.length > 0) out.properties = shownProperties;
  if (optional.length > level.optionalProperties) {
    // By name only: each is shown by its own pointer.
    out.moreProperties = {
      names: optional.slice(level.optionalProperties),
      expand: `${pointer}/properties/<name>`,
    };
  }
  if (isRecord(target.additionalProperties)) {
    out.additionalProperties = summarizeProperty(
      target.additionalProperties as JsonSchema,
      root,
      `${pointer}/additionalProperties`,
      level,
    );
  } else if (target.additionalProperties === false) out.additionalProperties = false;
  const alternatives = alternativesOf(target);
  if (alternatives) {
    // Each alternative by the pointer of what it names (`/inputSchema/$defs/CardDetails`).
    out[alternatives.keyword] = alternatives.list.map((alternative, i) => {
      const at = `${pointer}/${alternatives.keyword}/${i}`;
      return { expand: isRecord(alternative) ? followRef(alternative as JsonSchema, root, at).pointer : at };
    });
  }
  if (isRecord(target.items))
    out.items = summarizeProperty(target.items as JsonSchema, root, `${pointer}/items`, level);
  return out;
}

/** One property: its type and short doc, or an `expand` pointer where it has structure. */
function summarizeProperty(
  schema: JsonSchema,
  root: JsonSchema,
  base: string,
  level: Level,
): Record<string, unknown> {
  const { schema: target, pointer } = followRef(schema, root, base);
  const out: Record<string, unknown> = {};
  const type = typeOf(target);
  if (type !== undefined) out.type = type;
  const description =
    typeof schema.description === "string"
      ? schema.description
      : typeof target.description === "string"
        ? target.description
        : undefined;
  if (description && level.propertyText > 0) out.description = clipText(description, level.propertyText);
  if (Array.isArray(target.enum)) {
    out.enum = target.enum.slice(0, level.enumValues);
    if (target.enum.length > level.enumValues) out.moreEnumValues = target.enum.length - level.enumValues;
  }
  for (const keyword of KEPT_KEYWORDS) {
    const value = target[keyword];
    if (
      value !== undefined &&
      (typeof value !== "string" || value.length <= 60) &&
      typeof value !== "object"
    ) {
      out[keyword] = value;
    }
  }
  if (hasStructure(target)) {
    out.expand = pointer;
    return out;
  }
  if (isRecord(target.items)) {
    const items = followRef(target.items as JsonSchema, root, `${pointer}/items`);
    out.items = hasStructure(items.schema)
      ? { ...(typeOf(items.schema) ? { type: typeOf(items.schema) } : {}), expand: items.pointer }
      : summarizeProperty(target.items as JsonSchema, root, `${pointer}/items`, level);
  }
  return out;
}

/** An object with properties, or a choice of alternatives: shown only through a pointer. */
function hasStructure(schema: JsonSchema): boolean {
  return (
    (isRecord(schema.properties) && Object.keys(schema.properties).length > 0) ||
    isRecord(schema.additionalProperties) ||
    alternativesOf(schema) !== undefined
  );
}

function alternativesOf(schema: JsonSchema): { keyword: string; list: unknown[] } | undefined {
  for (const keyword of ["oneOf", "anyOf", "allOf"]) {
    const list = schema[keyword];
    if (Array.isArray(list) && list.length > 0) return { keyword, list };
  }
  return undefined;
}

function typeOf(schema: JsonSchema): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (isRecord(schema.properties)) return "object";
  if (isRecord(schema.items)) return "array";
  const alternatives = alternativesOf(schema);
  if (alternatives) return `${alternatives.keyword} of ${alternatives.list.length}`;
  return undefined;
}

/** A `$ref` into the root's `$defs` followed (a few hops), with the pointer of what it names. */
function followRef(
  schema: JsonSchema,
  root: JsonSchema,
  pointer: string,
): { schema: JsonSchema; pointer: string } {
  let current = schema;
  let at = pointer;
  const rootPointer = pointer.startsWith("/outputSchema") ? "/outputSchema" : "/inputSchema";
  for (let hop = 0; hop < 8 && typeof current.$ref === "string" && current.$ref.startsWith("#/"); hop++) {
    const target = resolveIn(root, current.$ref.slice(1));
    if (!isRecord(target)) break;
    at = `${rootPointer}${current.$ref.slice(1)}`;
    current = target as JsonSchema;
  }
  return { schema: current, pointer: at };
}

function resolveIn(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of splitPointer(pointer)) {
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node as object, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * The part of an operation's description at `pointer` (`/inputSchema/...` or `/outputSchema/...`,
 * `$ref`s on the way followed), in full when it fits the budget, else summarised; or the
 * problem with the pointer.
 */
export function expandPointer(
  op: DescribedOperation,
  pointer: string,
  budget: number,
): ExpandedPart | { problem: string } {
  const tokens = splitPointer(pointer.startsWith("/") || pointer.startsWith("#") ? pointer : `/${pointer}`);
  const head = tokens[0];
  if (head === "returns") return expandReturns(op, tokens.slice(1), pointer, budget);
  if (head !== "inputSchema" && head !== "outputSchema") {
    return {
      problem:
        'must start with "/inputSchema", "/outputSchema" (an "expand" value of a describe answer) or "/returns"',
    };
  }
  const root = head === "inputSchema" ? op.inputSchema : op.outputSchema;
  if (root === undefined) return { problem: "this operation has no output schema" };
  let node: unknown = root;
  let at = `/${head}`;
  for (const token of tokens.slice(1)) {
    if (isRecord(node) && typeof node.$ref === "string") {
      const followed = followRef(node as JsonSchema, root, at);
      node = followed.schema;
      at = followed.pointer;
    }
    if ((!isRecord(node) && !Array.isArray(node)) || !Object.hasOwn(node as object, token)) {
      return {
        problem: `${JSON.stringify(pointer)} names nothing in ${op.name}'s description (it stops at ${at})`,
      };
    }
    node = (node as Record<string, unknown>)[token];
    at = `${at}/${escapePointerToken(token)}`;
  }
  if (isRecord(node) && typeof node.$ref === "string") node = followRef(node as JsonSchema, root, at).schema;
  const full = JSON.stringify(node);
  if (!Number.isFinite(budget) || budget <= 0 || full.length <= budget - 500) {
    return { schema: pointRefs(node, `/${head}`), summarized: false };
  }
  // A properties map (`.../properties`) is summarised as the object that holds it.
  const schema =
    tokens.at(-1) === "properties" && isRecord(node) ? { type: "object", properties: node } : node;
  if (!isRecord(schema)) return { schema: node, summarized: false };
  const base = tokens.at(-1) === "properties" ? at.slice(0, at.lastIndexOf("/")) : at;
  for (const level of LEVELS) {
    const summary = summarizeSchema(schema as JsonSchema, root, base, level, true);
    if (JSON.stringify(summary).length <= budget - 500 || level === LEVELS.at(-1)) {
      return { schema: summary, summarized: true };
    }
  }
  /* c8 ignore next */
  return { schema: node, summarized: false };
}

/** What `expandPointer` shows of one operation. */
export type ExpandedPart = { schema: unknown; summarized: boolean } | { returns: string };

/**
 * The answer to a describe with a pointer (discovery and code mode alike): the part's schema,
 * with how to expand it further when it is summarised, or the field names under `returns`.
 */
export function toPartAnswer(
  name: string,
  pointer: string,
  part: ExpandedPart,
  describeTool: string,
): Record<string, unknown> {
  if ("returns" in part) return { name, pointer, returns: part.returns };
  return {
    name,
    pointer,
    schema: part.schema,
    ...(part.summarized ? { expand: expandHint(describeTool) } : {}),
  };
}

/**
 * `/returns/user` (or `/returns/items/user`: a list's elements are what its names name): the
 * field names of that part of the answer, all that were planned, within the budget. A model
 * reads `user{…}` in `returns` and asks for what `{…}` stands for.
 */
function expandReturns(
  op: DescribedOperation,
  path: string[],
  pointer: string,
  budget: number,
): { returns: string } | { problem: string } {
  if (op.resultFields === undefined) return { problem: `${op.name}'s answer has no field names to show` };
  let node: ResultFieldsNode = op.resultFields;
  let at = "/returns";
  for (const token of path) {
    const child: ResultFieldsNode | undefined = node.fields?.[token];
    if (child === undefined) {
      return {
        problem: `${JSON.stringify(pointer)} names no field of ${op.name}'s answer (it stops at ${at})`,
      };
    }
    node = child;
    at = `${at}/${escapePointerToken(token)}`;
  }
  const room = Number.isFinite(budget) && budget > 0 ? Math.max(200, budget - 500) : RETURNS_CHARS * 8;
  return { returns: showReturns(node, room) };
}

/** A schema shown in full: each local `$ref` (`#/$defs/X`) becomes the pointer that shows it. */
function pointRefs(value: unknown, rootPointer: string): unknown {
  if (Array.isArray(value)) return value.map((item) => pointRefs(item, rootPointer));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string" && child.startsWith("#/")) {
      out.expand = `${rootPointer}${child.slice(1)}`;
    } else out[key] = pointRefs(child, rootPointer);
  }
  return out;
}
