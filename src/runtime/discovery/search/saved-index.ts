/**
 * The search index as saved with a model (`SearchIndexNode`, plain JSON): each operation's terms
 * by field, so a saved model or a generated project searches without tokenizing and stemming
 * every operation again. Compact: one vocabulary, and per operation its fields as base-36 term
 * numbers (`"0 1a|2|..."`, fields in FIELDS order, `|` between them), keyed by operation name
 * so that an index of the whole model serves any selection of its tools.
 *
 * After its fields, each operation's entry keeps a short hash of what they were made of (its
 * name, title, path, tags, parameter names and descriptions: fields.ts, readDocumentSource;
 * `"0 1a|2|...|<hash>"`), the way saved contract digests keep a hash of their tool: saved terms
 * are used only for a tool that still hashes the same, and any other tool (its description
 * edited in a generated project, say) is tokenized afresh. What is hashed is what the terms come from rather than the
 * tool's whole JSON text: a generated project writes its tools with their keys in another order,
 * and a change elsewhere in a tool (a schema, its HTTP binding) leaves its terms as they were.
 * An entry saved before the hashes (six fields, no hash) cannot be checked, so it is not used:
 * each such tool is tokenized, as for a model saved without an index, until the model is saved
 * again. (A bridge from before the hashes reads seven fields as malformed and does the same.)
 *
 * `version` names the layout and everything that decides the terms (tokenizer, stemmer, fields):
 * bump it on any change there, and an index of another version is ignored and rebuilt.
 */
import { hashShort } from "../../../model/hash.js";
import { isRecord } from "../../../model/records.js";
import { runToEnd } from "../../../model/run-steps.js";
import { SAVED_WITH_INDEX, type SearchIndexNode, type ToolNode } from "../../../model/types.js";
import { type DocumentSource, type DocumentTerms, FIELDS, readDocumentSource, termsOf } from "./fields.js";
import { readToolTerms } from "./shared-terms.js";

export const INDEX_VERSION = 4;

/** Characters of the SHA-256 of an operation's document source kept to check it (48 bits). */
const SOURCE_HASH_HEX = 12;

const hashSourceText = (text: string) => hashShort(text, SOURCE_HASH_HEX);
const hashSource = (source: DocumentSource) => hashSourceText(JSON.stringify(source));

export function buildSavedIndex(tools: readonly ToolNode[]): SearchIndexNode {
  return runToEnd(buildSavedIndexSteps(tools));
}

/** The same index, a tool a step: the model cache builds it while `serve` answers (runInSlices). */
export function* buildSavedIndexSteps(tools: readonly ToolNode[]): Generator<void, SearchIndexNode, void> {
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
  for (const [i, tool] of tools.entries()) {
    if (i > 0) yield;
    const source = readDocumentSource(tool);
    const text = JSON.stringify(source);
    const fields = readToolTerms(tool, source, text).map((field) => field.map(idOf).join(" "));
    docs[tool.name] = [...fields, hashSourceText(text)].join("|");
  }
  return { version: INDEX_VERSION, terms: vocabulary.join(" "), docs };
}

/**
 * A reader of each tool's terms from a saved index; a tool the index lacks or no longer
 * describes (or every tool, when the index is of another version or malformed)
 * is tokenized afresh.
 */
export function createTermsReader(index: SearchIndexNode | undefined): (tool: ToolNode) => DocumentTerms {
  const saved = readSaved(index);
  if (saved === undefined) return (tool) => readToolTerms(tool);
  return (tool) => {
    // A tool read from a lazy saved model with this very index: its terms fit, unhashed.
    if ((tool as { [SAVED_WITH_INDEX]?: unknown })[SAVED_WITH_INDEX] === index) {
      const text = Object.hasOwn(saved.docs, tool.name) ? saved.docs[tool.name] : undefined;
      const fields = typeof text === "string" ? text.split("|") : [];
      const terms =
        fields.length === FIELDS.length + 1 ? readTerms(fields.slice(0, -1), saved.vocabulary) : undefined;
      if (terms !== undefined) return terms;
    }
    const source = readDocumentSource(tool);
    const text = Object.hasOwn(saved.docs, tool.name) ? saved.docs[tool.name] : undefined;
    if (typeof text !== "string") return termsOf(source);
    const fields = text.split("|");
    if (fields.length !== FIELDS.length + 1 || fields.pop() !== hashSource(source)) return termsOf(source);
    return readTerms(fields, saved.vocabulary) ?? termsOf(source);
  };
}

/** One operation's saved terms, or undefined when a term number is not in the vocabulary. */
function readTerms(fields: string[], vocabulary: string[]): DocumentTerms | undefined {
  const out: DocumentTerms = [];
  for (const field of fields) {
    const terms: string[] = [];
    if (field !== "") {
      for (const id of field.split(" ")) {
        const term = vocabulary[Number.parseInt(id, 36)];
        if (term === undefined) return undefined;
        terms.push(term);
      }
    }
    out.push(terms);
  }
  return out;
}

function readSaved(
  index: SearchIndexNode | undefined,
): { vocabulary: string[]; docs: Record<string, unknown> } | undefined {
  if (index?.version !== INDEX_VERSION) return undefined;
  const { terms, docs } = index;
  if (typeof terms !== "string" || !isRecord(docs)) return undefined;
  return { vocabulary: terms === "" ? [] : terms.split(" "), docs };
}
