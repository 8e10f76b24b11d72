/** Media types: the one test of "this body is JSON" that planning and the runtime share. */

/**
 * True for `application/json`, `text/json` and any `+json` structured syntax suffix (RFC 6839),
 * in any case and with or without parameters (`application/problem+json; charset=utf-8`).
 */
export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  return base === "application/json" || base === "text/json" || /^[^/\s]+\/[^/\s]+\+json$/.test(base);
}

/**
 * True for `application/xml`, `text/xml` and any `+xml` structured syntax suffix (RFC 7303),
 * in any case and with or without parameters.
 */
export function isXmlMediaType(mediaType: string): boolean {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  return base === "application/xml" || base === "text/xml" || /^[^/\s]+\/[^/\s]+\+xml$/.test(base);
}
