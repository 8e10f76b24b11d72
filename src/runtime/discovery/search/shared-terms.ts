/**
 * Terms computed once for the two builds a first start makes over the same tools: `serve`
 * builds discovery's search after its first tools/list, and the saved index while it writes the
 * model cache entry, each from every tool's terms (about a second of Microsoft Graph beta's
 * first start, each). While sharing is on (serve turns it on for a pending cache write and off
 * once the entry is written), whichever build reaches a tool first keeps its terms for the other,
 * by the tool and the text they came from; off, nothing is kept.
 */
import type { ToolNode } from "../../../model/types.js";
import { type DocumentSource, type DocumentTerms, readDocumentSource, termsOf } from "./fields.js";

let shared: WeakMap<ToolNode, { text: string; terms: DocumentTerms }> | undefined;

/** Turns sharing on; the function returned turns it off and forgets what was kept. */
export function startSharingTerms(): () => void {
  const mine = new WeakMap<ToolNode, { text: string; terms: DocumentTerms }>();
  shared = mine;
  return () => {
    if (shared === mine) shared = undefined;
  };
}

/**
 * A tool's terms (fields.ts: termsOf), kept from the other build while sharing is on and the
 * tool still says what they were made of. `text` is the document source's JSON, when the caller
 * has it (the saved index hashes it); the terms are never changed by either build.
 */
export function readToolTerms(
  tool: ToolNode,
  source: DocumentSource = readDocumentSource(tool),
  text?: string,
): DocumentTerms {
  if (shared === undefined) return termsOf(source);
  const sourceText = text ?? JSON.stringify(source);
  const kept = shared.get(tool);
  if (kept !== undefined && kept.text === sourceText) return kept.terms;
  const terms = termsOf(source);
  shared.set(tool, { text: sourceText, terms });
  return terms;
}
