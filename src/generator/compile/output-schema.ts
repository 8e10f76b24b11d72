/**
 * Output schemas: advertised only when every 2xx answer is JSON with one shared schema, and
 * relaxed (no required, formats, enums or bounds; null allowed; scalar fields only named) so
 * that real responses, which often stray from their spec, still pass the client's check of
 * structuredContent.
 */

import { isCollectionField, isIdentityField, isLinkField } from "../../model/field-roles.js";
import { isJsonMediaType, isXmlMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { JsonSchema } from "../../model/types.js";
import type { OperationContext } from "./context.js";
import { resolveRefObject } from "./context.js";
import type { SchemaConverter } from "./json-schema.js";
import { determineShape } from "./value-shape.js";

export interface PlannedOutput {
  schema: JsonSchema;
  /** The body is not an object: structuredContent is `{ result: body }`. */
  wrapped: boolean;
}

/**
 * `maxFields`: fields named per object (default OUTLINE_MAX_FIELDS). `catalog` and `diff` ask
 * for every field: a field that a full outline leaves out may still be in every answer, so a
 * capped outline cannot tell a removed result field from one that lost its place.
 */
export function planOutput(
  context: OperationContext,
  maxFields = OUTLINE_MAX_FIELDS,
): PlannedOutput | undefined {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const successKeys = Object.keys(responses).filter((status) => /^2/.test(status));
  if (successKeys.length === 0) return undefined;
  let chosen: unknown;
  for (const status of successKeys) {
    const response = resolveRefObject(context.document, responses[status]);
    if (!isRecord(response) || !isRecord(response.content)) return undefined;
    const entries = Object.entries(response.content);
    if (entries.length === 0 || !entries.every(([mediaType]) => isJsonMediaType(mediaType))) return undefined;
    for (const [, media] of entries) {
      if (!isRecord(media) || media.schema === undefined) return undefined;
      if (chosen === undefined) chosen = media.schema;
      else if (!isSameSchema(chosen, media.schema)) return undefined;
    }
  }
  if (chosen === undefined) return undefined;
  const { converter } = context;
  const resolved = converter.dereference(chosen);
  const isPlainObject =
    determineShape(converter, chosen) === "object" &&
    isRecord(resolved) &&
    resolved.oneOf === undefined &&
    resolved.anyOf === undefined;
  const outline = outlineSchema(converter, chosen, OUTLINE_DEPTH, new Set(), { maxFields });
  if (isPlainObject) return { schema: { ...outline, type: "object" }, wrapped: false };
  return { schema: { type: "object", properties: { result: outline }, required: ["result"] }, wrapped: true };
}

/**
 * The result of a successful call, for code mode's signatures: the schema of the first 2xx
 * answer with a JSON media type (other media types beside it are fine: the bridge asks for
 * JSON first), outlined with the types of its fields RESULT_DEPTH levels deep.
 */
export function planResult(context: OperationContext): JsonSchema | undefined {
  const schema = findResultSchema(context);
  if (schema === undefined) return undefined;
  const outline = outlineSchema(context.converter, schema, RESULT_DEPTH, new Set(), { typed: true });
  if (Object.keys(outline).length > 0) return outline;
  return outlineAlternatives(context.converter, schema);
}

/** Alternatives of a result read, at most; more say little a model can use. */
const RESULT_ALTERNATIVES = 4;

/**
 * A result that is one of a few shapes (DigitalOcean's droplet create answers one droplet or a
 * list of them): the outline of each, as code mode's union type. Only at the top: a field's
 * alternatives (Stripe's expandable `customer`, an id or the object) would multiply every
 * declaration for what the field's name already says.
 */
function outlineAlternatives(converter: SchemaConverter, schema: unknown): JsonSchema | undefined {
  const node = converter.dereference(schema);
  if (!isRecord(node)) return undefined;
  const options = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (options === undefined || options.length === 0 || options.length > RESULT_ALTERNATIVES) return undefined;
  const outlines = options
    .map((option) => outlineSchema(converter, option, RESULT_DEPTH, new Set(), { typed: true }))
    .filter((outline) => Object.keys(outline).length > 0);
  // One shape unknown makes the whole answer unknown: a union without it would mislead.
  if (outlines.length !== options.length) return undefined;
  return outlines.length === 1 ? outlines[0] : { anyOf: outlines };
}

/**
 * The schema of a successful call's JSON: that of the first 2xx answer (by status) with a JSON
 * media type; other media types beside it are fine, since the bridge asks for JSON first.
 */
export function findResultSchema(context: OperationContext): unknown {
  for (const [mediaType, media] of listSuccessMedia(context)) {
    if (isJsonMediaType(mediaType) && isRecord(media) && media.schema !== undefined) return media.schema;
  }
  return undefined;
}

/**
 * The schema of the first 2xx XML answer (by status) of an operation whose success answers are
 * all XML, which the runtime reads into JSON (results/xml-json.ts); undefined when one is not.
 */
export function findXmlResultSchema(context: OperationContext): unknown {
  let found: unknown;
  for (const [mediaType, media] of listSuccessMedia(context)) {
    if (!isXmlMediaType(mediaType)) return undefined;
    if (found === undefined && isRecord(media) && media.schema !== undefined) found = media.schema;
  }
  return found;
}

/** The media type entries of an operation's 2xx answers, by status. */
export function* listSuccessMedia(context: OperationContext): Generator<[string, unknown]> {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  for (const status of Object.keys(responses)
    .filter((s) => /^2/.test(s))
    .sort()) {
    const response = resolveRefObject(context.document, responses[status]);
    if (isRecord(response) && isRecord(response.content)) yield* Object.entries(response.content);
  }
}

/** Levels of objects a result outline types: the result's fields and their fields. */
export const RESULT_DEPTH = 2;

/**
 * Levels of objects an output schema describes: 1 = the fields of the result object (or of the
 * items of a result list) with their types; nested objects are described only as objects. Clients compile every output schema when
 * they list tools (the SDK client does, with ajv), so full response schemas of a large API cost
 * them seconds and cost the model tokens; the outline keeps what a model needs to read a result.
 */
export const OUTLINE_DEPTH = 1;
/** Fields of a page's items a result outline names one level below its last (identity first). */
const PAGE_ITEM_FIELDS = 6;

/** Fields listed per object; the rest are still allowed, just not named. */
export const OUTLINE_MAX_FIELDS = 12;

/**
 * How an outline is drawn: `typed` (code mode's result types) keeps the spec's types and
 * required fields instead of allowing null everywhere; `maxFields` names at most that many
 * fields per object.
 */
export interface OutlineShape {
  typed?: boolean;
  maxFields?: number;
}

/**
 * The outline of a response schema: types (always allowing null, since real APIs send null
 * where specs say otherwise) and property names down to `depth`; no required, enums, formats
 * or bounds, which real responses break and which would make clients reject real results.
 */
export function outlineSchema(
  converter: SchemaConverter,
  raw: unknown,
  depth: number,
  stack: Set<unknown>,
  shape: OutlineShape = {},
): JsonSchema {
  const { typed = false, maxFields = OUTLINE_MAX_FIELDS } = shape;
  const node = converter.dereference(raw);
  if (!isRecord(node) || stack.has(node)) return {};
  stack.add(node);
  try {
    const parts = flattenAllOf(converter, node);
    const types = new Set<string>();
    const properties: Record<string, unknown> = {};
    let items: unknown;
    for (const part of parts) {
      if (!isRecord(part)) continue;
      if (typeof part.type === "string") types.add(part.type);
      else if (Array.isArray(part.type)) for (const t of part.type) if (typeof t === "string") types.add(t);
      if (isRecord(part.properties)) {
        types.add("object");
        Object.assign(properties, part.properties);
      }
      if (part.items !== undefined && !Array.isArray(part.items)) {
        types.add("array");
        items = part.items;
      }
    }
    if (types.size === 0) return {};
    // A typed outline (code mode's result types) says what the spec says; the output schema
    // allows null everywhere, since clients check real answers against it.
    if (!typed) types.add("null");
    if (depth <= 0 && !types.has("array")) return { type: [...types] };
    if (types.has("integer") && types.has("number")) types.delete("integer");
    const out: JsonSchema = { type: typed && types.size === 1 ? [...types][0]! : [...types] };
    if (depth > 0 && types.has("object") && Object.keys(properties).length > 0) {
      const outlined: JsonSchema = {};
      const required = requiredOf(parts);
      const picked = pickFields(Object.keys(properties), required, maxFields);
      for (const name of picked) {
        // A page's list at the last level (Spotify's search: `albums.items`) is outlined one
        // level deeper, a few fields of its items, in a result type: without it code mode read
        // `items: unknown[]` and the agent had to guess each item's `id` and `name`.
        const page = typed && depth === 1 && isCollectionField(name);
        const field = page
          ? outlineSchema(converter, properties[name], 1, stack, { ...shape, maxFields: PAGE_ITEM_FIELDS })
          : outlineSchema(converter, properties[name], depth - 1, stack, shape);
        outlined[name] = typed ? field : outlineField(field);
      }
      out.properties = outlined;
      const kept = picked.filter((name) => required.has(name));
      if (typed && kept.length > 0) out.required = kept;
    }
    if (types.has("array") && items !== undefined && depth > 0) {
      // a list does not use up a level: the outline of a list is the outline of its items
      // (a list inside a field at the last level is just a list)
      out.items = outlineSchema(converter, items, depth, stack, shape);
    }
    return out;
  } finally {
    stack.delete(node);
  }
}

/** Levels of allOf within allOf read; Box's Folder--Full is three deep. */
const ALL_OF_DEPTH = 8;

/**
 * A schema and its allOf members, members' members included (Box's `Folder--Full` is allOf
 * `Folder`, itself allOf `Folder--Mini`, allOf `Folder--Base`, where `id` and `type` are): reading
 * one level only left a folder's result without its id and name. Each schema once.
 */
export function flattenAllOf(converter: SchemaConverter, node: Record<string, unknown>): unknown[] {
  const parts: unknown[] = [];
  const seen = new Set<unknown>();
  const visit = (part: unknown, depth: number) => {
    if (!isRecord(part) || seen.has(part)) return;
    seen.add(part);
    parts.push(part);
    if (depth < ALL_OF_DEPTH && Array.isArray(part.allOf))
      for (const member of part.allOf) visit(converter.dereference(member), depth + 1);
  };
  visit(node, 0);
  return parts;
}

/**
 * A field of the outline: lists and objects keep their type (the shape of the result), a
 * scalar field is just named. Its type would cost about six tokens a field across every tool
 * (`{"type":["string","null"]}`), tells a model little it does not see in the result itself, and
 * constrains nothing, since null is always allowed anyway.
 */
function outlineField(schema: JsonSchema): JsonSchema {
  if (schema.properties !== undefined || schema.items !== undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [];
  return types.includes("object") || types.includes("array") ? schema : {};
}

function requiredOf(parts: unknown[]): Set<string> {
  const required = new Set<string>();
  for (const part of parts) {
    if (isRecord(part) && Array.isArray(part.required)) {
      for (const name of part.required) if (typeof name === "string") required.add(name);
    }
  }
  return required;
}

/**
 * The fields an outline names: at most OUTLINE_MAX_FIELDS, in the schema's order, the required
 * ones, those that identify the resource (Google Calendar's event lists 40 fields
 * alphabetically; `id` and `summary` were not among the first 12) and those that are not links
 * to other endpoints first (GitHub's repository has 80 fields, 40 of them `*_url`; the first 12
 * in order were mostly links).
 */
function pickFields(names: string[], required: Set<string>, maxFields: number): string[] {
  if (names.length <= maxFields) return names;
  const rank = (name: string) =>
    (required.has(name) || isIdentityField(name) ? 0 : 1) + (isLinkField(name) ? 2 : 0);
  const chosen = new Set(
    names
      .map((name, index) => ({ name, index, rank: rank(name) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .slice(0, maxFields)
      .map((entry) => entry.name),
  );
  return names.filter((name) => chosen.has(name));
}

/** Same object, same `$ref`, or the same JSON (compared last: it is the costly check). */
function isSameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    isRecord(a) &&
    isRecord(b) &&
    typeof a.$ref === "string" &&
    a.$ref === b.$ref &&
    Object.keys(a).length === 1
  ) {
    return Object.keys(b).length === 1;
  }
  return JSON.stringify(a) === JSON.stringify(b);
}
