/**
 * Whether a schema describes a value the API writes and never reads from a request: OpenAPI's
 * `readOnly: true`, or the marker Google's APIs put in prose instead (their discovery documents
 * have no readOnly keyword): a description that starts "Output only." or "[Output Only]", or
 * has the sentence "Read-only." or "Output only." (Compute Engine marks 1,377 of its
 * 3,514 schema properties so, Cloud Run 104 of 317, Calendar's event its `created`, `creator`,
 * `etag`, `htmlLink`). Such properties are left out of input schemas like readOnly ones.
 */
import { isRecord } from "../../model/records.js";

// A sentence of its own, wherever it stands: Microsoft Graph writes "Read-only. Nullable." and
// "Read-only. Supports $filter (eq)." (createUser's input listed 40 such navigation properties).
const OUTPUT_ONLY_TEXT = /^(\[Output Only\]|Output only\.)|(^|\.\s+)(Read-only|Output only)\.(\s|$)/;

export function isReadOnlySchema(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.readOnly === true) return true;
  return typeof schema.description === "string" && OUTPUT_ONLY_TEXT.test(schema.description.trim());
}

/**
 * Whether an object's property is read-only: its own schema, or the one its `$ref` names (a
 * component marked readOnly or "Output only."), as input schemas and request bodies read it.
 */
export function isReadOnlyProperty(schema: unknown, dereference: (schema: unknown) => unknown): boolean {
  if (isReadOnlySchema(schema)) return true;
  return isRecord(schema) && typeof schema.$ref === "string" && isReadOnlySchema(dereference(schema));
}
