/**
 * What search reads of an operation: its words by field, each field weighted by how much a match
 * there says about the operation (BM25F, rank.ts). The name, summary and path say what the
 * operation is; tags say where it belongs; parameter names what it takes; the description says
 * the most words and the least per word; the values of a body's field that chooses an action
 * (body-actions.ts) what else it does.
 */
import type { JsonValue, ToolNode } from "../../../model/types.js";
import { readBodyActions } from "./body-actions.js";
import { readIdiomWords } from "./idioms.js";
import { splitPathWords, splitWords, toTerms } from "./tokenize.js";

/** The fields in the order the saved index keeps them. */
export const FIELDS = ["name", "title", "path", "tags", "params", "text", "actions"] as const;
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
  // A list of alternatives, each the operation's act (body-actions.ts): one of fifteen says as
  // much as one of two, so no length normalisation (and most operations have none: the average
  // length says nothing).
  actions: { weight: 2, b: 0 },
};

/** Terms of the description (and the parameters' descriptions) kept: its first words say the most. */
export const TEXT_TERMS = 64;

/** An operation's terms, by field (in FIELDS order). */
export type DocumentTerms = string[][];

/**
 * What an operation's terms are made of, as the tool says it, by field (in FIELDS order): the
 * saved index keeps a hash of it beside each operation's terms, to tell whether they still fit.
 */
export type DocumentSource = [
  name: string,
  title: string,
  path: string,
  tags: string[],
  params: string[],
  text: string,
  actions: string[],
];

export function readDocumentSource(tool: ToolNode): DocumentSource {
  const properties = readProperties(tool.inputSchema.properties);
  const text = [tool.description, ...properties.map(([, schema]) => readDescription(schema))].join("\n");
  return [
    tool.name,
    tool.title,
    tool.http.path,
    tool.tags,
    properties.map(([name]) => name),
    text,
    readBodyActions(tool),
  ];
}

/** The terms of each field: words split, stop words dropped, stemmed (tokenize.ts). */
export function termsOf([name, title, path, tags, params, text, actions]: DocumentSource): DocumentTerms {
  return [
    toTerms(splitWords(name)),
    toTerms(splitWords(title)),
    // The path's idioms in everyday words ($count: "count number", delta: "track changes").
    toTerms([...splitPathWords(path), ...readIdiomWords(path)]),
    toTerms(tags.flatMap(splitWords)),
    toTerms(params.flatMap(splitWords)),
    toTerms(splitWords(text)).slice(0, TEXT_TERMS),
    toTerms(actions.flatMap(splitWords)),
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
