/**
 * The search index as saved with a model (`SearchIndexNode`, plain JSON): each operation's terms
 * by field, so a saved model or a generated project searches without tokenizing and stemming
 * every operation again. Compact: one vocabulary, and per operation its fields as base-36 term
 * numbers (`"0 1a|2|..."`, fields in FIELDS order, `|` between them), keyed by operation name
 * so that an index of the whole model serves any selection of its tools.
 *
 * `version` names the layout and everything that decides the terms (tokenizer, stemmer, fields):
 * bump it on any change there, and an index of another version is ignored and rebuilt.
 */
import type { SearchIndexNode, ToolNode } from "../../../model/types.js";
import { type DocumentTerms, FIELDS, toDocumentTerms } from "./fields.js";

export const INDEX_VERSION = 2;

export function buildSavedIndex(tools: readonly ToolNode[]): SearchIndexNode {
  const ids = new Map<string, number>();
  const vocabulary: string[] = [];
  const docs: Record<string, string> = {};
  const idOf = (term: string) => {
    let id = ids.get(term);
    if (id === undefined) {
      id = vocabulary.length;
      ids.set(term, id);
      vocabulary.push(term);
    }
    return id.toString(36);
  };
  for (const tool of tools) {
    docs[tool.name] = toDocumentTerms(tool)
      .map((field) => field.map(idOf).join(" "))
      .join("|");
  }
  return { version: INDEX_VERSION, terms: vocabulary.join(" "), docs };
}

/**
 * A reader of each tool's terms from a saved index; a tool the index lacks (or every tool, when
 * the index is of another version or malformed) is tokenized afresh.
 */
export function createTermsReader(index: SearchIndexNode | undefined): (tool: ToolNode) => DocumentTerms {
  const saved = readSaved(index);
  if (saved === undefined) return toDocumentTerms;
  return (tool) => {
    const text = saved.docs[tool.name];
    if (typeof text !== "string") return toDocumentTerms(tool);
    const fields = text.split("|");
    if (fields.length !== FIELDS.length) return toDocumentTerms(tool);
    const out: DocumentTerms = [];
    for (const field of fields) {
      const terms: string[] = [];
      if (field !== "") {
        for (const id of field.split(" ")) {
          const term = saved.vocabulary[Number.parseInt(id, 36)];
          if (term === undefined) return toDocumentTerms(tool);
          terms.push(term);
        }
      }
      out.push(terms);
    }
    return out;
  };
}

function readSaved(
  index: SearchIndexNode | undefined,
): { vocabulary: string[]; docs: Record<string, unknown> } | undefined {
  if (index?.version !== INDEX_VERSION) return undefined;
  const { terms, docs } = index;
  if (typeof terms !== "string" || typeof docs !== "object" || docs === null || Array.isArray(docs))
    return undefined;
  return { vocabulary: terms === "" ? [] : terms.split(" "), docs };
}
