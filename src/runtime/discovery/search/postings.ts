/**
 * The in-memory index: for each term, the operations that have it and its BM25F frequency in
 * each (the field frequencies, weighted by field and normalised by the field's length, summed:
 * Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields", 2004).
 * Everything that depends only on the operations is computed here once, so a search only adds
 * up precomputed numbers over the postings of the query's terms.
 */
import { FIELD_SETTINGS, FIELDS } from "./fields.js";

export interface Postings {
  /** Operations indexed. */
  size: number;
  /** Per term: the operations (ascending) and the term's BM25F frequency in each. */
  terms: Map<string, { docs: number[]; frequencies: number[] }>;
}

/**
 * The postings of `documents`, each a list of term numbers by field (numbers into `terms`, one
 * per distinct term), yielding after each operation, so that a caller can build a huge API's
 * index between other work (discovery.ts does, after the first tools/list, through
 * runInSlices). Numbers rather than the terms themselves: a frequency is a slot of an array, not
 * a Map entry per term of each operation (Graph beta: some 1.8 million of them). Each term's
 * frequency in an operation adds up its fields' shares in the same order as before, so the
 * numbers are the same to the last bit.
 */
export function* buildPostingsSteps(
  documents: readonly (readonly (readonly number[])[])[],
  terms: readonly string[],
): Generator<void, Postings> {
  const settings = FIELDS.map((field) => FIELD_SETTINGS[field]);
  const totals = FIELDS.map(() => 0);
  for (const document of documents) {
    document.forEach((ids, f) => {
      totals[f]! += ids.length;
    });
  }
  const averages = totals.map((total) => Math.max(total / Math.max(documents.length, 1), 1));
  const docsOf: number[][] = [];
  const frequenciesOf: number[][] = [];
  const sums = new Float64Array(terms.length);
  /** The last operation each term was met in (-1: none yet). */
  const lastDoc = new Int32Array(terms.length).fill(-1);
  const met: number[] = [];
  for (let i = 0; i < documents.length; i++) {
    if (i > 0) yield;
    const document = documents[i]!;
    met.length = 0;
    for (let f = 0; f < document.length; f++) {
      const ids = document[f]!;
      const { weight, b } = settings[f]!;
      const norm = 1 - b + (b * ids.length) / averages[f]!;
      const add = weight / norm;
      for (const id of ids) {
        if (lastDoc[id] !== i) {
          lastDoc[id] = i;
          sums[id] = 0;
          met.push(id);
        }
        sums[id] = sums[id]! + add;
      }
    }
    for (const id of met) {
      const docs = docsOf[id];
      if (docs === undefined) {
        docsOf[id] = [i];
        frequenciesOf[id] = [sums[id]!];
      } else {
        docs.push(i);
        frequenciesOf[id]!.push(sums[id]!);
      }
    }
  }
  const postings = new Map<string, { docs: number[]; frequencies: number[] }>();
  for (let id = 0; id < terms.length; id++) {
    const docs = docsOf[id];
    if (docs !== undefined) postings.set(terms[id]!, { docs, frequencies: frequenciesOf[id]! });
  }
  return { size: documents.length, terms: postings };
}
