/**
 * One pass over every operation's parameters for what planning any one operation needs to know
 * of all of them: the descriptions said on many operations (repeated-texts.ts) and the optional
 * query and header parameters declared on nearly all (api-wide-parameters.ts). Each was a walk
 * of its own over Microsoft Graph beta's 22,361 operations and their 71,537 parameter entries
 * (each `$ref` followed), and the texts' walk listed the operations a second time.
 */
import { isRecord } from "../../model/records.js";
import { keyApiWideParameter, selectApiWideParameters } from "./api-wide-parameters.js";
import { listOperations, type OperationSite, resolveRefObject } from "./context.js";
import { selectRepeatedTexts } from "./repeated-texts.js";

export interface ParameterSurvey {
  /** Parameter descriptions said on at least REPEATED_TEXT_OPERATIONS operations. */
  repeatedTexts: Set<string>;
  /** The API-wide parameters' keys (keyApiWideParameter). */
  apiWide: ReadonlySet<string>;
}

const apiWideByDocument = new WeakMap<object, ReadonlySet<string>>();

/**
 * The API-wide optional query and header parameters of a document, read once per document: the
 * planner's survey (surveyParameters) when it made one.
 */
export function listApiWideParameters(document: Record<string, unknown>): ReadonlySet<string> {
  return apiWideByDocument.get(document) ?? surveyParameters(document, listOperations(document)).apiWide;
}

/**
 * The survey of the operations listed (listOperations' sites of the document). The document's
 * API-wide parameters are kept from its first survey on (listApiWideParameters).
 */
export function surveyParameters(
  document: Record<string, unknown>,
  sites: readonly Pick<OperationSite, "pathItem" | "operation">[],
): ParameterSurvey {
  const textCounts = new Map<string, number>();
  const keyCounts = new Map<string, number>();
  // Each counted once per operation, whether said at the path or the operation.
  const texts = new Set<string>();
  const keys = new Set<string>();
  for (const { pathItem, operation } of sites) {
    for (const list of [pathItem.parameters, operation.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const parameter = resolveRefObject(document, raw);
        if (!isRecord(parameter)) continue;
        if (typeof parameter.description === "string") texts.add(parameter.description);
        if (
          typeof parameter.name === "string" &&
          (parameter.in === "query" || parameter.in === "header") &&
          parameter.required !== true
        )
          keys.add(keyApiWideParameter(parameter.in, parameter.name));
      }
    }
    for (const text of texts) textCounts.set(text, (textCounts.get(text) ?? 0) + 1);
    for (const key of keys) keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1);
    texts.clear();
    keys.clear();
  }
  let apiWide = apiWideByDocument.get(document);
  if (apiWide === undefined) {
    apiWide = selectApiWideParameters(keyCounts, sites.length);
    apiWideByDocument.set(document, apiWide);
  }
  return { repeatedTexts: selectRepeatedTexts(textCounts), apiWide };
}
