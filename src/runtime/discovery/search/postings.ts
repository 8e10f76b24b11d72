/**
 * The in-memory index: for each term, the operations that have it and its BM25F frequency in
 * each (the field frequencies, weighted by field and normalised by the field's length, summed:
 * Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields", 2004).
 * Everything that depends only on the operations is computed here once, so a search only adds
 * up precomputed numbers over the postings of the query's terms.
 */
import { runToEnd } from "../../../model/run-steps.js";
import { type DocumentTerms, FIELD_SETTINGS, FIELDS } from "./fields.js";

export interface Postings {
  /** Operations indexed. */
  size: number;
  /** Per term: the operations (ascending) and the term's BM25F frequency in each. */
  terms: Map<string, { docs: number[]; frequencies: number[] }>;
}

export function buildPostings(documents: readonly DocumentTerms[]): Postings {
  return runToEnd(buildPostingsSteps(documents));
}

/**
 * The same build, yielding after each operation, so that a caller can build a huge API's index
 * between other work (discovery.ts does, after the first tools/list, through runInSlices).
 */
export function* buildPostingsSteps(documents: readonly DocumentTerms[]): Generator<void, Postings> {
  const settings = FIELDS.map((field) => FIELD_SETTINGS[field]);
  const totals = FIELDS.map(() => 0);
  for (const document of documents) {
    document.forEach((terms, f) => {
      totals[f]! += terms.length;
    });
  }
  const averages = totals.map((total) => Math.max(total / Math.max(documents.length, 1), 1));
  const terms = new Map<string, { docs: number[]; frequencies: number[] }>();
  const frequency = new Map<string, number>();
  for (let i = 0; i < documents.length; i++) {
    if (i > 0) yield;
    const document = documents[i]!;
    frequency.clear();
    document.forEach((fieldTerms, f) => {
      const { weight, b } = settings[f]!;
      const norm = 1 - b + (b * fieldTerms.length) / averages[f]!;
      const add = weight / norm;
      for (const term of fieldTerms) frequency.set(term, (frequency.get(term) ?? 0) + add);
    });
    for (const [term, value] of frequency) {
      let list = terms.get(term);
      if (list === undefined) {
        list = { docs: [], frequencies: [] };
        terms.set(term, list);
      }
      list.docs.push(i);
      list.frequencies.push(value);
    }
  }
  return { size: documents.length, terms };
}
