/**
 * The lists of an XML answer, from its response schema (OpenAPI `xml` object, OAS 3.x §4.8.26):
 * the element name of each array property (its `xml.name`, else the property's name), and for
 * an array marked `wrapped: false` the name its items repeat under. XML alone cannot tell a list
 * of one, or an empty one, from any element: with these names the runtime reads them as lists
 * (results/xml-json.ts). Planned only for operations whose 2xx answers are XML and never JSON
 * (where JSON is offered the bridge asks for it first).
 */
import { isJsonMediaType, isXmlMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { OperationContext } from "./context.js";
import type { SchemaConverter } from "./json-schema.js";
import { listSuccessMedia } from "./output-schema.js";

/** Schemas walked per operation at most: the names of a real answer are found long before. */
const MAX_SCHEMAS = 5000;

/** The list element names of the operation's XML answers, sorted, or undefined when none. */
export function planXmlLists(context: OperationContext): string[] | undefined {
  const schemas: unknown[] = [];
  for (const [mediaType, media] of listSuccessMedia(context)) {
    if (isJsonMediaType(mediaType)) return undefined;
    if (isXmlMediaType(mediaType) && isRecord(media) && media.schema !== undefined)
      schemas.push(media.schema);
  }
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const stack = schemas;
  while (stack.length > 0 && seen.size < MAX_SCHEMAS) {
    const raw = stack.pop();
    const resolved = context.converter.dereference(raw);
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    const schema = mergeAllOf(context.converter, raw);
    if (schema.items !== undefined) stack.push(schema.items);
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const [key, property] of Object.entries(properties)) {
      const view = mergeAllOf(context.converter, property);
      const name = readXmlName(view) ?? key;
      if (view.type === "array" || view.items !== undefined) {
        const unwrapped = isRecord(view.xml) && view.xml.wrapped === false;
        names.add(unwrapped ? (readXmlName(mergeAllOf(context.converter, view.items)) ?? name) : name);
      }
      stack.push(property);
    }
  }
  return names.size > 0 ? [...names].sort() : undefined;
}

/**
 * A schema with its `$ref` followed and the keys of its `allOf` parts beside its own (its own
 * first): AWS specs name a property's element in an allOf part beside the `$ref` of its type.
 */
export function mergeAllOf(converter: SchemaConverter, schema: unknown): Record<string, unknown> {
  const resolved = converter.dereference(schema);
  if (!isRecord(resolved)) return {};
  if (!Array.isArray(resolved.allOf)) return resolved;
  const merged: Record<string, unknown> = { ...resolved };
  for (const part of resolved.allOf) {
    const view = converter.dereference(part);
    if (!isRecord(view)) continue;
    for (const [key, value] of Object.entries(view)) if (merged[key] === undefined) merged[key] = value;
  }
  return merged;
}

export function readXmlName(schema: Record<string, unknown>): string | undefined {
  return isRecord(schema.xml) && typeof schema.xml.name === "string" && schema.xml.name !== ""
    ? schema.xml.name
    : undefined;
}
