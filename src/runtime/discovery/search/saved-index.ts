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
 * and a change elsewhere in a tool (a schema, its HTTP binding) leaves its terms as they were,
 * but for the values of its body's action field, which are terms (body-actions.ts) and hashed.
 * An entry saved before the hashes (six fields, no hash) cannot be checked, so it is not used:
 * each such tool is tokenized, as for a model saved without an index, until the model is saved
 * again. (A bridge from before the hashes reads seven fields as malformed and does the same.)
 *
 * `version` names the layout and everything that decides the terms (tokenizer, stemmer, fields):
 * bump it on any change there, and an index of another version is ignored and rebuilt (5: the
 * seventh field, the body's action values).
 */
import { hashShort } from "../../../model/hash.js";
import { isRecord } from "../../../model/records.js";
import { runToEnd } from "../../../model/run-steps.js";
import { SAVED_WITH_INDEX, type SearchIndexNode, type ToolNode } from "../../../model/types.js";
import { type DocumentSource, type DocumentTerms, FIELDS, readDocumentSource, termsOf } from "./fields.js";
import { readToolTerms } from "./shared-terms.js";

export const INDEX_VERSION = 5;

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

/** Each tool's terms as numbers into `terms` (one per distinct term), by field. */
export interface TermsReader {
  /** The terms the numbers stand for: the saved vocabulary, then any term tokenized afresh. */
  terms: string[];
  read(tool: ToolNode): number[][];
}

/**
 * A reader of each tool's terms from a saved index, as numbers (postings.ts builds on them); a
 * tool the index lacks or no longer describes (or every tool, when the index is of another
 * version or malformed) is tokenized afresh.
 */
export function createTermsReader(index: SearchIndexNode | undefined): TermsReader {
  const saved = readSaved(index);
  const terms: string[] = [];
  const numbers = new Map<string, number>();
  const numberOf = (term: string) => {
    let n = numbers.get(term);
    if (n === undefined) {
      n = terms.length;
      numbers.set(term, n);
      terms.push(term);
    }
    return n;
  };
  const numbered = (document: DocumentTerms) => document.map((field) => field.map(numberOf));
  if (saved === undefined) return { terms, read: (tool) => numbered(readToolTerms(tool)) };
  // A saved term's number here (the same term twice in a vocabulary gets one number).
  const savedNumbers = saved.vocabulary.map(numberOf);
  return {
    terms,
    read(tool) {
      // A tool read from a lazy saved model with this very index: its terms fit, unhashed.
      if ((tool as { [SAVED_WITH_INDEX]?: unknown })[SAVED_WITH_INDEX] === index) {
        const text = Object.hasOwn(saved.docs, tool.name) ? saved.docs[tool.name] : undefined;
        const fields = typeof text === "string" ? text.split("|") : [];
        const read =
          fields.length === FIELDS.length + 1 ? readTerms(fields.slice(0, -1), savedNumbers) : undefined;
        if (read !== undefined) return read;
      }
      const source = readDocumentSource(tool);
      const text = Object.hasOwn(saved.docs, tool.name) ? saved.docs[tool.name] : undefined;
      if (typeof text !== "string") return numbered(termsOf(source));
      const fields = text.split("|");
      if (fields.length !== FIELDS.length + 1 || fields.pop() !== hashSource(source))
        return numbered(termsOf(source));
      return readTerms(fields, savedNumbers) ?? numbered(termsOf(source));
    },
  };
}

/** One operation's saved terms as numbers, or undefined when a term number is not in the vocabulary. */
function readTerms(fields: string[], savedNumbers: number[]): number[][] | undefined {
  const out: number[][] = [];
  for (const field of fields) {
    const numbers = readWrittenNumbers(field, savedNumbers);
    if (numbers !== undefined) {
      if (numbers === null) return undefined;
      out.push(numbers);
      continue;
    }
    const parsed: number[] = [];
    if (field !== "") {
      for (const id of field.split(" ")) {
        const n = savedNumbers[Number.parseInt(id, 36)];
        if (n === undefined) return undefined;
        parsed.push(n);
      }
    }
    out.push(parsed);
  }
  return out;
}

/**
 * A field as buildSavedIndexSteps writes it (base-36 numbers of [0-9a-z], one space between),
 * read by its character codes: Graph beta's 1.8 million term numbers were as many substrings
 * split off and parsed. The numbers here, null when one is not in the vocabulary, undefined
 * for a field written otherwise (read by split and parseInt, as before, whatever it holds).
 */
function readWrittenNumbers(field: string, savedNumbers: number[]): number[] | null | undefined {
  const numbers: number[] = [];
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= field.length; i++) {
    const code = i < field.length ? field.charCodeAt(i) : SPACE;
    if (code === SPACE) {
      if (digits === 0) return i === 0 && field.length === 0 ? numbers : undefined;
      const n = savedNumbers[value];
      if (n === undefined) return null;
      numbers.push(n);
      value = 0;
      digits = 0;
    } else if (code >= DIGIT_0 && code <= DIGIT_9) {
      value = value * 36 + (code - DIGIT_0);
      digits += 1;
    } else if (code >= LOWER_A && code <= LOWER_Z) {
      value = value * 36 + (code - LOWER_A + 10);
      digits += 1;
    } else return undefined;
    // past any vocabulary (and exact integers): the slow reading says what it is
    if (digits > MAX_WRITTEN_DIGITS) return undefined;
  }
  return numbers;
}

const SPACE = 32;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LOWER_A = 97;
const LOWER_Z = 122;
/** Base-36 digits read by character code: 36^8 is well within exact integers. */
const MAX_WRITTEN_DIGITS = 8;

function readSaved(
  index: SearchIndexNode | undefined,
): { vocabulary: string[]; docs: Record<string, unknown> } | undefined {
  if (index?.version !== INDEX_VERSION) return undefined;
  const { terms, docs } = index;
  if (typeof terms !== "string" || !isRecord(docs)) return undefined;
  return { vocabulary: terms === "" ? [] : terms.split(" "), docs };
}
