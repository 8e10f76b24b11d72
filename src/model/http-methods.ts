/** HTTP methods of OpenAPI path items: the one list every stage reads. */
import type { HttpMethod } from "./types.js";

/** The operations of a path item, in the order OpenAPI lists them (3.1 §4.8.9; 2.0 has no trace). */
export const HTTP_METHODS: readonly HttpMethod[] = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];

const METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);

/** True for a lower-case method name OpenAPI defines (`get`, not `GET`). */
export function isHttpMethod(value: string): value is HttpMethod {
  return METHOD_SET.has(value);
}
