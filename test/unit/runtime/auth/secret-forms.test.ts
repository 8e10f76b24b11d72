/** Every form a secret travels in is redacted: one row per encoding on the wire and in JSON. */
import { describe, expect, it } from "vitest";
import {
  basicCredentialForms,
  formsOf,
  headerValueForms,
  isCredentialHeader,
  JSON_ENCODINGS,
  MIN_SECRET_LENGTH,
  oauthClientForms,
  WIRE_ENCODINGS,
} from "../../../../src/runtime/auth/secret-forms.js";
import { createScrubber } from "../../../../src/runtime/results/redact-secrets.js";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("secret forms: what an echo of the credential looks like, and that it is redacted", () => {
  it.each<[string, string[], string, string]>([
    ["as given", formsOf("sk-live-1234"), "key sk-live-1234 used", "key [REDACTED] used"],
    [
      "a query credential with !'()*, RFC 3986 percent-encoded as the bridge sends it",
      formsOf("k!'()*ey-1"),
      "GET /items?api_key=k%21%27%28%29%2Aey-1&x=1",
      "GET /items?api_key=[REDACTED]&x=1",
    ],
    ["encodeURIComponent", formsOf("a b/c=d"), "cookie: k=a%20b%2Fc%3Dd", "cookie: k=[REDACTED]"],
    [
      "a cookie credential, encoded as the bridge sends it",
      formsOf("a b/c=d%"),
      "cookie: k=a%20b/c=d%25",
      "cookie: k=[REDACTED]",
    ],
    ["a form body, space as +", formsOf("a b*c~d"), "client_secret=a+b*c%7Ed&", "client_secret=[REDACTED]&"],
    [
      'JSON-escaped \\" and \\\\',
      formsOf('pa"ss\\word'),
      '{"echo":"pa\\"ss\\\\word"}',
      '{"echo":"[REDACTED]"}',
    ],
    [
      "as given, with JSON-special characters (the parsed, structured copy)",
      formsOf('pa"ss\\word'),
      'pa"ss\\word',
      "[REDACTED]",
    ],
    [
      "JSON-escaped \\/ (PHP)",
      formsOf("tok/en/value"),
      '{"echo":"tok\\/en\\/value"}',
      '{"echo":"[REDACTED]"}',
    ],
    [
      "JSON-escaped \\u00e9 (Python)",
      formsOf("pässwörd"),
      '{"echo": "p\\u00e4ssw\\u00f6rd"}',
      '{"echo": "[REDACTED]"}',
    ],
    [
      "JSON escaped some other way (\\u0073 for s): decoded and checked",
      formsOf("secret-value"),
      '{"echo":"\\u0073ecret-value and more"}',
      '{"echo":"[REDACTED] and more"}',
    ],
    [
      "HTTP Basic: the pair, base64 in the header",
      basicCredentialForms("alice:hunter22"),
      `Authorization: Basic ${b64("alice:hunter22")}`,
      "Authorization: Basic [REDACTED]",
    ],
    [
      "HTTP Basic: the password alone",
      basicCredentialForms("alice:hunter22"),
      '{"user":"alice","password":"hunter22"}',
      '{"user":"alice","password":"[REDACTED]"}',
    ],
    [
      "HTTP Basic: base64 with \\/ in JSON",
      basicCredentialForms("u:???>>>???"),
      `{"auth":"Basic ${b64("u:???>>>???").replaceAll("/", "\\/")}"}`,
      '{"auth":"Basic [REDACTED]"}',
    ],
    [
      "a --header Authorization: the whole value and the token alone",
      headerValueForms("Bearer tok-123456"),
      "sent Bearer tok-123456; token tok-123456",
      "sent [REDACTED]; token [REDACTED]",
    ],
    [
      "a --header Basic value: the decoded password",
      headerValueForms(`Basic ${b64("bob:s3cr3t-pw")}`),
      "password s3cr3t-pw",
      "password [REDACTED]",
    ],
    [
      "an OAuth2 client's Basic pair, as a token endpoint echoes it",
      oauthClientForms("my client", "cl!ent-secret"),
      `{"error_description":"bad client Basic ${b64("my+client:cl!ent-secret")}"}`,
      '{"error_description":"bad client Basic [REDACTED]"}',
    ],
    [
      "an OAuth2 client secret, form-encoded in a token request body",
      oauthClientForms("c", "se cret*"),
      "client_secret=se+cret*",
      "client_secret=[REDACTED]",
    ],
  ])("%s", (_what, forms, text, expected) => {
    expect(createScrubber(forms)(text)).toBe(expected);
  });

  it(`does not redact values shorter than ${MIN_SECRET_LENGTH} characters (they would match ordinary text)`, () => {
    expect(formsOf("abc")).toEqual([]);
    expect(createScrubber(formsOf("abc"))("abcabc")).toBe("abcabc");
    expect(formsOf("abcd")).toContain("abcd");
    // A short Basic password alone is left, the pair and its base64 are not.
    const forms = basicCredentialForms("alice:pw");
    expect(createScrubber(forms)(`pw ${b64("alice:pw")}`)).toBe("pw [REDACTED]");
  });

  it("derives every wire encoding, as is and × every JSON encoding", () => {
    const secret = "ä b/c!";
    const forms = formsOf(secret);
    for (const [, wire] of WIRE_ENCODINGS) {
      expect(forms).toContain(wire(secret));
      for (const [, json] of JSON_ENCODINGS) expect(forms).toContain(json(wire(secret)));
    }
  });

  it.each([
    ["Authorization", true],
    ["X-Api-Key", true],
    ["Ocp-Apim-Subscription-Key", true],
    ["X-Auth-Token", true],
    ["Cookie", true],
    ["Accept", false],
    ["Stripe-Version", false],
    ["User-Agent", false],
  ])("a --header named %s carries a credential: %s", (name, expected) => {
    expect(isCredentialHeader(name)).toBe(expected);
  });
});
