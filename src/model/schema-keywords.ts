/**
 * The JSON Schema 2020-12 keywords that hold subschemas, by how they hold them: the planner's
 * converter (generator/compile/json-schema) and the lifecycle's canonical form and diff
 * (runtime/lifecycle) walk schemas by the same table.
 */
export type KeywordKind = "schema" | "schemaArray" | "schemaMap";

/** Keyword → how its value holds subschemas; one lookup per key on the hot path. */
export const SCHEMA_KEYWORD_KINDS: ReadonlyMap<string, KeywordKind> = new Map<string, KeywordKind>([
  // one schema
  ["items", "schema"],
  ["additionalProperties", "schema"],
  ["not", "schema"],
  ["contains", "schema"],
  ["propertyNames", "schema"],
  ["if", "schema"],
  ["then", "schema"],
  ["else", "schema"],
  ["unevaluatedProperties", "schema"],
  ["unevaluatedItems", "schema"],
  ["additionalItems", "schema"],
  // an array of schemas
  ["allOf", "schemaArray"],
  ["anyOf", "schemaArray"],
  ["oneOf", "schemaArray"],
  ["prefixItems", "schemaArray"],
  // a map of schemas
  ["properties", "schemaMap"],
  ["patternProperties", "schemaMap"],
  ["dependentSchemas", "schemaMap"],
  ["$defs", "schemaMap"],
  ["definitions", "schemaMap"],
]);
