/**
 * What search reads of an operation: its words by field, each field weighted by how much a match
 * there says about the operation (BM25F, rank.ts). The name, summary and path say what the
 * operation is; tags say where it belongs; parameter names what it takes; the description says
 * the most words and the least per word.
 */
import type { JsonValue, ToolNode } from "../../../model/types.js";
import { splitPathWords, splitWords, toTerms } from "./tokenize.js";

/** The fields in the order the saved index keeps them. */
export const FIELDS = ["name", "title", "path", "tags", "params", "text"] as const;
export type Field = (typeof FIELDS)[number];

/**
 * Per field: weight (what a match there is worth) and b (how much a long field's matches are
 * discounted, BM25's length normalisation: a path of two words that matches says more than one
 * of ten).
 */
export const FIELD_SETTINGS: Record<Field, { weight: number; b: number }> = {
  name: { weight: 2, b: 0.5 },
  title: { weight: 3, b: 0.5 },
  path: { weight: 2, b: 0.5 },
  tags: { weight: 1.5, b: 0.3 },
  params: { weight: 1, b: 0.75 },
  text: { weight: 0.75, b: 0.75 },
};

/** Terms of the description (and the parameters' descriptions) kept: its first words say the most. */
export const TEXT_TERMS = 64;

/** An operation's terms, by field (in FIELDS order). */
export type DocumentTerms = string[][];

export function toDocumentTerms(tool: ToolNode): DocumentTerms {
  const properties = readProperties(tool.inputSchema.properties);
  const text = [tool.description, ...properties.map(([, schema]) => readDescription(schema))].join("\n");
  return [
    toTerms(splitWords(tool.name)),
    toTerms(splitWords(tool.title)),
    toTerms(splitPathWords(tool.http.path)),
    toTerms(tool.tags.flatMap(splitWords)),
    toTerms(properties.flatMap(([name]) => splitWords(name))),
    toTerms(splitWords(text)).slice(0, TEXT_TERMS),
  ];
}

function readProperties(properties: JsonValue | undefined): [string, JsonValue][] {
  return typeof properties === "object" && properties !== null && !Array.isArray(properties)
    ? Object.entries(properties)
    : [];
}

function readDescription(schema: JsonValue): string {
  return typeof schema === "object" &&
    schema !== null &&
    !Array.isArray(schema) &&
    typeof schema.description === "string"
    ? schema.description
    : "";
}
