/**
 * Optional query and header parameters an API declares on (nearly) every operation: Google's
 * ten "standard parameters" (`$.xgafv`, `alt`, `callback`, `prettyPrint`, `quotaUser`,
 * `upload_protocol`, `uploadType`, …) on each of Gmail's 79 operations. They are real options,
 * so they stay arguments, but they say nothing about what one operation does: listed first
 * (the path item declares them), they filled code mode's one-line signatures and hid Gmail's
 * `q` and `maxResults` behind `+11 more`. Their bindings are marked (`apiWide`); the
 * signatures name them after the operation's own.
 */
import { HTTP_METHODS } from "../../model/http-methods.js";
import { isRecord } from "../../model/records.js";
import { resolveRefObject } from "./context.js";

/** An API needs this many operations before a parameter can be API-wide. */
const MIN_OPERATIONS = 8;

/** Share of the operations that must declare a parameter for it to be API-wide. */
const MIN_SHARE = 0.9;

const apiWideByDocument = new WeakMap<object, ReadonlySet<string>>();

/** A parameter's key in the set: its location and name. */
export function keyApiWideParameter(location: string, name: string): string {
  return `${location}:${name}`;
}

/** The API-wide optional query and header parameters of a document, read once per document. */
export function listApiWideParameters(document: Record<string, unknown>): ReadonlySet<string> {
  let found = apiWideByDocument.get(document);
  if (found !== undefined) return found;
  const counts = new Map<string, number>();
  let operations = 0;
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const rawItem of Object.values(paths)) {
    const item = resolveRefObject(document, rawItem);
    if (!isRecord(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      operations++;
      const keys = new Set<string>();
      for (const list of [item.parameters, operation.parameters]) {
        if (!Array.isArray(list)) continue;
        for (const raw of list) {
          const parameter = resolveRefObject(document, raw);
          if (!isRecord(parameter) || typeof parameter.name !== "string") continue;
          if (parameter.in !== "query" && parameter.in !== "header") continue;
          if (parameter.required === true) continue;
          keys.add(keyApiWideParameter(parameter.in, parameter.name));
        }
      }
      for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  found = new Set(
    operations < MIN_OPERATIONS
      ? []
      : [...counts].filter(([, count]) => count >= operations * MIN_SHARE).map(([key]) => key),
  );
  apiWideByDocument.set(document, found);
  return found;
}
