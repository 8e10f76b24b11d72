/**
 * Every form a secret takes on its way, in one place: how the bridge encodes it on the wire
 * (as given in a header, percent-encoded in a query or a cookie, form-encoded in a token
 * request, base64 in a Basic header) and how an API that echoes it writes it in JSON (`\"`,
 * `\\`, `\/`, `\u00e9`). Redaction (results, the audit log) replaces each of these forms, so a
 * credential cannot reach the model in an encoding nobody thought of. A credential's forms come
 * from the kind of credential it is: a plain value, an HTTP Basic `user:password`, a header
 * value with an auth scheme (`Bearer ...`), an OAuth2 client.
 *
 * Values shorter than MIN_SECRET_LENGTH are not redacted: replacing every `ab` of a result would
 * mangle it and hide nothing (a secret that short is guessed anyway). The bridge warns at
 * start-up about a credential that short.
 */
import { encodeCookieValue, encodeUriComponentStrict } from "../../model/percent-encoding.js";

/** The shortest value redacted; shorter ones would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** How the bridge (and HTTP clients in general) put a value on the wire. */
export const WIRE_ENCODINGS: ReadonlyArray<readonly [name: string, encode: (text: string) => string]> = [
  ["as given", (text) => text],
  ["percent-encoded (encodeURIComponent)", encodeURIComponent],
  ["percent-encoded, RFC 3986 (a query credential, a path: !'()* too)", encodeUriComponentStrict],
  ["percent-encoded for a cookie (RFC 6265 cookie-octets kept, % encoded)", encodeCookieValue],
  ["form-urlencoded, space as + (an OAuth2 client's Basic pair)", encodeClientCredential],
  [
    "WHATWG form body (an OAuth2 token request)",
    (text) => new URLSearchParams([["", text]]).toString().slice(1),
  ],
];

/** How an API that echoes a value writes it inside a JSON string. */
export const JSON_ENCODINGS: ReadonlyArray<readonly [name: string, encode: (text: string) => string]> = [
  ['JSON string (\\" \\\\ \\n)', jsonEscape],
  ["JSON string with \\/ (PHP)", (text) => jsonEscape(text).replaceAll("/", "\\/")],
  ["JSON string, ASCII only (\\u00e9: Python)", (text) => asciiOnly(jsonEscape(text))],
  ["JSON string, ASCII only with \\/", (text) => asciiOnly(jsonEscape(text)).replaceAll("/", "\\/")],
];

/** Every form of one secret value: each wire encoding, as is and as written in JSON. */
export function formsOf(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set<string>();
  for (const [, wire] of WIRE_ENCODINGS) {
    const onWire = wire(secret);
    forms.add(onWire); // in text, and in a parsed (structured) copy
    for (const [, json] of JSON_ENCODINGS) forms.add(json(onWire));
  }
  return [...forms];
}

/**
 * An HTTP Basic credential `user:password`: the pair, its base64 (the header), and the password
 * alone (an API may echo it apart from the user name, which is no secret by itself).
 */
export function basicCredentialForms(pair: string): string[] {
  const colon = pair.indexOf(":");
  const password = colon === -1 ? "" : pair.slice(colon + 1);
  return unique([
    ...formsOf(pair),
    ...formsOf(Buffer.from(pair, "utf8").toString("base64")),
    ...formsOf(password),
  ]);
}

/**
 * A header value that may carry a credential (`--header "Authorization: Bearer ..."`, a
 * pass-through header): the whole value, the credential after an auth scheme word, and for
 * `Basic` the decoded pair and password.
 */
export function headerValueForms(value: string): string[] {
  const trimmed = value.trim();
  const forms = formsOf(trimmed);
  const scheme = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+(\S.*)$/.exec(trimmed);
  if (scheme) {
    const credential = scheme[2]!.trim();
    forms.push(...formsOf(credential));
    if (scheme[1]!.toLowerCase() === "basic" && /^[A-Za-z0-9+/=]+$/.test(credential)) {
      forms.push(...basicCredentialForms(Buffer.from(credential, "base64").toString("utf8")));
    }
  }
  return unique(forms);
}

/**
 * An OAuth2 client: the secret, and the Basic header of its token requests (RFC 6749 §2.3.1:
 * id and secret form-encoded, then base64), which a token endpoint may echo in an error.
 */
export function oauthClientForms(clientId: string, clientSecret: string): string[] {
  const pair = `${encodeClientCredential(clientId)}:${encodeClientCredential(clientSecret)}`;
  return unique([...formsOf(clientSecret), ...formsOf(Buffer.from(pair, "utf8").toString("base64"))]);
}

/**
 * True for a static header (`--header`) whose name says it carries a credential: its value is
 * redacted like one. Others (`Accept`, `Stripe-Version: 2024-06-20`) are not: a version date
 * redacted everywhere would mangle results.
 */
export function isCredentialHeader(name: string): boolean {
  return /auth|key|token|secret|session|cookie|pass|credential|signature/i.test(name);
}

/**
 * How an OAuth2 client id or secret is encoded before its Basic pair is base64-encoded
 * (RFC 6749 §2.3.1: form-urlencoded, space as `+`); oauth.ts sends it so.
 */
export function encodeClientCredential(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, "+");
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Every non-ASCII UTF-16 unit as `\uXXXX` (what `json.dumps` writes by default). */
function asciiOnly(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function unique(forms: string[]): string[] {
  return [...new Set(forms)];
}
