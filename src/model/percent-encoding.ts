/**
 * Percent-encoding, one home for every place a value goes into a URL or a Cookie header: an
 * argument in a path, a query or a cookie (request/params.ts) and a credential in a query or a
 * cookie (auth/credentials.ts). Each encoder writes the UTF-8 bytes of what it does not keep as
 * `%XX` (upper-case hex).
 *
 * Cookies follow OpenAPI's `style: form` for `in: cookie` (RFC 6570 form expansion applies
 * percent-encoding; OAS 3.1.1 Appendix D) within what RFC 6265 §4.1.1 allows unencoded: a
 * cookie-octet stays as it is (so `/`, `=`, `:`, `@` stay readable), anything else (space, `"`,
 * `,`, `;`, `\`, controls, non-ASCII) is encoded, and so is `%` itself, so that a server that
 * decodes cookie values (Express, PHP, Rack, ASP.NET) reads back exactly the value given, and
 * one that does not sees no ambiguous `%`.
 */

const utf8 = new TextEncoder();

/** RFC 3986 unreserved characters. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** RFC 6265 cookie-octet, minus `%` so that decoding is unambiguous. */
const COOKIE_OCTET = /[\x21\x23-\x24\x26-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]/;
/** RFC 9110 tchar, minus `%`: what a cookie name may hold unencoded. */
const TOKEN_CHAR = /[A-Za-z0-9!#$&'*+\-.^_`|~]/;

/** Percent-encodes every UTF-8 byte of `text` except the ASCII characters `keep` matches. */
function encodeExcept(text: string, keep: RegExp): string {
  let out = "";
  for (const char of text) {
    if (char.length === 1 && keep.test(char)) {
      out += char;
      continue;
    }
    for (const byte of utf8.encode(char)) {
      out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}

/** RFC 3986 / RFC 6570 simple expansion: everything but unreserved characters (`!'()*` too). */
export function encodeUriComponentStrict(text: string): string {
  return encodeExcept(text, UNRESERVED);
}

/** A cookie's value: RFC 6265 cookie-octets kept, everything else and `%` encoded. */
export function encodeCookieValue(text: string): string {
  return encodeExcept(text, COOKIE_OCTET);
}

/** A cookie's name: RFC 9110 token characters kept, everything else and `%` encoded. */
export function encodeCookieName(text: string): string {
  return encodeExcept(text, TOKEN_CHAR);
}
