/**
 * Which header, query and cookie parameters look like credentials: an API key, a token, a
 * password, or a per-request signature (AWS Signature v4's `X-Amz-*`). Such a parameter is
 * marked in the model (`credential`), and the runtime never takes its value from the model's
 * arguments unless the operator allows it: a secret must not pass through the model.
 *
 * The name decides first, by its head word (the last one: `Api-Key`, `access_token`,
 * `oldPassword`); words before it tell data from secrets (`sort_key`, `nextToken`,
 * `Idempotency-Key` are not credentials). A name that says nothing (`license`, `key`) is a
 * credential when its description says it is an API key or an access token. A parameter whose
 * description says it filters or pages is never one.
 */
import { isRecord } from "../../model/records.js";
import type { CredentialKind, ParameterLocation } from "../../model/types.js";
import { resolveRefObject } from "./context.js";

export interface ParameterFacts {
  name: string;
  in: ParameterLocation;
  description?: string;
  /** The schema's `type`, when it has one: only strings (or untyped values) can be credentials. */
  type?: unknown;
}

/** Head words of a secret. */
const SECRET_HEADS = new Set([
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "passcode",
  "secret",
  "credential",
  "credentials",
  "auth",
  "authorization",
  "authentication",
  "authenticate",
]);

/** Words before `key` that make it a credential (`Api-Key`, `access_key`, `Subscription-Key`). */
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "secret",
  "private",
  "app",
  "application",
  "client",
  "consumer",
  "developer",
  "license",
  "subscription",
  "master",
  "admin",
  "auth",
  "account",
  "service",
  "signing",
]);

/** Words before `token` that make it a page cursor or an idempotency value, not a credential. */
const DATA_TOKEN_QUALIFIERS = new Set([
  "next",
  "page",
  "prev",
  "previous",
  "continuation",
  "continue",
  "cursor",
  "start",
  "resume",
  "sync",
  "pagination",
  "client",
  "idempotency",
  "marker",
]);

/** Words before `signature` that ask for a signature as data (`include_signature`). */
const DATA_SIGNATURE_QUALIFIERS = new Set(["include", "with", "show", "email", "dimension"]);

/** AWS Signature v4's request parameters: computed per request, never a static value. */
const SIGV4_PARAMETERS = new Set([
  "x-amz-signature",
  "x-amz-signedheaders",
  "x-amz-credential",
  "x-amz-algorithm",
  "x-amz-date",
  "x-amz-content-sha256",
]);

/** Descriptions that make a parameter a filter or a page cursor. */
const DATA_DESCRIPTION = /^\s*(filters?|only|search|sort|order)\b|\bpaginat|\bnext (page|set)\b|\bpage of\b/i;

/** Descriptions that say the value is an API credential (`Your Interzoid license API key`). */
const CREDENTIAL_DESCRIPTION = /\b(api[ _-]?key|access[ _-]?token|api[ _-]?token|bearer token|api secret)\b/i;

/** The kind of credential a parameter looks like, or undefined for an ordinary argument. */
export function classifyCredentialParameter(facts: ParameterFacts): CredentialKind | undefined {
  if (facts.in === "path") return undefined; // a path segment names a resource
  if (!mayBeText(facts.type)) return undefined;
  const lower = facts.name.toLowerCase();
  if (SIGV4_PARAMETERS.has(lower)) return "signature";
  const description = facts.description ?? "";
  if (DATA_DESCRIPTION.test(description)) return undefined;
  const byName = classifyName(splitWords(facts.name));
  if (byName !== undefined) return byName;
  return CREDENTIAL_DESCRIPTION.test(description) ? "secret" : undefined;
}

function mayBeText(type: unknown): boolean {
  if (type === undefined || type === "string") return true;
  return Array.isArray(type) && type.includes("string");
}

function classifyName(words: string[]): CredentialKind | undefined {
  const head = words.at(-1);
  if (head === undefined) return undefined;
  const before = words.at(-2);
  if (head === "signature" || head === "sig") {
    return before !== undefined && DATA_SIGNATURE_QUALIFIERS.has(before) ? undefined : "signature";
  }
  if (SECRET_HEADS.has(head)) return "secret";
  // A word may hold its qualifier (`apikey`, `nexttoken`, `authtoken`).
  for (const [suffix, decide] of WORD_ENDINGS) {
    if (!head.endsWith(suffix)) continue;
    const qualifier = head === suffix ? before : head.slice(0, -suffix.length);
    return decide(qualifier) ? "secret" : undefined;
  }
  return undefined;
}

const WORD_ENDINGS: ReadonlyArray<readonly [string, (qualifier: string | undefined) => boolean]> = [
  ["token", (qualifier) => qualifier === undefined || !DATA_TOKEN_QUALIFIERS.has(qualifier)],
  ["key", (qualifier) => qualifier !== undefined && KEY_QUALIFIERS.has(qualifier)],
];

/** `X-ListenAPI-Key` → x, listen, api, key; `oldPassword` → old, password; `api_key` → api, key. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** The facts of a parameter object that decide whether it looks like a credential. */
export function readCredentialFacts(
  parameter: Record<string, unknown>,
  location: ParameterLocation,
  schema: Record<string, unknown>,
): ParameterFacts {
  return {
    name: String(parameter.name),
    in: location,
    ...(typeof parameter.description === "string" ? { description: parameter.description } : {}),
    ...(schema.type !== undefined ? { type: schema.type } : {}),
  };
}

/** A parameter's place as `listApiKeyPlaces` names it: header names compare without case. */
export function nameParameterPlace(location: string, name: string): string {
  return `${location}:${location === "header" ? name.toLowerCase() : name}`;
}

/** A document's apiKey security schemes (references resolved), by their keys. */
function listApiKeySchemes(document: Record<string, unknown>): [string, Record<string, unknown>][] {
  const components = isRecord(document.components) ? document.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  const found: [string, Record<string, unknown>][] = [];
  for (const [key, raw] of Object.entries(schemes)) {
    const scheme = resolveRefObject(document, raw);
    if (isRecord(scheme) && scheme.type === "apiKey") found.push([key, scheme]);
  }
  return found;
}

const apiKeyPlacesByDocument = new WeakMap<object, ReadonlySet<string>>();

/**
 * Where a document's apiKey security schemes carry their keys (`header:x-api-key`, `query:key`,
 * `cookie:sid`), read once per document: such a parameter is filled or withheld by the runtime,
 * and its header is a secret wherever it travels.
 */
export function listApiKeyPlaces(document: Record<string, unknown>): ReadonlySet<string> {
  let places = apiKeyPlacesByDocument.get(document);
  if (places === undefined) {
    const found = new Set<string>();
    for (const [, scheme] of listApiKeySchemes(document))
      if (typeof scheme.name === "string") found.add(nameParameterPlace(String(scheme.in), scheme.name));
    places = found;
    apiKeyPlacesByDocument.set(document, places);
  }
  return places;
}

const apiKeyNamesByDocument = new WeakMap<object, ReadonlySet<string>>();

/** A name as `listApiKeyNames` compares it: letters and digits, lower case (`client_id` = `clientId`). */
export function toLooseName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/**
 * The names (loose: toLooseName) a document's apiKey schemes go by: each scheme's key and the
 * parameter it sends, also without its first word when it has three or more (Plaid's
 * `clientId` scheme sends `PLAID-CLIENT-ID`: `clientid`, `plaidclientid`; `X-Api-Key`: `apikey`). A body property of the same name is the same
 * credential offered a second way (Plaid's bodies take `client_id` and `secret` as well as its
 * headers): the header carries it, and the property is no argument for the model.
 */
export function listApiKeyNames(document: Record<string, unknown>): ReadonlySet<string> {
  let names = apiKeyNamesByDocument.get(document);
  if (names === undefined) {
    const found = new Set<string>();
    for (const [key, scheme] of listApiKeySchemes(document)) {
      found.add(toLooseName(key));
      if (typeof scheme.name !== "string") continue;
      found.add(toLooseName(scheme.name));
      // Without its first word when it has three or more (`PLAID-CLIENT-ID`, `X-Api-Key`).
      const words = scheme.name.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
      if (words.length >= 3) found.add(toLooseName(words.slice(1).join("")));
    }
    found.delete("");
    names = found;
    apiKeyNamesByDocument.set(document, names);
  }
  return names;
}
