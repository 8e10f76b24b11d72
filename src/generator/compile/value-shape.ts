/** The coarse shape of a value (primitive, array or object), read through refs, allOf and type lists. */
import { isRecord } from "../../model/records.js";
import type { ValueShape } from "../../model/types.js";
import type { SchemaConverter } from "./json-schema.js";

/** primitive, array or object, read through refs, allOf and type lists. */
export function determineShape(converter: SchemaConverter, schema: unknown, depth = 0): ValueShape {
  const node = converter.dereference(schema);
  if (!isRecord(node) || depth > 8) return "primitive";
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("array")) return "array";
  if (types.includes("object")) return "object";
  if (node.type === undefined) {
    if (node.items !== undefined) return "array";
    if (node.properties !== undefined || node.additionalProperties !== undefined) return "object";
    for (const key of ["allOf", "oneOf", "anyOf"]) {
      const list = node[key];
      if (Array.isArray(list) && list.length > 0) return determineShape(converter, list[0], depth + 1);
    }
  }
  return "primitive";
}
